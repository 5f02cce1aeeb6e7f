// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ArmRun } from '../../../lib/throughput/arm/arm.js';
import type { PassMessage } from '../../../lib/workers/messages.js';
import { armRecord } from '../../../lib/throughput/arm/record.js';
import { mergeRounds } from '../../../lib/throughput/run/rounds.js';

interface StreamPass {
  startMs: number;
  endMs: number;
  audio: number;
  cpu?: number | null;
}

/** A finished arm: `passes[j][rang]` is what stream `rang` did in timed pass j; one warm-up pass before. */
function run(passes: StreamPass[][], cores: number[][] = passes[0]!.map(() => [0, 1])): ArmRun {
  const k = passes[0]!.length;
  const message = (j: number, s: StreamPass, warmup = false): PassMessage => ({
    type: 'pass',
    pass: j,
    warmup,
    computeSeconds: (s.endMs - s.startMs) / 1000,
    inferenceSeconds: (s.endMs - s.startMs) / 1000,
    audioSeconds: s.audio,
    cpuSeconds: s.cpu === null ? null : (s.cpu ?? 0.99) * ((s.endMs - s.startMs) / 1000),
    startMs: s.startMs,
    endMs: s.endMs,
  });
  const warm: StreamPass = { startMs: -5000, endMs: -4000, audio: 99 };
  const all = [passes[0]!.map(() => warm), ...passes];
  return {
    state: 'done',
    children: Array.from({ length: k }, (_, rang) => ({
      rang,
      pid: 1,
      core: undefined,
      loaded: {
        type: 'loaded' as const,
        pid: 1,
        cores: cores[rang]!,
        loadSeconds: 1,
        phonemizeSeconds: 0.1,
        sentences: 1,
        missingPhonemes: {},
      },
      passes: all.map((p, j) => message(j, p[rang]!, j === 0)),
    })),
    sync: all.map((p, j) => ({
      pass: j,
      warmup: j === 0,
      atMs: p[0]!.startMs,
      startsMs: p.map((s) => s.startMs),
      endsMs: p.map((s) => s.endMs),
      skewMs: 0.1,
      lateMs: 0.1,
    })),
    timedCpu: [],
    wallSeconds: 10,
  };
}

/** Two streams whose pass j lasts 1 s each and yields `ratios[j]` s of audio each. */
const twoStreams = (ratios: number[]): ArmRun =>
  run(
    ratios.map((r, j) => [0, 1].map((rang) => ({ startMs: 2000 * j + rang * 0.1, endMs: 2000 * j + 1000, audio: r }))),
  );

const id = {
  voice: { name: 'v', synthetic: true, sha256: 'x' },
  condition: { flux: 2, fils: 1, affinite: false, isolation: 'process' as const },
  allCores: [0, 1],
};

describe('arm record statistics', () => {
  it('aggregates each pass as the audio of every stream over its span, leaves the warm-up out, and tags each pass with its round', () => {
    const a = armRecord(
      mergeRounds([
        { round: 1, order: 2, run: twoStreams([10, 10.2]) },
        { round: 2, order: 1, run: twoStreams([9.9, 10.1]) },
        { round: 3, order: 3, run: twoStreams([10, 10]) },
      ]),
      id,
    );
    // 20 s of audio over a span of 1 s (0 to 1000 ms) per pass.
    assert.deepEqual(a.debit_agrege_par_passe, [20, 20.4, 19.8, 20.2, 20, 20]);
    assert.equal(a.debit_agrege_passe_mediane, 20);
    // Round figures 20.2, 20, 20: the centre is their geometric mean, the interval the t interval of their logs around it.
    assert.deepEqual(a.debit_agrege_manches, [20.2, 20, 20]);
    const logs = [20.2, 20, 20].map(Math.log);
    const mean = logs.reduce((x, y) => x + y, 0) / 3;
    assert.ok(Math.abs((a.debit_agrege_centre ?? 0) - Math.exp(mean)) < 1e-12);
    const h = (4.303 * Math.sqrt(logs.reduce((x, y) => x + (y - mean) ** 2, 0) / 2)) / Math.sqrt(3);
    assert.ok(
      Math.abs((a.debit_agrege_ic95?.[0] ?? 0) - Math.exp(mean - h)) < 1e-9 &&
        Math.abs((a.debit_agrege_ic95?.[1] ?? 0) - Math.exp(mean + h)) < 1e-9,
    );
    assert.equal(a.enfants[0]?.statistiques.ratio.n, 6);
    assert.equal(a.enfants[0]?.resume.ratio.max, 10.2);
    assert.deepEqual(
      a.enfants[0]?.passes.map((p) => [p.passe, p.manche]),
      [
        [1, 1],
        [2, 1],
        [4, 2],
        [5, 2],
        [7, 3],
        [8, 3],
      ],
    );
    assert.deepEqual(
      a.enfants[0]?.echauffement.map((p) => [p.passe, p.manche]),
      [
        [0, 1],
        [3, 2],
        [6, 3],
      ],
    );
    assert.deepEqual(
      a.manches.map((m) => [m.manche, m.ordre, m.etat]),
      [
        [1, 2, 'done'],
        [2, 1, 'done'],
        [3, 3, 'done'],
      ],
    );
    assert.deepEqual([a.synchro[1]?.audio_total_s, a.synchro[1]?.etendue_s, a.synchro[1]?.manche], [20, 1, 1]);
    assert.equal(a.debit_par_flux_ic95.length, 2);
    assert.equal(a.bruyant, false);
    assert.equal(a.controle_tenu, true);
  });

  it('one round: no interval, whatever the passes', () => {
    const a = armRecord(twoStreams([10, 10.2, 9.9, 10.1, 10, 10]), id);
    assert.deepEqual([a.debit_agrege_ic95, a.debit_agrege_manches], [null, [20]]);
  });

  it('a round that failed fails the arm, naming the round; the rounds before it stay', () => {
    const failed = { ...twoStreams([10]), state: 'failed' as const, message: 'stream 1 exited' };
    const a = armRecord(
      mergeRounds([
        { round: 1, order: 1, run: twoStreams([10, 10]) },
        { round: 2, order: 4, run: failed },
      ]),
      id,
    );
    assert.deepEqual([a.etat, a.erreur, a.controle_tenu], ['failed', 'round 2: stream 1 exited', false]);
    assert.deepEqual(
      a.manches.map((m) => m.etat),
      ['done', 'failed'],
    );
  });

  it('pinning is checked in every round: a round whose streams shared a core fails affinity', () => {
    const pinned = { ...id, condition: { ...id.condition, affinite: true } };
    const good = run(
      [
        [
          { startMs: 0, endMs: 1000, audio: 10 },
          { startMs: 0, endMs: 1000, audio: 10 },
        ],
      ],
      [[0], [1]],
    );
    const shared = run(
      [
        [
          { startMs: 0, endMs: 1000, audio: 10 },
          { startMs: 0, endMs: 1000, audio: 10 },
        ],
      ],
      [[0], [0]],
    );
    const a = armRecord(
      mergeRounds([
        { round: 1, order: 1, run: good },
        { round: 2, order: 1, run: shared },
      ]),
      pinned,
    );
    assert.equal(a.controles.find((c) => c.name === 'affinity')?.held, false);
    assert.equal(
      armRecord(
        mergeRounds([
          { round: 1, order: 1, run: good },
          { round: 2, order: 1, run: good },
        ]),
        pinned,
      ).controles.find((c) => c.name === 'affinity')?.held,
      true,
    );
  });

  it('never more speech than the cores can make: K=3 on 2 cores ending at 1.0, 1.5, 1.5 s is 2.0, not 2.33', () => {
    const pass = [
      { startMs: 0, endMs: 1000, audio: 1 },
      { startMs: 0, endMs: 1500, audio: 1 },
      { startMs: 0, endMs: 1500, audio: 1 },
    ];
    const a = armRecord(
      run(
        Array.from({ length: 6 }, (_, j) =>
          pass.map((s) => ({ ...s, startMs: s.startMs + 2000 * j, endMs: s.endMs + 2000 * j })),
        ),
      ),
      { ...id, condition: { ...id.condition, flux: 3 } },
    );
    assert.deepEqual(a.debit_agrege_par_passe, [2, 2, 2, 2, 2, 2]);
    assert.equal(a.debit_agrege_passe_mediane, 2);
    // The original script's sum of stream medians stays, under its own key.
    assert.ok(Math.abs((a.debit_agrege_mediane ?? 0) - (1 + 2 / 1.5)) < 1e-12);
  });

  it('flags an arm NOISY when the interquartile range of its pass aggregates passes 10% of their median', () => {
    const a = armRecord(twoStreams([10, 12, 8, 11, 9, 10]), id);
    // Aggregates 20,24,16,22,18,20: Q1 18.5, Q3 21.5, IQR 3 over median 20 = 15%.
    assert.equal(a.dispersion_relative, 0.15);
    assert.equal(a.bruyant, true);
  });

  it('below 4 passes: no spread, and the arm says it is too few to judge', () => {
    const a = armRecord(twoStreams([10, 10, 10]), id);
    assert.deepEqual([a.debit_agrege_ic95, a.dispersion_relative, a.bruyant], [null, null, true]);
  });

  it('a pass with zero audio fails its arm with a message, and the record stays archivable', () => {
    const passes = Array.from({ length: 6 }, (_, j) =>
      [0, 1].map((rang) => ({ startMs: 2000 * j, endMs: 2000 * j + 1000, audio: j === 2 && rang === 1 ? 0 : 10 })),
    );
    const a = armRecord(run(passes), id);
    assert.equal(a.etat, 'failed');
    assert.equal(
      a.erreur,
      'stream 1 pass 3 measured 0 s of audio, so it has no throughput; check the voice and the text',
    );
    assert.equal(a.enfants[1]?.passes[2]?.ratio, null);
    assert.equal(a.controle_tenu, false);
    assert.ok(a.debit_agrege_par_passe.every(Number.isFinite));
  });

  it('a CPU that cannot be read stays unknown: cpu_max and cpu_sum do not hold and say they could not check', () => {
    const passes = Array.from({ length: 6 }, (_, j) =>
      [0, 1].map((rang) => ({ startMs: 2000 * j, endMs: 2000 * j + 1000, audio: 10, cpu: rang === 0 ? null : 0.99 })),
    );
    const a = armRecord(run(passes), id);
    assert.equal(a.enfants[0]?.resume.cpu_pourcent.max, null);
    const max = a.controles.find((c) => c.name === 'cpu_max');
    assert.deepEqual([max?.held, max?.measured], [false, null]);
    assert.match(max?.message ?? '', /stream 0's CPU could not be read/);
    assert.equal(a.controles.find((c) => c.name === 'cpu_sum')?.held, false);
    assert.equal(a.controle_tenu, false);
  });

  it('cpu_sum counts the cores each stream may use: pinned T=2 streams on 4 cores hold at 200%', () => {
    const passes = Array.from({ length: 6 }, (_, j) =>
      [0, 1].map(() => ({ startMs: 2000 * j, endMs: 2000 * j + 1000, audio: 10, cpu: 1 })),
    );
    const a = armRecord(run(passes, [[0], [1]]), {
      ...id,
      condition: { flux: 2, fils: 2, affinite: true, isolation: 'process' },
      allCores: [0, 1, 2, 3],
    });
    const sum = a.controles.find((c) => c.name === 'cpu_sum');
    assert.deepEqual([sum?.threshold, sum?.measured, sum?.held], [150, 200, true]);
  });
});
