// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chiSquareCdf, chiSquareQuantile } from '../../lib/measure/chi-square.js';

describe('chi-square', () => {
  it("gives the standard table's quantiles, low and high", () => {
    const table: Array<[number, number, number]> = [
      [0.05, 2, 0.1026],
      [0.2, 2, 0.4463],
      [0.025, 10, 3.247],
      [0.95, 4, 9.4877],
      [0.995, 1, 7.8794],
      [0.1, 30, 20.599],
    ];
    for (const [p, df, x] of table)
      assert.ok(
        Math.abs(chiSquareQuantile(p, df) - x) < 2e-3 * Math.max(1, x),
        `p ${p} df ${df}: ${chiSquareQuantile(p, df)}`,
      );
  });

  it('its CDF and quantile undo each other, and bad levels are refused', () => {
    for (const df of [1, 2, 5, 12]) assert.ok(Math.abs(chiSquareCdf(chiSquareQuantile(0.3, df), df) - 0.3) < 1e-9);
    assert.throws(() => chiSquareQuantile(1, 2), RangeError);
    assert.throws(() => chiSquareQuantile(0.5, 0), RangeError);
  });
});
