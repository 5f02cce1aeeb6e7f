import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { binomialHalfCdf, distribution, median, medianInterval, minimumValuesFor, MIN_PASSES_TO_DECIDE, orderIntervalCoverage, stdev, summarize, upperControlLimit } from '../../lib/measure/stats.js';
import { Prng } from '../../lib/prng.js';

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

  it('the median interval is distribution-free: order statistics with at least 95% coverage, none below 6 values', () => {
    assert.equal(minimumValuesFor(0.95), 6);
    assert.equal(MIN_PASSES_TO_DECIDE, 6);
    // 1 - 2 x 0.5^5 = 93.75%: five values cannot give a 95% interval; six give [min, max] at 96.9%.
    assert.equal(orderIntervalCoverage(1, 5), 0.9375);
    assert.equal(orderIntervalCoverage(1, 6), 1 - 2 / 64);
    assert.equal(medianInterval([3, 1, 2, 5, 4]), null);
    assert.deepEqual(medianInterval([10.1, 10.4, 9.8, 10.0, 10.3, 9.9]), [9.8, 10.4]);
    // n = 10: [x(2), x(9)] covers 1 - 2 x 11/1024 = 97.9%; [x(3), x(8)] only 89.1%.
    assert.deepEqual(medianInterval([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), [2, 9]);
    assert.equal(binomialHalfCdf(1, 10), 11 / 1024);
    assert.equal(medianInterval([]), null);
  });

  it('a seeded simulation shows the coverage each pass count reaches, and that 6 is the first that reaches 95%', () => {
    const rng = new Prng(2026);
    // Log-normal passes (skewed, as throughputs on a busy machine are); the true median is 1.
    const draw = (): number => Math.exp(0.2 * Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next()));
    const trials = 4000;
    const coverage: number[] = [];
    for (let n = 1; n <= 10; n += 1) {
      let covered = 0;
      for (let t = 0; t < trials; t += 1) {
        const ci = medianInterval(Array.from({ length: n }, draw));
        if (ci && ci[0] <= 1 && 1 <= ci[1]) covered += 1;
      }
      coverage.push(covered / trials);
    }
    // Below 6 there is no interval at all, so nothing can be claimed; from 6 on, 95% within Monte Carlo error.
    assert.deepEqual(coverage.slice(0, 5), [0, 0, 0, 0, 0]);
    for (const [i, c] of coverage.slice(5).entries()) assert.ok(c >= 0.94, `n=${i + 6}: coverage ${c}`);
    assert.equal(coverage.findIndex((c) => c >= 0.94) + 1, MIN_PASSES_TO_DECIDE);
  });
});
