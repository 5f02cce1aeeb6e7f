// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { binomialCdf, percentUp, quantileUpperBound, rateUpperBound } from '../../../lib/capacity/answer/evidence.js';

const close = (a: number | null | undefined, b: number, eps = 1e-4): void =>
  assert.ok(a !== null && a !== undefined && Math.abs(a - b) < eps, `${a} is not ${b}`);

describe('evidence arithmetic, against figures worked by hand', () => {
  it('binomial CDF', () => {
    // P(X <= 1), X ~ Bin(10, 0.3942): 0.6058^10 + 10 x 0.3942 x 0.6058^9 = 0.006654 + 0.043303.
    close(binomialCdf(1, 10, 0.3942), 0.049957);
    close(binomialCdf(0, 59, 0.95), 0.05 ** 59, 1e-12);
    // 1 - 0.95^59 = 0.951511: the largest of 59 bounds the 95th percentile.
    close(binomialCdf(58, 59, 0.95), 0.951511);
    assert.equal(binomialCdf(10, 10, 0.5), 1);
    assert.equal(binomialCdf(-1, 10, 0.5), 0);
  });

  it('the gap-rate bound: 1 - 0.05^(1/n) with no gap, Clopper-Pearson otherwise', () => {
    // ln 0.05 = -2.995732; /18 = -0.166430; 1 - e^-0.166430 = 0.153321.
    close(rateUpperBound(0, 18), 0.153321);
    close(rateUpperBound(0, 60), 0.048703);
    // One event in ten: the rate at which P(X <= 1) = 0.05, worked above: 0.3942.
    close(rateUpperBound(1, 10), 0.3942, 2e-4);
    assert.equal(rateUpperBound(5, 5), 1);
    assert.equal(rateUpperBound(0, 0), null);
    assert.equal(percentUp(0.153321), 16);
    assert.equal(percentUp(0.15), 15);
  });

  it('a percentile bound the sample supports: the worst of 18 bounds the 84th, the 99th of 100 the 95th', () => {
    const eighteen = Array.from({ length: 18 }, (_, i) => 100 + i);
    const b18 = quantileUpperBound(eighteen);
    assert.equal(b18?.valueMs, 117);
    assert.equal(b18?.reached, false);
    // 0.05^(1/18) = e^-0.166430 = 0.846679.
    close(b18?.quantile, 0.846679);
    // n = 58: 0.95^58 = 0.051041 > 0.05, still too few; n = 59 reaches it with its largest value.
    assert.equal(quantileUpperBound(Array.from({ length: 58 }, (_, i) => i))?.reached, false);
    assert.deepEqual(quantileUpperBound(Array.from({ length: 59 }, (_, i) => i)), {
      valueMs: 58,
      quantile: 0.95,
      reached: true,
    });
    // n = 100: P(X <= 98) = 1 - 5 x 0.95^99 - 0.95^100 = 0.962914 >= 0.95, P(X <= 97) = 0.881722: rank 99.
    const hundred = Array.from({ length: 100 }, (_, i) => 1000 - i);
    assert.deepEqual(quantileUpperBound(hundred), { valueMs: 999, quantile: 0.95, reached: true });
    assert.equal(quantileUpperBound([]), null);
  });
});
