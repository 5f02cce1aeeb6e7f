// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Layout } from '../../../lib/capacity/trial/layouts.js';
import type { CapacityArchive, CapacityEntry } from '../../../lib/capacity/archive/schema.js';
import { sweepOn } from '../sweep-harness.js';

const own: Layout = { workers: 'K', threads: 1, pinned: false, isolation: 'process' };
const pool2: Layout = { workers: 2, threads: 1, pinned: false, isolation: 'process' };
const pinned: Layout = { workers: 'K', threads: 1, pinned: true, isolation: 'process' };
const machine = { cores: 2, speed: 5, audioSeconds: [1, 1, 1] };

/**
 * The same sweep on a steady machine, or one whose speed drops by `drop` once `afterTrials` trials have started; with
 * `noise`, each trial runs at its own draw around the machine's level (log sd), as on the slow VM (8%).
 */
async function run(drop: number, afterTrials = Number.POSITIVE_INFINITY, noise?: { logSd: number; seed: number }) {
  let started = 0;
  return sweepOn({
    machine: { ...machine, ...(noise ? { noise } : {}) },
    layouts: [own, pool2, pinned],
    arrivals: 'staggered',
    onProgress: (e, m) => {
      if (e.kind !== 'trial-start') return;
      started += 1;
      m.factor = started > afterTrials ? 1 - drop : 1;
    },
  });
}

const width = (e: CapacityEntry): number => (e.prevision ? e.prevision[1] - e.prevision[0] : Number.NaN);
const trialsOf = (a: CapacityArchive): number => a.essais.length;
const SEEDS = [1, 2, 3, 4, 5];

describe('drift during a run (fake machine, virtual time)', () => {
  it('a speed drop of 25% halfway: the drift is seen, every prediction reaches the slow half, and the terminal says so', async () => {
    const steady = await run(0);
    const half = Math.floor(trialsOf(steady.archive) / 2);
    const dropped = await run(0.25, half);
    const d = dropped.archive.derive;
    assert.ok(d, 'the drift block');
    assert.equal(d.vue, true, d.phrase);
    assert.ok((d.ecart ?? 0) > 0.15, `range ${d.ecart}`);
    // The end of the run ran slower than its start; the reference, one load on fresh workers, shows the drop itself.
    const [start, , end] = d.tiers.map((t) => t.niveau ?? Number.NaN);
    assert.ok((end as number) < (start as number), d.phrase);
    const ref = (d.reference?.debits ?? []).map((x) => x.debit);
    assert.equal(ref.length, 3, d.phrase);
    assert.ok(Math.abs((ref[2] as number) / (ref[0] as number) - 0.75) < 0.01, `reference ${ref.join(', ')}`);
    assert.match(
      d.phrase,
      /^Drift: this machine's speed moved \d+% during the run \(start x[\d.]+, middle x[\d.]+, end x[\d.]+ of its mean over \d+ whole trials; the reference \(fake-voice, pool of 2 processes x 1 thread, free, K=\d+, fresh workers\) x10\.0, x[\d.]+, x7\.5\), beyond the trials' noise/,
    );
    assert.ok(d.bas < 0.95, `folded low level ${d.bas}`);
    const predicted = dropped.archive.capacite.filter((e) => e.prevision);
    assert.ok(predicted.length >= 2, 'at least two layouts with a rerun range');
    for (const e of predicted) {
      // Its low end is no more than what the slow half alone serves: the slowest whole trial's S, floored.
      const slowest = Math.min(
        ...dropped.archive.essais
          .filter((t) => t.disposition === e.disposition && t.but === 'sans_trou' && t.debit_vivant !== null)
          .map((t) => t.debit_vivant as number),
      );
      assert.ok(
        (e.prevision as [number, number])[0] <= Math.floor(slowest),
        `${e.disposition}: ${e.prevision} against x${slowest}`,
      );
      assert.deepEqual(e.derive_vue?.[0], d.bas);
    }
    // Widened against the same run with the drift left out: the broken rule is what the steady run's width shows.
    const wider = dropped.archive.capacite.filter(
      (e, i) => width(e) > width(steady.archive.capacite[i] as CapacityEntry),
    );
    assert.ok(wider.length >= 2, `wider: ${wider.map((e) => e.disposition).join(', ')}`);
    // The reference's trials answer nothing: no layout's evidence counts them.
    const refTrials = dropped.archive.essais.filter((t) => t.but === 'reference');
    assert.equal(refTrials.length, 3);
  });

  it('a steady machine: no drift seen, nothing widened, and the line says so', async () => {
    const { archive } = await run(0);
    const d = archive.derive;
    assert.ok(d);
    assert.equal(d.vue, false);
    assert.deepEqual([d.bas, d.haut], [1, 1]);
    assert.match(d.phrase, /^Drift: none beyond the trials' noise \(start x1\.00, middle x1\.00, end x1\.00/);
    for (const e of archive.capacite) assert.equal(e.derive_vue, null);
  });

  it('with 8% noise a trial: a steady machine folds almost nothing, a 25% drop halfway widens and is said, in each of 5 seeds', async (t) => {
    for (const seed of SEEDS) {
      const noise = { logSd: 0.08, seed };
      const steady = (await run(0, Number.POSITIVE_INFINITY, noise)).archive;
      const dropped = (await run(0.25, Math.floor(trialsOf(steady) / 2), noise)).archive;
      const [s, d] = [steady.derive, dropped.derive];
      t.diagnostic(
        `seed ${seed}: steady x${s?.bas.toFixed(3)}-x${s?.haut.toFixed(3)}, dropped x${d?.bas.toFixed(3)}-x${d?.haut.toFixed(3)}`,
      );
      assert.ok(s && d);
      // Steady: the fold is shrunk to within 3% either way (an unshrunk one folds the thirds' chance spread).
      assert.ok(s.bas >= 0.97 && s.haut <= 1.03, `seed ${seed}, steady: x${s.bas} to x${s.haut}; ${s.phrase}`);
      assert.match(s.phrase, /^Drift: (none beyond|within) the trials' noise/, `seed ${seed}`);
      // Dropped: folded down toward the slow half (at 0.9 of the run's mean, the fast half at 1.15), and said.
      assert.ok(d.bas <= 0.92, `seed ${seed}, dropped: x${d.bas}; ${d.phrase}`);
      assert.match(d.phrase, /^Drift: this machine's speed moved \d+% during the run/, `seed ${seed}`);
      const lows = (a: CapacityArchive): number[] => a.capacite.map((e) => e.prevision?.[0] ?? Number.NaN);
      assert.ok(
        lows(dropped).some((x, i) => x < (lows(steady)[i] as number)),
        `seed ${seed}: ${lows(dropped)} against ${lows(steady)}`,
      );
    }
  });
});

describe('an edge that moves down late', () => {
  it('keeps the rounds that served more: published once the new edge has its round, not three more', async () => {
    // x10.2 under load in rounds 1 and 2 (10 held in both), x8.7 from round 3: 10 fails, then 9 (round 4); the edge
    // falls to 8. Rounds with a whole trial held at 8 or above: 1 (8, 9 and 10) and 2 (10), so round 5's trial at 8
    // publishes it; counting only rounds at 8 itself would need round 6 too.
    const { archive } = await sweepOn({
      machine,
      layouts: [own],
      arrivals: 'staggered',
      onProgress: (e, m) => {
        if (e.kind === 'trial-start') m.factor = e.round >= 3 ? 0.85 : 1;
      },
    });
    const e = archive.capacite[0] as CapacityEntry;
    assert.equal(e.flux_tenu_essais, 8, e.phrase);
    const heldRounds = (k: number) =>
      [
        ...new Set(archive.essais.filter((t) => t.but !== 'reference' && t.tenu && t.flux === k).map((t) => t.manche)),
      ].sort();
    assert.deepEqual([heldRounds(8), heldRounds(9), heldRounds(10)], [[1, 5, 6], [1], [1, 2]], e.phrase);
    assert.deepEqual([e.essais_manquants, e.prevision !== null], [0, true], e.phrase);
    assert.match(
      archive.plans?.[0]?.phrase ?? '',
      /^fake-voice: plan on \d+ live listeners? with one process per stream/,
    );
    // The fixture's plan runs libpiper's settings on a three-line text, a real (not synthetic) voice.
    assert.match(archive.plans?.[0]?.ligne ?? '', / \(libpiper, 3-sentence replies\)$/);
    assert.match(archive.phrases[0] ?? '', /^fake-voice on this machine \(libpiper, 3-sentence replies\): /);
  });
});

describe('a layout that cannot be the best', () => {
  // S's interval rests on one value per round: three rounds before any layout can be ruled out.
  // 1 process x 2 threads whose threads get one core between them: half the live speed of a worker per listener.
  const threads: Layout = { workers: 1, threads: 2, pinned: false, isolation: 'process' };
  /** The run, and when (virtual ms) each layout's round-4 trials ended. */
  async function dominated(maxMinutes?: number) {
    const ends: Array<{ layout: string; round: number; atMs: number }> = [];
    const out = await sweepOn({
      machine: { ...machine, threadCores: () => 1 },
      layouts: [own, threads],
      arrivals: 'staggered',
      rounds: 4,
      ...(maxMinutes === undefined ? {} : { maxMinutes }),
      onProgress: (e, m) => {
        if (e.kind === 'trial-end' && e.trial.but !== 'reference')
          ends.push({ layout: e.trial.disposition, round: e.trial.manche, atMs: m.timers.now() });
      },
    });
    return { ...out, ends, slow: out.sweeps.find((s) => s.layout === threads) };
  }

  it('runs last from round 4 on, when its live speed lies wholly below another layout of the voice, and is published when the budget holds it', async () => {
    const { archive, ends, slow } = await dominated();
    const round4 = ends.filter((x) => x.round === 4);
    const mine = round4.filter((x) => x.layout === slow?.name);
    const others = round4.filter((x) => x.layout !== slow?.name);
    assert.ok(mine.length > 0 && others.length > 0, JSON.stringify(round4));
    // Its turn came after the other layout's.
    assert.ok(Math.min(...mine.map((x) => x.atMs)) > Math.max(...others.map((x) => x.atMs)), JSON.stringify(round4));
    const e = archive.capacite.find((c) => c.disposition === slow?.name);
    assert.equal(e?.essais_manquants ?? 0, 0);
    assert.equal(slow?.dropped, undefined);
    assert.doesNotMatch(e?.phrase ?? '', /Fewer trials than asked/);
  });

  it('takes no turn the budget left no room for, and says why its edges lack trials', async () => {
    // A budget that ends just after the other layout's fourth round (virtual time, seed 1: the same run as above).
    const whole = await dominated();
    const leaderEnd = Math.max(
      ...whole.ends.filter((x) => x.round === 4 && x.layout !== whole.slow?.name).map((x) => x.atMs),
    );
    const { archive, slow } = await dominated((leaderEnd + 1000) / 60_000);
    assert.match(
      slow?.dropped ?? '',
      /^after round 3 its live speed x[\d.]+ \[[\d.]+, [\d.]+\] lay wholly below one process per stream/,
    );
    const mine = archive.essais.filter((t) => t.disposition === slow?.name && t.but !== 'reference');
    assert.ok(mine.length > 0 && mine.every((t) => t.manche <= 3), mine.map((t) => t.manche).join());
    assert.ok((slow?.search.missing(() => 4).length ?? 0) > 0);
    assert.ok(archive.essais.some((t) => t.disposition !== slow?.name && t.manche === 4));
    const e = archive.capacite.find((c) => c.disposition === slow?.name);
    assert.match(
      e?.phrase ?? '',
      /Fewer trials than asked at its edges: after round 3 .* it cannot be the best, so its turns came last, where the budget left room\./,
    );
  });
});
