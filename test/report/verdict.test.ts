import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ArmRecord } from '../../lib/archive/schema.js';
import { median } from '../../lib/measure/stats.js';
import { Prng } from '../../lib/prng.js';
import { signedPercent } from '../../lib/report/format.js';
import { buildVerdict } from '../../lib/report/verdict.js';

const pct = signedPercent;
import { armLine } from '../../lib/report/table.js';

/** An arm with just what the verdict reads: its round figures (default three rounds at `agg`). */
function arm(p: { k: number; t: number; pin: boolean; agg: number; ci: [number, number] | null; per: number[]; held?: boolean; iso?: 'process' | 'thread'; rounds?: number[]; engine?: 'onnxruntime' | 'sherpa'; scope?: 'model' | 'text' }): ArmRecord {
  const rounds = p.rounds ?? [p.agg, p.agg, p.agg];
  return {
    ...(p.engine ? { moteur: p.engine, portee: p.scope ?? 'text' } : {}),
    voix: 'synthetic-siwis-medium',
    voix_synthetique: true,
    voix_sha256: 'x',
    isolation: p.iso ?? 'process',
    flux_simultanes: p.k,
    fils_par_flux: p.t,
    affinite_demandee: p.pin,
    affinites_vues: [],
    controle_affinite_tenu: true,
    etat: 'done',
    erreur: null,
    mural_total_s: 1,
    enfants: [],
    synchro: [],
    debit_par_flux_mediane: p.per,
    debit_agrege_mediane: p.agg,
    debit_agrege_par_passe: rounds.flatMap((r) => [r, r]),
    debit_agrege_passe_mediane: p.agg,
    debit_agrege_ic95: p.ci,
    debit_agrege_manches: rounds,
    debit_par_flux_ic95: p.per.map(() => null),
    dispersion_relative: 0.01,
    bruyant: false,
    manches: rounds.map((_, i) => ({ manche: i + 1, ordre: 1, etat: 'done' as const, mural_s: 1 })),
    cpu_somme_medianes: 100,
    controles: p.held === false ? [{ name: 'cpu_sum', threshold: 150, measured: 120, unit: '%', held: false, message: 'short' }] : [],
    controle_tenu: p.held ?? true,
  };
}

describe('verdict', () => {
  it('formats a change near 1 with a decimal, so a bound keeps its side', () => {
    assert.deepEqual([1.38, 0.998, 1.0, 0.5, 1.2549].map(signedPercent), ['+38%', '-0.2%', '+0.0%', '-50%', '+25%']);
  });

  it('quotes the paired ratio of the top two with its interval, and the deployment question beside it', () => {
    const v = buildVerdict([
      arm({ k: 1, t: 1, pin: false, agg: 8, ci: [7.8, 8.2], per: [8], rounds: [8, 7.6, 8.4] }),
      arm({ k: 2, t: 1, pin: true, agg: 15.7, ci: [15.2, 16.1], per: [7.9, 7.8], rounds: [15.7, 15, 16.4] }),
      arm({ k: 1, t: 2, pin: false, agg: 12.5, ci: [12.1, 12.9], per: [12.5], rounds: [12.5, 12, 13.1] }),
    ], 2);
    assert.equal(v.comparaisons.length, 1);
    const c = v.comparaisons[0]!;
    assert.equal(c.flux, 2);
    // Round by round 15.7/12.5, 15/12, 16.4/13.1: all close to 1.25, so the interval is narrow and excludes 1.
    const top = c.paires[0]!;
    assert.deepEqual([top.a, top.b, top.tranche], ['2 processes x 1 thread, pinned', '1 process x 2 threads, serving the 2 one after another', true]);
    const logs = [15.7 / 12.5, 15 / 12, 16.4 / 13.1].map(Math.log);
    assert.ok(Math.abs((top.rapport ?? 0) - Math.exp(logs.reduce((x, y) => x + y, 0) / 3)) < 1e-12);
    assert.equal(c.resolu, true);
    assert.equal(c.paires.length, 3);
    assert.equal(
      c.phrase,
      '2 streams on 2 cores, synthetic-siwis-medium: 2 processes x 1 thread, pinned: x15.7 aggregate [15.2, 16.1]; ' +
        '1 process x 2 threads, serving the 2 one after another: x12.5 aggregate [12.1, 12.9]; ' +
        '1 process x 1 thread, serving the 2 one after another: x8.0 aggregate [7.8, 8.2]. ' +
        `2 processes x 1 thread, pinned: ${pct(top.rapport!)} [${pct(top.rapport_ic95![0])}, ${pct(top.rapport_ic95![1])}] over 1 process x 2 threads, serving the 2 one after another. ` +
        'One request alone is fastest with 1 process x 2 threads (x12.5). ' +
        'Serving 2 streams with one worker means request 2 waits for 1 before it.',
    );
  });

  it('says "not resolved" when the ratio\'s interval holds 1, never a winner', () => {
    const v = buildVerdict([
      arm({ k: 2, t: 1, pin: false, agg: 15.0, ci: [14.0, 16.0], per: [7.5, 7.5], rounds: [15, 14, 16] }),
      arm({ k: 2, t: 1, pin: true, agg: 15.5, ci: [15.1, 16.2], per: [7.7, 7.8], rounds: [14.5, 15.5, 15.5] }),
    ], 2);
    const c = v.comparaisons[0]!;
    assert.equal(c.resolu, false);
    assert.equal(c.paires[0]?.tranche, false);
    assert.match(c.phrase, /2 processes x 1 thread, pinned: \+[\d.]+% \[-[\d.]+%, \+[\d.]+%\] over 2 processes x 1 thread, free, not resolved \(the interval holds no difference\)\./);
  });

  it('names no winner from a single round, however far apart the figures, and says why', () => {
    const v = buildVerdict([
      arm({ k: 2, t: 1, pin: false, agg: 20.6, ci: null, per: [10.3, 10.3], rounds: [20.6] }),
      arm({ k: 1, t: 2, pin: false, agg: 10, ci: null, per: [10], rounds: [10] }),
    ], 2);
    const c = v.comparaisons[0]!;
    assert.equal(c.resolu, false);
    assert.deepEqual(c.paires.map((p) => [p.rapport, p.rapport_ic95, p.tranche]), [[2.06, null, false]]);
    assert.match(c.phrase, /Too few rounds to decide: 1 round, and an interval that holds the drift between rounds needs at least 2; run again with --rounds 2 or more\./);
  });

  it('two identical layouts, simulated with seeded drift and noise: rarely resolved (seeded simulation)', () => {
    const rng = new Prng(7);
    const noisy = (drift: number): number => 20 * drift * (1 + 0.05 * (rng.next() + rng.next() + rng.next() - 1.5));
    const sameLayouts = (rounds: number): boolean => {
      const drifts = Array.from({ length: rounds }, () => 1 + 0.2 * (rng.next() - 0.5));
      const a = drifts.map(noisy);
      const b = drifts.map(noisy);
      return buildVerdict([
        arm({ k: 2, t: 1, pin: false, agg: median(a), ci: null, per: [10, 10], rounds: a }),
        arm({ k: 2, t: 1, pin: true, agg: median(b), ci: null, per: [10, 10], rounds: b }),
      ], 2).comparaisons[0]!.resolu;
    };
    const rate = (rounds: number): number => Array.from({ length: 1000 }, () => sameLayouts(rounds)).filter(Boolean).length / 1000;
    assert.equal(rate(1), 0);
    for (const rounds of [2, 3, 6]) assert.ok(rate(rounds) <= 0.06, `identical layouts declared different ${rate(rounds)} of the time over ${rounds} rounds`);
  });

  it('leaves out and names arms whose controls failed', () => {
    const v = buildVerdict([
      arm({ k: 2, t: 1, pin: false, agg: 30, ci: [29, 31], per: [15, 15], held: false }),
      arm({ k: 2, t: 1, pin: true, agg: 15.5, ci: [15.1, 16.2], per: [7.7, 7.8] }),
    ], 2);
    const c = v.comparaisons[0]!;
    assert.deepEqual(c.classement.map((r) => r.disposition), ['2 processes x 1 thread, pinned']);
    assert.deepEqual(c.exclus, ['2 processes x 1 thread, free (failed cpu_sum)']);
    assert.match(c.phrase, /Left out, controls failed: 2 processes x 1 thread, free \(failed cpu_sum\)\./);
    assert.doesNotMatch(c.phrase, /x30/);
  });

  it('shows scaling against the ideal min(K, cores) x single stream', () => {
    const v = buildVerdict([
      arm({ k: 1, t: 1, pin: false, agg: 10, ci: [9, 11], per: [10] }),
      arm({ k: 2, t: 1, pin: false, agg: 19, ci: [18, 20], per: [9.5, 9.5] }),
      arm({ k: 4, t: 1, pin: false, agg: 18, ci: [17, 19], per: [4.5, 4.5, 4.5, 4.5] }),
    ], 2);
    assert.deepEqual(v.passage_a_l_echelle, ['synthetic-siwis-medium, process, T=1, free: K=1 x10.0 (ideal x10.0, 100%); K=2 x19.0 (ideal x20.0, 95%); K=4 x18.0 (ideal x20.0, 90%)']);
    assert.equal(v.comparaisons.length, 2);
  });

  it('the ideal counts the cores a stream already uses: two T=2 streams on 2 cores cannot double one', () => {
    const v = buildVerdict([
      arm({ k: 1, t: 2, pin: false, agg: 16, ci: [15, 17], per: [16] }),
      arm({ k: 2, t: 2, pin: false, agg: 17, ci: [16, 18], per: [8.5, 8.5] }),
    ], 2);
    assert.deepEqual(v.passage_a_l_echelle, ['synthetic-siwis-medium, process, T=2, free: K=1 x16.0 (ideal x16.0, 100%); K=2 x17.0 (ideal x16.0, 106%)']);
    // On 4 cores the same pair can use all four: the ideal doubles.
    assert.match(buildVerdict([arm({ k: 1, t: 2, pin: false, agg: 16, ci: [15, 17], per: [16] }), arm({ k: 2, t: 2, pin: false, agg: 30, ci: [29, 31], per: [15, 15] })], 4).passage_a_l_echelle[0] ?? '', /K=2 x30\.0 \(ideal x32\.0, 94%\)/);
  });

  it('a K=1 arm whose controls failed is no baseline', () => {
    const v = buildVerdict([
      arm({ k: 1, t: 1, pin: false, agg: 10, ci: [9, 11], per: [10], held: false }),
      arm({ k: 2, t: 1, pin: false, agg: 19, ci: [18, 20], per: [9.5, 9.5] }),
    ], 2);
    assert.deepEqual(v.passage_a_l_echelle, ["synthetic-siwis-medium, process, T=1, free: no baseline, the K=1 arm's controls failed"]);
  });

  it('the table flags a NOISY arm with its spread', () => {
    const a = { ...arm({ k: 1, t: 1, pin: false, agg: 10, ci: [9, 11], per: [10] }), bruyant: true, dispersion_relative: 0.17 };
    assert.match(armLine(a), /OK NOISY \(spread 17% of median\)/);
  });

  it('the table and the verdict quote the same aggregate: the median of the per-pass sums, not the sum of the stream medians', () => {
    const single = arm({ k: 1, t: 1, pin: false, agg: 4.6, ci: [4.6, 4.7], per: [4.6] });
    const pinned = { ...arm({ k: 2, t: 1, pin: true, agg: 9.6, ci: [9.2, 9.7], per: [4.62, 4.58] }), debit_agrege_mediane: 9.2 };
    assert.match(armLine(pinned), /aggregate x9\.60 \[9\.2, 9\.7\]/);
    const v = buildVerdict([single, pinned], 2);
    assert.ok(v.phrases.some((p) => p.includes('pinned: x9.6 aggregate [9.2, 9.7]')), v.phrases.join('\n'));
  });
});

describe('verdict, the deployment question', () => {
  it('also sets the best parallel layout against one process with K threads when the top two are both parallel', () => {
    const v = buildVerdict([
      arm({ k: 2, t: 1, pin: false, agg: 15.0, ci: [14.0, 16.0], per: [7.5, 7.5], rounds: [15, 14, 16] }),
      arm({ k: 2, t: 1, pin: true, agg: 15.5, ci: [15.1, 16.2], per: [7.7, 7.8], rounds: [14.5, 15.5, 15.5] }),
      arm({ k: 1, t: 2, pin: false, agg: 12.5, ci: [12.1, 12.9], per: [12.5], rounds: [11.9, 12.5, 12.7] }),
    ], 2);
    const c = v.comparaisons[0]!;
    assert.equal(c.resolu, false);
    assert.match(c.phrase, /over 2 processes x 1 thread, free, not resolved \(the interval holds no difference\)\. 2 processes x 1 thread, pinned: \+[\d.]+% \[\+[\d.]+%, \+[\d.]+%\] over 1 process x 2 threads, serving the 2 one after another\./);
  });

  it('compares engines layout by layout with the paired round ratio, and ranks layouts within each engine', () => {
    const v = buildVerdict([
      arm({ k: 1, t: 1, pin: false, agg: 10, ci: [9, 11], per: [10], rounds: [10, 9.5, 10.5], engine: 'onnxruntime' }),
      arm({ k: 1, t: 1, pin: false, agg: 11, ci: [10, 12], per: [11], rounds: [11, 10.6, 11.4], engine: 'sherpa' }),
      arm({ k: 2, t: 1, pin: false, agg: 19, ci: [18, 20], per: [9.5, 9.5], rounds: [19, 18, 20], engine: 'onnxruntime' }),
      arm({ k: 2, t: 1, pin: false, agg: 19.5, ci: [18, 21], per: [9.7, 9.8], rounds: [18.5, 19.5, 20.5], engine: 'sherpa', held: false }),
    ], 2);
    // Layouts ranked once per engine, never sherpa against onnxruntime as if they were layouts.
    assert.deepEqual(v.comparaisons.map((c) => [c.flux, c.moteur, c.classement.length]), [[2, 'onnxruntime', 2], [2, 'sherpa', 1]]);
    assert.match(v.comparaisons[0]!.phrase, /^2 streams on 2 cores, synthetic-siwis-medium \[onnxruntime-node, text\]: /);
    const m = v.moteurs ?? [];
    assert.equal(m.length, 2);
    const k1 = m[0]!;
    const expected = Math.exp([11 / 10, 10.6 / 9.5, 11.4 / 10.5].map(Math.log).reduce((x, y) => x + y, 0) / 3);
    assert.ok(Math.abs((k1.paire?.rapport ?? 0) - expected) < 1e-12);
    assert.deepEqual([k1.paire?.a, k1.paire?.b, k1.flux, k1.portee], ['sherpa-onnx', 'onnxruntime-node', 1, 'text']);
    assert.equal(k1.phrase, `synthetic-siwis-medium, K=1 1 process x 1 thread (text scope): sherpa-onnx: ${pct(k1.paire!.rapport!)} [${pct(k1.paire!.rapport_ic95![0])}, ${pct(k1.paire!.rapport_ic95![1])}] over onnxruntime-node${k1.paire!.tranche ? '.' : ', not resolved (the interval holds no difference).'}`);
    // A failed control leaves the engines uncompared at that K, and says which.
    assert.equal(m[1]!.paire, null);
    assert.equal(m[1]!.phrase, 'synthetic-siwis-medium, K=2 2 processes x 1 thread, free (text scope): not compared, the sherpa-onnx arm\'s controls failed.');
    assert.ok(v.phrases.includes(k1.phrase));
  });

  it('does not pair engines timed at different scopes', () => {
    const v = buildVerdict([
      arm({ k: 1, t: 1, pin: false, agg: 10, ci: [9, 11], per: [10], engine: 'onnxruntime', scope: 'model' }),
      arm({ k: 1, t: 1, pin: false, agg: 11, ci: [10, 12], per: [11], engine: 'sherpa', scope: 'text' }),
    ], 2);
    assert.equal(v.moteurs, undefined);
  });
});
