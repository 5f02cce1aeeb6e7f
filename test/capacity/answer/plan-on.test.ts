// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closingLines } from '../../../lib/cli/commands/capacity-command.js';
import { driftLine, planOn, stealByRound, stealLine } from '../../../lib/capacity/answer/plan-on.js';
import { bestLayout } from '../../../lib/capacity/answer/layouts.js';
import { dropDominated } from '../../../lib/capacity/run/sweep.js';
import { CapacitySearch } from '../../../lib/capacity/answer/search.js';
import type { Sweep } from '../../../lib/capacity/answer/sweep-state.js';
import type { CapacityEntry, TrialRecord } from '../../../lib/capacity/archive/schema.js';
import { parseProcStatSteal, stealShare } from '../../../lib/measure/system-cpu.js';

const entry = (disposition: string, a: number, prevision: [number, number] | null, more: Partial<CapacityEntry> = {}) =>
  ({
    voix: 'v',
    disposition,
    flux_max_sans_trou: a,
    flux_tenu_essais: a,
    prevision,
    essais_manquants: 0,
    debit_vivant: a + 1,
    preuves: [],
    ...more,
  }) as unknown as CapacityEntry;

describe('the line a deployer reads first', () => {
  it('plans on the highest of the low ends read to hold at once (plan_bas), a wide range not dragging it down', () => {
    // A default run on the slow VM: one process per stream on too few rounds (3 to 33), the pool 12 to 18.
    const stream = entry('one process per stream x 1 thread, free', 8, [3, 33], { plan_bas: 2 });
    const pool = entry('pool of 2 processes x 1 thread, free', 16, [12, 18], { plan_bas: 11 });
    const threads = entry('1 process x 2 threads, free', 13, [10, 17], { plan_bas: 9 });
    const p = planOn('v', 'v', [stream, pool, threads], undefined, [stream.disposition, pool.disposition]);
    assert.deepEqual([p.flux, p.disposition, p.prevision], [11, pool.disposition, [11, 18]]);
    assert.equal(
      p.phrase,
      "v: plan on 11 live listeners with pool of 2 processes x 1 thread, free (this run: 16; a rerun may answer 12 to 18; the highest of 3 layouts' low ends read to hold at once)",
    );
    // An unpublished layout is not among them, whatever its plan_bas.
    const short = { ...pool, essais_manquants: 1 };
    assert.equal(planOn('v', 'v', [stream, short, threads]).flux, 9);
  });

  it('plans on the low end of a rerun of the layout it names, with this run and the range, under 160 characters', () => {
    const free = entry('one process per stream x 1 thread, free', 10, [8, 12]);
    const pool = entry('pool of 2 processes x 1 thread, free', 11, [7, 15]);
    const short = entry('one process per stream x 1 thread, pinned', 12, [9, 13], { essais_manquants: 1 });
    // Free named best by live speed; the unpublished one plans nothing.
    const p = planOn('v', 'synthetic-siwis-medium', [free, pool, short], undefined, [free.disposition]);
    assert.equal(
      p.phrase,
      'synthetic-siwis-medium: plan on 8 live listeners with one process per stream x 1 thread, free (this run: 10; a rerun may answer 8 to 12)',
    );
    assert.ok(p.phrase.length < 160);
    // The terminal's first line: the same without the figures the voice's details give.
    assert.equal(
      p.ligne,
      'synthetic-siwis-medium: plan on 8 live listeners with one process per stream x 1 thread, free',
    );
    assert.deepEqual([p.flux, p.ce_run, p.prevision], [8, 10, [8, 12]]);
  });

  it('names what the number depends on: the session profile, the reply, a synthetic stand-in as such', () => {
    const layouts = [
      entry('one process per stream x 1 thread, pinned', 10, [8, 12]),
      entry('pool of 2 processes x 1 thread, free', 9, [7, 11]),
    ];
    const p = planOn('v', 'synthetic-siwis-medium', layouts, { session: 'piper-tts', sentences: 2, synthetic: true }, [
      'one process per stream x 1 thread, pinned',
    ]);
    assert.equal(
      p.ligne,
      'synthetic-siwis-medium: plan on 8 live listeners with one process per stream x 1 thread, pinned (piper-tts, 2-sentence replies, SYNTHETIC)',
    );
    assert.ok(p.ligne.length < 160, String(p.ligne.length));
    assert.match(
      p.phrase,
      /\(this run: 10; a rerun may answer 8 to 12; piper-tts, 2-sentence replies, SYNTHETIC; a stand-in's figure: put your voice in voices\/\)$/,
    );
    // A real voice says no stand-in; a server runs its own session settings; a one-line reply is one sentence.
    const real = planOn('v', 'fr_FR-siwis-medium', layouts, { session: 'libpiper', sentences: 1, synthetic: false });
    assert.match(real.ligne, / \(libpiper, 1-sentence reply\)$/);
    assert.doesNotMatch(real.phrase, /stand-in/);
    const server = planOn('server', 'the server at tcp://127.0.0.1:10200', layouts, {
      session: null,
      sentences: 4,
      synthetic: false,
    });
    assert.match(server.ligne, / \(4-sentence replies\)$/);
    // No number to plan on still names them.
    const none = planOn('v', 'v', [entry('L', 6, null, { essais_manquants: 2 })], {
      session: 'piper-tts',
      sentences: 2,
      synthetic: false,
    });
    assert.match(none.ligne, /\(piper-tts, 2-sentence replies\)$/);
  });

  it('accounts for the choice: the least low end of the layouts not told apart, never the highest of several', () => {
    const free = entry('one process per stream x 1 thread, free', 10, [8, 12]);
    const pool = entry('pool of 2 processes x 1 thread, free', 11, [6, 15]);
    const pinned = entry('one process per stream x 1 thread, pinned', 12, [9, 13]);
    const all = [free, pool, pinned];
    // With no speeds to tell them apart: the least of every published low end, 6 with the pool (the rule before
    // 2026-12-04 took the highest, 9 with pinned: the luckiest of three noisy bounds).
    assert.equal(planOn('v', 'v', all).flux, 6);
    // Pinned named best by live speed: its own low end.
    assert.deepEqual([planOn('v', 'v', all, undefined, [pinned.disposition]).flux], [9]);
    // Pinned and the pool not told apart: the least of their low ends, 6, with the pool, said as one of two.
    const p = planOn('v', 'v', all, undefined, [pinned.disposition, pool.disposition]);
    assert.deepEqual([p.flux, p.disposition], [6, pool.disposition]);
    assert.equal(p.ligne, 'v: plan on 6 live listeners with pool of 2 processes x 1 thread, free or 1 other');
    assert.match(p.phrase, /not told apart by live speed: the least of their low ends/);
    // The contenders not published (short of rounds): the least of every published layout's.
    const short = { ...pinned, essais_manquants: 1 };
    assert.equal(planOn('v', 'v', [free, pool, short], undefined, [short.disposition]).flux, 6);
    // The longest line: two long names' worth, conditions and all, under 160 characters.
    const long = planOn('v', 'synthetic-siwis-medium', all, { session: 'piper-tts', sentences: 2, synthetic: true }, [
      pinned.disposition,
      free.disposition,
      pool.disposition,
    ]);
    assert.ok(long.ligne.length < 160, long.ligne);
  });

  it('names no number when nothing is measured enough, or a rerun may serve none, and never says 0 after a held trial', () => {
    const short = planOn('v', 'v', [entry('L', 6, null, { essais_manquants: 2 })]);
    assert.equal(short.flux, null);
    assert.match(short.phrase, /^v: no number to plan on: not measured enough \(L needs 2 more rounds holding 6;/);
    const none = planOn('v', 'v', [entry('L', 2, [0, 4])]);
    assert.match(none.phrase, /^v: no number to plan on: L served 2 here, but a rerun may not serve even one/);
    const mixed = planOn('v', 'v', [
      entry('L', 0, null, { preuves: [{ flux: 1, essais_tenus: 1, essais_entiers: 3 }] as CapacityEntry['preuves'] }),
    ]);
    assert.match(mixed.phrase, /some whole trials held without a gap, but not every one at any K/);
    assert.doesNotMatch(mixed.phrase, /\b0\b|not even 1/);
  });
});

describe('the best layout needs 3 paired rounds', () => {
  it('two rounds in common: not compared, however far apart', () => {
    const byRound = (logs: number[]) => new Map(logs.map((v, i) => [i + 1, Math.log(v)]));
    const two = bestLayout([
      { layout: 'A', byRound: byRound([20, 20.2]) },
      { layout: 'B', byRound: byRound([10, 10.1]) },
    ]);
    assert.equal(two.best, null);
    assert.match(two.phrase, /A and B not compared \(2 paired round\(s\); 3 needed\)/);
    const three = bestLayout([
      { layout: 'A', byRound: byRound([20, 20.2, 19.9]) },
      { layout: 'B', byRound: byRound([10, 10.1, 9.9]) },
    ]);
    assert.equal(three.best, 'A');
  });
});

describe('a layout that cannot be the best stops between rounds', () => {
  const trial = (layout: string, k: number, s: number, round: number): TrialRecord =>
    ({
      voix: 'v',
      disposition: layout,
      flux: k,
      manche: round,
      but: 'sans_trou',
      etat: 'done',
      controle_tenu: true,
      debit_vivant: s,
    }) as TrialRecord;
  const sweep = (name: string, held: number): Sweep => {
    const search = new CapacitySearch({ predicted: held, predictedInBound: 1, cap: 32, inBoundImpossible: true });
    for (let i = 0; i < 2; i += 1) {
      search.record(held, { gapFree: true, inBound: false });
      search.record(held + 1, { gapFree: false, inBound: false });
    }
    return {
      voice: 'v',
      layout: { workers: 'K', threads: 1, pinned: false, isolation: 'process' },
      name,
      search,
      memoryCap: null,
      ceiling: { streams: 32, asked: true },
      givenUp: [],
    };
  };
  it("its live speed's interval wholly below another's: dropped, said why; overlapping: both go on", () => {
    const fast = sweep('fast', 9);
    const slow = sweep('slow', 5);
    const close = sweep('close', 8);
    // Two edge trials a round (K and K + 1, one pool), three rounds: S by round is each pair's geometric mean.
    const over3 = (layout: string, k: number, speeds: number[]) =>
      speeds.map((s, i) => trial(layout, k + (i % 2), s, 1 + Math.floor(i / 2)));
    const trials = [
      ...over3('fast', 9, [10, 10.5, 9.8, 10.2, 10.1, 9.9]),
      ...over3('slow', 5, [6, 6.2, 5.9, 6.1, 6, 6.05]),
      ...over3('close', 8, [9, 11, 8.5, 10.8, 9.5, 10.5]),
    ];
    // After two rounds, two values each: t(1) leaves every interval too wide to drop anything.
    dropDominated(
      [fast, slow, close],
      trials.filter((t) => t.manche <= 2),
      2,
    );
    assert.deepEqual([fast.dropped, slow.dropped, close.dropped], [undefined, undefined, undefined]);
    dropDominated([fast, slow, close], trials, 3);
    assert.equal(fast.dropped, undefined);
    assert.equal(close.dropped, undefined);
    assert.match(
      slow.dropped ?? '',
      /^after round 3 its live speed x6\.0 \[[\d.]+, [\d.]+\] lay wholly below fast's x10\.1/,
    );
  });
});

describe('steal, from /proc/stat', () => {
  it('reads the 8th field of the cores named, as a share of their time; said above 3% a round', () => {
    const stat = 'cpu  1 0 0 0 0 0 0 90 0 0\ncpu0 1 0 0 0 0 0 0 30 0 0\ncpu1 1 0 0 0 0 0 0 60 0 0\n';
    assert.equal(parseProcStatSteal(stat), 90);
    assert.equal(parseProcStatSteal(stat, [1]), 60);
    const a = { systemBusyTicks: 0, ownTicks: 0, stealTicks: 100, atMs: 0 };
    const b = { systemBusyTicks: 0, ownTicks: 0, stealTicks: 120, atMs: 2000 };
    // 20 ticks = 0.2 s stolen over 2 s on 2 cores: 5% of their time.
    assert.equal(stealShare(a, b, 2), 0.05);
    assert.equal(stealShare({ ...a, stealTicks: undefined }, b, 2), null);
    const trials = [
      { manche: 1, vol_cpu: 0.01 },
      { manche: 2, vol_cpu: 0.08 },
      { manche: 2, vol_cpu: 0.04 },
    ] as TrialRecord[];
    const rounds = stealByRound(trials);
    assert.deepEqual(
      rounds.map((r) => [r.manche, r.essais, Number(r.vol_cpu?.toFixed(3))]),
      [
        [1, 1, 0.01],
        [2, 2, 0.06],
      ],
    );
    assert.match(
      stealLine(rounds) ?? '',
      /^Steal: the hypervisor took up to 6\.0% of the cores' time \(round 1 1\.0%, round 2 6\.0%\)/,
    );
    assert.equal(stealLine([{ manche: 1, essais: 3, vol_cpu: 0.02 }]), null);
  });

  it('the drift line with no trials to fit says so', () => {
    assert.match(
      driftLine({ thirds: [], trials: 2, range: null, seen: false, lowLog: 0, highLog: 0, shrink: 0, reference: null }),
      /^Drift: not measured/,
    );
  });

  it("the closing block: each voice's one line under 160 characters, its details indented, no figure twice in a voice's block", () => {
    const p = planOn('v', 'synthetic-siwis-medium', [entry('one process per stream x 1 thread, free', 10, [8, 12])]);
    const verdict =
      'synthetic-siwis-medium on this machine: at most 10 live listeners with one process per stream x 1 thread, free; ' +
      'a rerun may answer 8 to 12 (95%)';
    const lines = closingLines({ plans: [p], phrases: [verdict, 'Evidence: each answer rests on 3 whole trials.'] });
    assert.deepEqual(lines, [p.ligne, `  ${verdict}`, 'capacity: Evidence: each answer rests on 3 whole trials.']);
    assert.ok((lines[0] ?? '').length < 160);
    const block = lines.slice(0, 2).join('\n');
    for (const figure of ['8 to 12', '10 live']) assert.equal(block.split(figure).length - 1, 1, figure);
  });
});
