// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  distribution,
  logMeanInterval,
  median,
  MIN_ROUNDS_TO_DECIDE,
  stdev,
  summarize,
  tQuantile975,
  upperControlLimit,
} from '../../lib/measure/stats.js';
import { Prng } from '../../lib/core/prng.js';

describe('statistics against hand-computed values', () => {
  it('min, median, max', () => {
    assert.deepEqual(summarize([3, 1, 2]), { min: 1, max: 3, mediane: 2 });
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.deepEqual(summarize([]), { min: null, max: null, mediane: null });
  });

  it('mean, sample standard deviation, interquartile range', () => {
    // 2,4,4,4,5,5,7,9: mean 5, sum of squares 32, sample variance 32/7.
    const d = distribution([2, 4, 4, 4, 5, 5, 7, 9]);
    assert.equal(d.mean, 5);
    assert.ok(Math.abs((d.stdev ?? 0) - Math.sqrt(32 / 7)) < 1e-12);
    // Quartiles by linear interpolation: Q1 at position 1.75 -> 4, Q3 at 5.25 -> 5.5.
    assert.equal(d.iqr, 1.5);
    assert.equal(stdev([1]), null);
  });

  it('p95 by nearest rank, labelled "max of n" below 20 values', () => {
    const small = distribution([5, 1, 9, 3]);
    assert.equal(small.p95, 9);
    assert.equal(small.p95_label, 'max of 4');
    const twenty = distribution(Array.from({ length: 20 }, (_, i) => i + 1));
    assert.equal(twenty.p95, 19); // rank ceil(0.95 x 20) = 19
    assert.equal(twenty.p95_label, 'p95 (nearest rank)');
  });

  it('upper control limit = mean + 3 sigma', () => {
    assert.ok(Math.abs((upperControlLimit([2, 4, 4, 4, 5, 5, 7, 9]) ?? 0) - (5 + 3 * Math.sqrt(32 / 7))) < 1e-12);
    assert.equal(upperControlLimit([1]), null);
  });

  it('t quantiles and the interval of a multiplicative effect from one figure per round', () => {
    assert.deepEqual([1, 2, 5, 30].map(tQuantile975), [12.706, 4.303, 2.571, 2.042]);
    assert.ok(Math.abs(tQuantile975(60) - 2.0) < 0.002);
    assert.throws(() => tQuantile975(0), /degrees of freedom/);
    // Logs 1, 2, 3: mean 2, sd 1, half-width t(2) / sqrt(3).
    const i = logMeanInterval([Math.E, Math.E ** 2, Math.E ** 3]);
    const h = 4.303 / Math.sqrt(3);
    assert.ok(
      i &&
        Math.abs(i.centre - Math.E ** 2) < 1e-9 &&
        Math.abs(i.halfWidth - h) < 1e-12 &&
        Math.abs(i.lo - Math.exp(2 - h)) < 1e-9,
    );
    assert.deepEqual(logMeanInterval([5, 5, 5]), { centre: 5, halfWidth: 0, lo: 5, hi: 5 });
    assert.equal(logMeanInterval([5]), null);
    assert.equal(logMeanInterval([5, 0]), null);
    assert.equal(MIN_ROUNDS_TO_DECIDE, 2);
  });
});

/**
 * Seeded simulations of a run: R rounds of 2 passes, every round with its own drift (the same
 * multiplicative factor for every arm of the round, as a machine that slows down for a minute),
 * and noise per pass. They show which intervals keep their 95% and from how many rounds.
 */
describe('coverage, by seeded simulation', () => {
  const rng = new Prng(2026);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  const laplace = (): number => ((rng.next() < 0.5 ? 1 : -1) * Math.log(1 - rng.next())) / Math.SQRT2;
  const passes = (level: number, drift: number, noise: () => number): number[] =>
    [0, 1].map(() => level * drift * Math.exp(0.04 * noise()));
  const trials = 3000;

  function pairCoverage(rounds: number, noise: () => number): number {
    let covered = 0;
    for (let t = 0; t < trials; t += 1) {
      // A is truly 25% faster than B; both see the round's drift.
      const ratios = Array.from({ length: rounds }, () => {
        const drift = Math.exp(0.1 * normal());
        return median(passes(1.25, drift, noise)) / median(passes(1, drift, noise));
      });
      const i = logMeanInterval(ratios);
      if (i && i.lo <= 1.25 && 1.25 <= i.hi) covered += 1;
    }
    return covered / trials;
  }

  it('the paired layout ratio keeps 95% from 2 rounds on, with normal or heavy-tailed noise', () => {
    for (const noise of [normal, laplace]) {
      for (const rounds of [2, 3, 4, 6]) {
        const c = pairCoverage(rounds, noise);
        assert.ok(c >= 0.935, `${noise.name}, ${rounds} rounds: coverage ${c}`);
      }
    }
  });

  it("an arm's interval keeps 95% with drift between rounds, where resampling rounds then passes does not (3 rounds)", () => {
    let tCovered = 0;
    let bootCovered = 0;
    for (let t = 0; t < 1000; t += 1) {
      const rounds = Array.from({ length: 3 }, () => passes(10, Math.exp(0.1 * normal()), normal));
      const all = rounds.flat();
      const point = median(all);
      const i = logMeanInterval(rounds.map(median));
      if (i && point * Math.exp(-i.halfWidth) <= 10 && 10 <= point * Math.exp(i.halfWidth)) tCovered += 1;
      // The two-level bootstrap: resample rounds, then passes within each, take the median; 400 times.
      const medians = Array.from({ length: 400 }, () =>
        median(
          Array.from({ length: 3 }, () => rounds[Math.floor(rng.next() * 3)] as number[]).flatMap((r) =>
            r.map(() => r[Math.floor(rng.next() * r.length)] as number),
          ),
        ),
      ).sort((a, b) => a - b);
      if ((medians[10] as number) <= 10 && 10 <= (medians[389] as number)) bootCovered += 1;
    }
    assert.ok(tCovered / 1000 >= 0.93, `t interval: ${tCovered / 1000}`);
    assert.ok(bootCovered / 1000 < 0.85, `two-level bootstrap: ${bootCovered / 1000}`);
  });
});
