import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bootstrapMedianCi, distribution, median, stdev, summarize, upperControlLimit } from '../../lib/measure/stats.js';

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

  it('the bootstrap interval is seeded: same values, same interval; it brackets the median', () => {
    const v = [10.1, 10.4, 9.8, 10.0, 10.3, 9.9];
    const a = bootstrapMedianCi(v);
    assert.deepEqual(a, bootstrapMedianCi(v));
    assert.ok(a && a[0] <= median(v) && median(v) <= a[1] && a[0] >= 9.8 && a[1] <= 10.4);
    // One value: no spread, the interval is that value.
    assert.deepEqual(bootstrapMedianCi([7]), [7, 7]);
    // Two values: resampled medians are 1, 1.5 or 2, so the 95% interval is [1, 2].
    assert.deepEqual(bootstrapMedianCi([1, 2]), [1, 2]);
    assert.equal(bootstrapMedianCi([]), null);
  });
});
