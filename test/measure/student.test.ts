// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tQuantile975 } from '../../lib/measure/stats.js';
import { studentCdf, studentQuantile, studentTwoSidedP } from '../../lib/measure/student.js';

describe("Student's t at any level", () => {
  it('gives the 97.5% quantiles of the standard table', () => {
    for (const df of [1, 2, 3, 4, 5, 8, 12, 20, 30])
      assert.ok(
        Math.abs(studentQuantile(0.975, df) - tQuantile975(df)) < 6e-4,
        `df ${df}: ${studentQuantile(0.975, df)}`,
      );
  });

  it('gives other levels of the standard table (99.5%, 98.75% as Bonferroni over 2, 90%)', () => {
    const table: Array<[number, number, number]> = [
      [0.995, 1, 63.657],
      [0.995, 5, 4.032],
      [0.995, 10, 3.169],
      [0.9875, 5, 3.163],
      [0.95, 5, 2.015],
      [0.95, 2, 2.92],
    ];
    for (const [p, df, t] of table)
      assert.ok(Math.abs(studentQuantile(p, df) - t) < 1e-3, `p ${p} df ${df}: ${studentQuantile(p, df)}`);
  });

  it('is symmetric, and its CDF and quantile undo each other', () => {
    assert.ok(Math.abs(studentQuantile(0.025, 5) + studentQuantile(0.975, 5)) < 1e-9);
    assert.ok(Math.abs(studentCdf(studentQuantile(0.9, 7), 7) - 0.9) < 1e-9);
    assert.equal(studentCdf(0, 3), 0.5);
    assert.ok(Math.abs(studentTwoSidedP(2.571, 5) - 0.05) < 1e-3);
  });

  it('refuses a probability outside (0, 1) or degrees of freedom <= 0', () => {
    assert.throws(() => studentQuantile(1, 5), /between 0 and 1/);
    assert.throws(() => studentQuantile(0.5, 0), /degrees of freedom/);
  });
});
