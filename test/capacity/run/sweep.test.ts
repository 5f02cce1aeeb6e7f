// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { calibrate, predictStreams } from '../../../lib/capacity/setup/calibrate.js';
import type { Layout } from '../../../lib/capacity/trial/layouts.js';
import { memoryLine } from '../../../lib/capacity/run/answers.js';
import type { CapacityEntry } from '../../../lib/capacity/archive/schema.js';
import { VirtualTimers } from '../../../lib/capacity/trial/timers.js';
import type { VoiceInfo } from '../../../lib/voice/load.js';
import { FakeMachine } from '../fake-machine.js';
import { lateTimers, sweepOn } from '../sweep-harness.js';
import { calibratedCeiling, outcomeOf, turnFits } from '../../../lib/capacity/run/sweep.js';
import type { Calibration } from '../../../lib/capacity/setup/calibrate.js';
import type { TrialRecord } from '../../../lib/capacity/archive/schema.js';
import { procCpuSampler } from '../../../lib/measure/system-cpu.js';

/**
 * /proc as a rented 2-vCPU machine shows it on virtual time: both cores busy with the run's own work, except
 * `stealShare` of their time, which the hypervisor gave to another tenant. No other program runs.
 */
function stolenProc(timers: VirtualTimers, stealShare: number) {
  const ticks = (ms: number) => ({
    steal: Math.round((ms / 10) * 2 * stealShare),
    own: Math.round((ms / 10) * 2 * (1 - stealShare)),
  });
  return procCpuSampler([0, 1], {
    nowMs: () => timers.now(),
    read: (file) => {
      const t = ticks(timers.now());
      if (file === '/proc/stat') {
        const core = `${t.own / 2} 0 0 0 0 0 0 ${t.steal / 2} 0 0`;
        return `cpu  ${t.own} 0 0 0 0 0 0 ${t.steal} 0 0\ncpu0 ${core}\ncpu1 ${core}\n`;
      }
      // The fake workers are no processes: their time is counted here, with this process's reaped children.
      if (file !== '/proc/self/stat') throw new Error(`no ${file}`);
      // All of the cores' busy time is the run's own.
      return `1 (node) S ${Array.from({ length: 10 }, () => 0).join(' ')} ${t.own} 0 0 0 20 0 1 0`;
    },
  });
}

const own: Layout = { workers: 'K', threads: 1, pinned: false, isolation: 'process' };
const pool2: Layout = { workers: 2, threads: 1, pinned: false, isolation: 'process' };
const oneSecond = [1, 1, 1];

/** Workers at x1.25 per listener on 2 cores, arrivals 10 ms late in the trials `late` picks. */
function lateWhen(late: (trial: { index: number; k: number }) => boolean): ReturnType<typeof sweepOn> {
  let current = { index: 0, k: 0 };
  return sweepOn({
    machine: { cores: 2, speed: 1.25, audioSeconds: oneSecond },
    layouts: [own],
    timers: (inner) => lateTimers(inner, 10, () => late(current)),
    onProgress: (e) => {
      if (e.kind === 'trial-start') current = { index: e.index, k: e.k };
    },
  });
}

describe('the capacity sweep finds the capacity worked out by hand (fake machine, virtual time)', () => {
  it('a worker per listener at x1.25 on 2 cores: 2 live streams; the first sentence alone (800 ms) is over the bound', async () => {
    // K <= 2: each listener has a core, x1.25: sentence j ready at 0.8 (j + 1) s, before the one before ends.
    // K = 3: each gets 2/3 of a core, x0.83: the second sentence is ready at 2.4 s, the first ended at 2.2 s.
    const { archive } = await sweepOn({
      machine: { cores: 2, speed: 1.25, audioSeconds: oneSecond },
      layouts: [own],
    });
    const e = archive.capacite[0] as CapacityEntry;
    assert.deepEqual([e.flux_max_sans_trou, e.flux_max_dans_la_borne, e.prevision, e.borne], [2, 0, [2, 2], 'cpu']);
    // 3 whole trials at 2 and 3 at 3, every one at 3 with gaps. Counted by trial: 1 - 0.05^(1/3) = 63.2%, not the
    // 39.3% its 6 listener-sessions would claim.
    assert.deepEqual([e.essais, e.essais_tenus, e.sessions, e.sessions_avec_trou], [3, 3, 6, 0]);
    assert.ok(Math.abs((e.taux_trou_max ?? 0) - 0.632) < 1e-3);
    // S: at 2 each listener has a core at x1.25, at 3 the two cores are shared: x2.5 in all six trials, one value per
    // round (3), no spread. Headroom 2.5 / 2 - 1 = 25%. A rerun: x2.5 moved by the drift between runs alone,
    // 1.96 x sqrt(2 x 0.05^2) = 0.139 in log either way: floor(2.18) = 2, floor(2.87) = 2. A slow rerun's S still
    // clears 2, so its staircase is not taken one down: 2 to 2.
    assert.deepEqual(
      [e.debit_vivant, e.debit_vivant_ic95, e.debit_vivant_essais, e.debit_vivant_manches],
      [2.5, [2.5, 2.5], 6, 3],
    );
    assert.ok(Math.abs((e.marge ?? 0) - 0.25) < 1e-9);
    assert.equal(
      e.phrase,
      'fake-voice, one process per stream x 1 thread, free: 2 live listeners: this machine makes x2.5 [2.5, 2.5] of speech under this load over 3 rounds, 25% [25%, 25%] headroom at 2; a rerun may answer 2 to 2 (95%); at 3, gaps in 3 of 3 trials. Evidence at 2: 3 of 3 whole trials held: with 95% confidence, fewer than 64% of such trials would have a gap; 6 listener-sessions described, 0 with a gap. By pre-buffer: 0 ms 2, 250 ms 2, 500 ms 2. Within 500 ms of first audio: none: the first sentence alone takes 800 ms at 1 thread, so no K meets 500 ms; without the bound: 2.',
    );
    assert.equal(archive.controle_tenu, true);
  });

  it('a worker per listener at x0.8: not even one live stream, said after three trials', async () => {
    const { archive } = await sweepOn({
      machine: { cores: 2, speed: 0.8, audioSeconds: oneSecond },
      layouts: [own],
      firstAudioMs: 5000,
    });
    const e = archive.capacite[0] as CapacityEntry;
    assert.deepEqual(
      [e.flux_max_sans_trou, e.flux_max_dans_la_borne, e.preuves.map((p) => [p.flux, p.essais, p.essais_tenus])],
      [0, 0, [[1, 3, 0]]],
    );
    assert.match(
      e.phrase,
      /: not even 1 live listener with no gap; at 1, gaps in 3 of 3 trials\. By pre-buffer: 0 ms 0, 250 ms 0, 500 ms 0\. Within 5000 ms of first audio: none; without the bound: 0\.$/,
    );
  });

  it('rounds far apart: every trial at 1 held, but S under load may be below x1: nothing promised, the trials said', async () => {
    // One worker at x10 in round 1, x1.1 in rounds 2 and 3: S = 10, 1.1, 1.1 at K = 1, a spread of 1.27 in log.
    // With 3 rounds t(2) = 4.30: the lower bound is exp(ln cbrt 12.1 - 4.30 x 1.27 / sqrt 3) = 0.10, under x1.
    const { archive } = await sweepOn({
      machine: { cores: 2, speed: 10, audioSeconds: oneSecond },
      layouts: [own],
      maxStreams: 1,
      rounds: 3,
      onProgress: (e, machine) => {
        if (e.kind === 'trial-start') machine.factor = e.round >= 2 ? 0.11 : 1;
      },
    });
    const e = archive.capacite[0] as CapacityEntry;
    assert.deepEqual(
      [e.flux_tenu_essais, e.flux_max_sans_trou, e.debit_vivant_essais, e.debit_vivant_manches],
      [1, 0, 3, 3],
    );
    assert.ok(Math.abs((e.debit_vivant ?? 0) - Math.cbrt(12.1)) < 1e-6, String(e.debit_vivant));
    assert.ok((e.debit_vivant_ic95?.[0] ?? 1) < 0.2, String(e.debit_vivant_ic95));
    assert.match(
      e.phrase,
      /: no live listener promised: every whole trial at 1 held without a gap, but the live speed under this load \(x2\.3 \[0\.1, [\d.]+\] over 3 rounds\) may be below x1 \(more --rounds narrow it\).*; --max-streams 1 reached\. Evidence at 1: 3 of 3 whole trials held/,
    );
    assert.match(
      archive.phrases.join(' '),
      /no layout promised one live listener \(whole trials held up to 1 without a gap/,
    );
  });

  it('an answer on fewer than 3 rounds is not published: it says how many more, and no rerun range or plan', async () => {
    const { archive } = await sweepOn({
      machine: { cores: 2, speed: 10, audioSeconds: oneSecond },
      layouts: [own],
      maxStreams: 2,
      rounds: 2,
    });
    const e = archive.capacite[0] as CapacityEntry;
    assert.deepEqual([e.flux_tenu_essais, e.essais_manquants, e.prevision], [2, 1, null]);
    assert.match(
      e.phrase,
      /: not measured enough: 1 more round holding 2 before a number is published \(2 held so far\)/,
    );
    assert.doesNotMatch(e.phrase, /a rerun may answer/);
    const plan = archive.plans?.[0];
    assert.deepEqual([plan?.flux, plan?.disposition], [null, null]);
    assert.match(
      plan?.phrase ?? '',
      /^fake-voice: no number to plan on: not measured enough \(one process per stream x 1 thread, free needs 1 more round holding 2;/,
    );
  });

  it('a pool of 2 workers at x5, three 1 s sentences, listeners together: 10 with no gap, 4 within 500 ms', async () => {
    // Deadline order: every first sentence, two at a time, 200 ms each; listener i first plays at 200 (floor(i/2) + 1) ms.
    // Then the second sentences in the same order, ready exactly as the first ones end for K = 10 (0.1 K s of work before
    // them), 200 ms after for listener 1 at K = 11. First audio within 500 ms: listeners 0-3 only.
    const { archive } = await sweepOn({
      machine: { cores: 2, speed: 5, audioSeconds: oneSecond },
      layouts: [pool2],
    });
    const e = archive.capacite[0] as CapacityEntry;
    assert.deepEqual(
      [e.flux_max_sans_trou, e.flux_max_dans_la_borne, e.prediction, e.prediction_dans_la_borne],
      [10, 4, 8, 5],
    );
    const at4 = e.preuves.find((p) => p.flux === 4);
    // Three first-audio trials at 4: 12 sessions, first audio 200, 200, 400, 400 ms each; none over the bound.
    assert.deepEqual(
      [at4?.essais_dans_la_borne, at4?.premier_son_sessions, at4?.premier_son_au_dela, at4?.premier_son_p95_ms],
      [3, 12, 0, 400],
    );
    const at5 = e.preuves.find((p) => p.flux === 5);
    assert.deepEqual([at5?.essais_dans_la_borne, at5?.premier_son_au_dela], [0, at5?.essais]);
    assert.equal(e.premier_son_p95_ms, 400);
    assert.match(
      e.phrase,
      /: 10 live listeners: this machine makes x10\.0 \[10\.0, 10\.0\] of speech under this load over 3 rounds, 0% \[0%, 0%\] headroom at 10; a rerun may answer 8 to 11 \(95%\); at 11, gaps in 3 of 3 trials\. Evidence at 10: 3 of 3 whole trials held: with 95% confidence, fewer than 64% of such trials would have a gap; 30 listener-sessions described, 0 with a gap\. By pre-buffer: 0 ms 10, 250 ms 10, 500 ms 10\. Within 500 ms of first audio: 4 \(3 trials, 0 with a listener over 500 ms: that chance below 64% \(95%\); 400 ms bounds the 36th percentile of a trial's worst first audio \(95%\); 12 listeners described, 0 over\); at 5, 3 of 15 listeners waited longer\.$/,
    );
  });

  it('a round that contradicts the one before: the answer falls to what every trial held, and the disagreement is said', async () => {
    // x2.4 on 2 cores: K = 4 gets x1.2 each (no gap), K = 5 x0.96 (gaps). From round 2 the machine runs at 0.8 of that:
    // K = 4 at x0.96 has gaps, K = 3 at x1.28 does not.
    const { archive } = await sweepOn({
      machine: { cores: 2, speed: 2.4, audioSeconds: oneSecond },
      layouts: [own],
      firstAudioMs: 300,
      onProgress: (e, machine) => {
        if (e.kind === 'trial-start') machine.factor = e.round >= 2 ? 0.8 : 1;
      },
    });
    const e = archive.capacite[0] as CapacityEntry;
    // Whole trials at 3 and 4, each run to its end: x4.8 (round 1, at 4) and x3.84 (the five later ones, gaps or not).
    // 3 was first tried in round 2, so a fourth round gives it its third. S by round: 4.8, 3.84, 3.84, 3.84, mean log
    // x4.06, sd 0.111, t(3) = 3.18: [3.40, 4.85]. A rerun may answer 2 to 4: the drift seen inside the run widens it.
    // (The reference's fresh workers ran x4.8 at the start and x3.84 after: the fold, shrunk, reaches 5 up.)
    assert.deepEqual([e.flux_max_sans_trou, e.prevision], [3, [2, 5]]);
    assert.deepEqual(
      e.preuves.map((p) => p.debit_vivant.map((v) => Math.round((v ?? 0) * 100) / 100)),
      [
        [3.84, 3.84, 3.84],
        [4.8, 3.84, 3.84],
        [4.8, 3.84],
      ],
    );
    assert.deepEqual(
      e.preuves.map((p) => [p.flux, p.essais, p.essais_tenus]),
      [
        [3, 3, 3],
        [4, 3, 1],
        [5, 2, 0],
      ],
    );
    assert.match(
      e.phrase,
      /: 3 live listeners: this machine makes x4\.1 \[3\.4, 4\.8\] of speech under this load over 4 rounds, 35% \[13%, 62%\] headroom at 3; a rerun may answer 2 to 5 \(95%\); at 4, gaps in 2 of 3 trials \(4 held in 1 of 3 trials\)\./,
    );
  });

  it('a trial whose arrivals were late is not counted: it is run again, and the answer rests on the run that held', async () => {
    // Trial 1 is the run's reference (start): trial 2 is the search's first.
    const { archive } = await lateWhen((t) => t.index === 2);
    const [first, again] = archive.essais.filter((t) => t.but !== 'reference');
    // The late trial heard no gap, but its arrivals were 10 ms late: it does not count.
    assert.deepEqual(
      [first?.flux, first?.tenu, first?.controle_tenu, first?.controles.find((c) => c.name === 'arrivals')?.measured],
      [2, true, false, 10],
    );
    assert.deepEqual([again?.flux, again?.reprise, again?.controle_tenu], [2, 1, true]);
    const e = archive.capacite[0] as CapacityEntry;
    assert.deepEqual([e.flux_max_sans_trou, e.essais, e.preuves[0]?.essais_controles_echoues], [2, 3, 1]);
    assert.equal(archive.controle_tenu, true);
  });

  it('a K whose every try had late arrivals is given up: never claimed, said, and the run does not hold', async () => {
    const { archive } = await lateWhen((t) => t.k === 3);
    const e = archive.capacite[0] as CapacityEntry;
    assert.deepEqual(
      [e.flux_max_sans_trou, e.borne, e.controle_tenu, archive.controle_tenu],
      [2, 'controles', false, false],
    );
    assert.match(e.phrase, /at 3, a control failed in every try \(arrivals 10 ms\), so it was not counted/);
    assert.ok(
      archive.phrases.some((p) =>
        /^Not counted: fake-voice, one process per stream x 1 thread, free: K=3 was not counted/.test(p),
      ),
    );
  });

  it('a later round, planned or added, runs a turn only while its missing trials fit in --max-minutes', async () => {
    // The contradicting machine again, slower from round 3: the edge moves in the last planned round, so its new K lack trials.
    const slower = (e: { kind: string; round?: number }, machine: { factor: number }): void => {
      if (e.kind === 'trial-start') machine.factor = (e.round ?? 1) >= 3 ? 0.8 : 1;
    };
    const roomy = await sweepOn({
      machine: { cores: 2, speed: 2.4, audioSeconds: oneSecond },
      layouts: [own],
      firstAudioMs: 300,
      onProgress: slower,
    });
    assert.equal(roomy.sweeps[0]?.short, undefined);
    // The edge falls to 3 in round 3: 3 is tried once a round (a second trial on the same workers adds no
    // independent evidence), so it has its three rounds in round 5.
    assert.equal(Math.max(...roomy.archive.essais.map((t) => t.manche)), 5);
    // A budget already spent after the planned rounds: no round 4, and the answer says its edges lack trials.
    const tight = await sweepOn({
      machine: { cores: 2, speed: 2.4, audioSeconds: oneSecond },
      layouts: [own],
      firstAudioMs: 300,
      maxMinutes: 0.001,
      onProgress: slower,
    });
    // A budget spent in round 1: the later rounds' turns are left out (the reference's middle too: its end closes
    // round 1), and the answer says its edges lack trials.
    assert.equal(Math.max(...tight.archive.essais.map((t) => t.manche)), 1);
    assert.deepEqual(
      tight.archive.essais.filter((t) => t.but === 'reference').map((t) => t.manche),
      [1, 1],
    );
    assert.match(
      tight.archive.capacite[0]?.phrase ?? '',
      /Fewer trials than asked at its edges: (no room left in --max-minutes 0\.001 for round \d|another round would pass --max-minutes 0\.001)\./,
    );
  });

  it("a later round's turn is costed at its own layout's time per trial, the run's mean only before it has one", () => {
    // 100 s left: a pool whose turns ran 6 trials in 30 s (5 s a trial) fits its 3 missing trials (15 s), though the
    // run's mean (40 s a trial, a worker per listener restarting 30 workers a turn) would say 120 s.
    const room = { missingTrials: 3, runMeanMs: 40_000, spentMs: 380_000, budgetMs: 480_000 };
    assert.equal(turnFits({ ...room, own: { ms: 30_000, trials: 6 } }), true);
    assert.equal(turnFits({ ...room, own: undefined }), false);
    // And the dear layout, at its own 40 s a trial, does not: the cheap one's cost does not lend it room.
    assert.equal(turnFits({ ...room, own: { ms: 240_000, trials: 6 } }), false);
    // No trials yet in its turns: the run's mean.
    assert.equal(turnFits({ ...room, runMeanMs: 30_000, own: { ms: 5_000, trials: 0 } }), true);
    // Exactly at the budget still fits.
    assert.equal(turnFits({ ...room, own: { ms: 200_000, trials: 6 } }), true);
  });

  it("a worker that dies ends its layout's sweep, says why, and the run does not hold", async () => {
    const { archive } = await sweepOn({
      // The reference's trial runs first (a few jobs): the 30th job falls in a layout's search.
      machine: { cores: 2, speed: 1.25, audioSeconds: oneSecond, failJob: { n: 30, message: 'segfault' } },
      layouts: [own, pool2],
    });
    const broken = archive.capacite.find((c) => c.borne === 'erreur');
    assert.ok(broken, 'one layout broke');
    assert.match(broken.phrase, /the sweep broke: K=\d+: worker \d+ failed: segfault/);
    assert.equal(broken.controle_tenu, false);
    assert.equal(archive.controle_tenu, false);
    assert.ok(
      archive.capacite.some((c) => c.borne !== 'erreur' && c.controle_tenu),
      'the other layout still answers',
    );
  });

  it('a pre-buffer replayed from the same trials: a short first sentence then long ones, worked by hand', async () => {
    // A worker per listener at x5 on 2 cores, sentences of 0.5, 2 and 2 s, listeners together. At K <= 2 each has a
    // core: the second sentence is ready at 0.5 s, the first ends at 0.6 s: no gap. At K = 3 each gets x3.33: the first
    // is ready at 0.15 s and ends at 0.65 s, the second is ready at 0.75 s: a 100 ms gap. Held back 250 ms, the first
    // ends at 0.9 s: no gap at 3 (at 4: ready 1.0 s against 0.95 s, a gap). Held back 500 ms: none up to 5.
    // The search tried 1, 2, 3, 7 and 8: at 250 and 500 ms, 3 held and 7 failed, 4 to 6 untried: at least 3.
    // S: two cores busy throughout at x5 each, x10 in every trial; the answer 2 (the gap, not the pace, binds it).
    const { archive } = await sweepOn({
      machine: { cores: 2, speed: 5, audioSeconds: [0.5, 2, 2] },
      layouts: [own],
      firstAudioMs: 5000,
    });
    const e = archive.capacite[0] as CapacityEntry;
    assert.deepEqual(
      [...new Set(archive.essais.map((t) => t.flux))].sort((x, y) => x - y),
      [1, 2, 3, 7, 8],
    );
    assert.deepEqual(e.par_tampon, [
      { tampon_ms: 0, flux_max_sans_trou: 2, au_moins: false },
      { tampon_ms: 250, flux_max_sans_trou: 3, au_moins: true },
      { tampon_ms: 500, flux_max_sans_trou: 3, au_moins: true },
    ]);
    assert.equal(e.flux_max_sans_trou, 2);
    assert.ok(Math.abs((e.debit_vivant ?? 0) - 10) < 1e-9 && Math.abs((e.marge ?? 0) - 4) < 1e-9);
    // The gaps at 3, each 100 ms: heard (over the 20 ms tolerance), none short.
    const at3 = archive.essais.filter((t) => t.flux === 3);
    assert.ok(
      at3.every(
        (t) =>
          t.trous === 3 && t.trous_courts === 0 && t.flux_detail.every((s) => Math.abs(s.pire_trou_s - 0.1) < 1e-9),
      ),
    );
    assert.match(e.phrase, /By pre-buffer: 0 ms 2, 250 ms at least 3, 500 ms at least 3\./);
  });

  it('whole trials run to their planned end, gaps and all: every listener arrives and hears every sentence', async () => {
    // A 0.1 s first sentence then 2 s ones: every listener's second sentence comes late, before the last arrivals.
    const { archive } = await sweepOn({
      machine: { cores: 2, speed: 5, audioSeconds: [0.1, 2, 2] },
      layouts: [own],
      arrivals: 'staggered',
      firstAudioMs: 5000,
    });
    assert.equal(archive.capacite[0]?.flux_max_sans_trou, 0);
    const whole = archive.essais.filter((t) => t.but === 'sans_trou');
    assert.ok(whole.length > 0 && whole.some((t) => t.trous > 0));
    for (const t of whole) {
      assert.equal(t.etat, 'done');
      assert.ok(t.flux_detail.every((s) => s.arrivee_ms !== null && s.complet));
    }
    assert.ok(archive.essais.every((t) => t.controle_tenu));
    assert.equal(archive.controle_tenu, true);
  });
});

describe("the sweep's ceiling", () => {
  it('with no --max-streams, half again above the calibrated speed: a machine that serves 40 is measured at 40', async () => {
    // One worker alone at x20 on 2 cores: 40 listeners of 1 s sentences at x1 each. The ceiling: ceil(1.5 x 20 x 2)
    // + 2 = 62. A ceiling of 32 (the old default) stops there and says it may serve more.
    const machine = { cores: 2, speed: 20, audioSeconds: oneSecond };
    const capped = await sweepOn({ machine, layouts: [own], maxStreams: 32 });
    const c = capped.archive.capacite[0] as CapacityEntry;
    assert.deepEqual([c.flux_max_sans_trou, c.borne], [32, 'flux_max']);
    assert.match(c.phrase, /--max-streams 32 reached/);
    const { archive, sweeps } = await sweepOn({ machine, layouts: [own], maxStreams: 96, calibratedCeiling: true });
    assert.deepEqual(sweeps[0]?.ceiling, { streams: 62, asked: false });
    const e = archive.capacite[0] as CapacityEntry;
    assert.deepEqual([e.flux_max_sans_trou, e.borne], [40, 'cpu']);
    // Never past the limit, a server's own ceiling fixed: its speed under load is not one connection's.
    assert.equal(calibratedCeiling({ speed: 40 } as Calibration, 4, false, 96), 96);
    assert.equal(calibratedCeiling({ speed: 0.5 } as Calibration, 2, false, 96), 4);
    assert.equal(calibratedCeiling({ speed: 40 } as Calibration, 2, true, 96), 32);
  });
});

describe("steal is the rented machine's, not another program's", () => {
  it('10% of the cores stolen keeps every trial: outside_load holds, steal is archived per trial and said', async () => {
    const { archive } = await sweepOn({
      machine: { cores: 2, speed: 1.25, audioSeconds: oneSecond },
      layouts: [own],
      sampler: (timers) => stolenProc(timers, 0.1),
    });
    const whole = archive.essais.filter((t) => t.but === 'sans_trou');
    assert.ok(whole.length >= 6);
    for (const t of whole) {
      assert.equal(t.controles.find((c) => c.name === 'outside_load')?.held, true);
      assert.ok(Math.abs((t.vol_cpu ?? 0) - 0.1) < 0.01, `steal ${t.vol_cpu}`);
    }
    assert.equal(archive.essais.filter((t) => (t.reprise ?? 0) > 0).length, 0);
    assert.equal(archive.controle_tenu, true);
    assert.equal((archive.capacite[0] as CapacityEntry).flux_max_sans_trou, 2);
  });
});

describe('what the search learns from a trial', () => {
  it('no gap heard but behind real time is a failed K for the first answer; a first-audio trial says nothing of gaps', () => {
    const t = (x: Partial<TrialRecord>): TrialRecord =>
      ({ sans_trou: true, au_rythme: true, tenu: true, dans_la_borne: false, ...x }) as TrialRecord;
    assert.deepEqual(outcomeOf(t({})), { gapFree: true, inBound: false });
    assert.deepEqual(outcomeOf(t({ au_rythme: false, tenu: false })), { gapFree: false, inBound: false });
    assert.deepEqual(outcomeOf(t({ sans_trou: false, au_rythme: null, tenu: false })), {
      gapFree: false,
      inBound: false,
    });
    assert.deepEqual(outcomeOf(t({ sans_trou: null, au_rythme: null, tenu: false, dans_la_borne: true })), {
      gapFree: null,
      inBound: true,
    });
  });
});

describe('calibration and predictions', () => {
  it('calibrate times one worker alone, then the first sentence at each thread count', async () => {
    const timers = new VirtualTimers(0);
    const machine = new FakeMachine(timers, {
      cores: 2,
      speed: 5,
      audioSeconds: [1, 1, 1],
      threadCores: (t) => (t === 2 ? 1.6 : t),
    });
    const voice = {
      name: 'fake',
      onnxPath: '/x',
      configPath: '/x.json',
      config: {},
      sizeBytes: 1,
      sha256: 'f',
      synthetic: true,
    } as unknown as VoiceInfo;
    const prepared = {
      sentences: [0, 1, 2].map((i) => ({ text: `s${i}`, phonemes: [], ids: [1], phonemizeSeconds: 0 })),
      phonemizeSeconds: 0,
      missingPhonemes: {},
    };
    const c = await calibrate(
      voice,
      prepared,
      { threadCounts: [1, 2, 2], memAvailableBytes: 1000 * 2 ** 20 },
      { adapter: machine.adapter(), timers, session: 'libpiper' },
    );
    assert.deepEqual(
      [c.audioSeconds, c.computeSeconds.map((x) => x.toFixed(6)), c.speed.toFixed(6), c.firstSentenceMs],
      [[1, 1, 1], ['0.200000', '0.200000', '0.200000'], '5.000000', { 1: 200, 2: 125 }],
    );
    // 100 MiB per worker (the fake's peak), 90% of 1000 MiB: 9 workers.
    assert.equal(c.memoryWorkers, 9);
    // One process of 2 threads: worth 200/125 = 1.6 cores: floor(0.85 x 5 x 1.6) = 6; first audio: floor(500 / 125) = 4.
    assert.deepEqual(predictStreams({ workers: 1, threads: 2, pinned: false, isolation: 'process' }, c, 2, 500), {
      streams: 6,
      inBound: 4,
      inBoundImpossible: false,
      firstSentenceMs: 125,
    });
    // A worker per listener on 2 cores: floor(0.85 x 5 x 2) = 8; first audio: floor(2 x 500 / 200) = 5.
    assert.deepEqual(predictStreams({ workers: 'K', threads: 1, pinned: true, isolation: 'process' }, c, 2, 500), {
      streams: 8,
      inBound: 5,
      inBoundImpossible: false,
      firstSentenceMs: 200,
    });
    assert.equal(predictStreams(own, c, 2, 150).inBoundImpossible, true);
  });

  it('the memory line says, per layout, whether memory or the CPU binds first', () => {
    const entry = (disposition: string, borne: CapacityEntry['borne']): CapacityEntry =>
      ({ disposition, borne }) as CapacityEntry;
    const c = { workerRssBytes: 400 * 2 ** 20, memoryWorkers: 20 } as Parameters<typeof memoryLine>[0];
    assert.equal(
      memoryLine(c, [entry('a', 'cpu'), entry('b', 'memoire')], 9 * 2 ** 30),
      'Memory: a worker peaked at 400 MiB; MemAvailable 9.0 GiB holds 20 such workers: memory binds first for b, not for the others.',
    );
    assert.equal(
      memoryLine(c, [entry('a', 'cpu')], 9 * 2 ** 30),
      'Memory: a worker peaked at 400 MiB; MemAvailable 9.0 GiB holds 20 such workers: memory stopped no layout.',
    );
    assert.match(memoryLine({ ...c, workerRssBytes: null }, [], null), /could not be read/);
  });
});
