// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  affinityControl,
  cpuMaxControl,
  cpuSumControl,
  overlapControl,
  skewControl,
} from '../../lib/measure/controls.js';

describe('controls hold and fail on injected readings', () => {
  it('cpu_max: < 110% x T', () => {
    assert.equal(cpuMaxControl([99, 104], 1).held, true);
    const f = cpuMaxControl([99, 134], 1);
    assert.equal(f.held, false);
    assert.equal(f.measured, 134);
    assert.match(f.message, /stream 1 reached 134% CPU, over the 110% limit .* by 24 points/);
    assert.equal(cpuMaxControl([215], 2).held, true);
    assert.equal(cpuMaxControl([220], 2).held, false);
    assert.equal(cpuMaxControl([Number.NaN], 1).held, false);
  });

  it('an unreadable CPU figure is unknown: the control does not hold and says it could not check', () => {
    const max = cpuMaxControl([99, null], 1);
    assert.deepEqual([max.held, max.measured], [false, null]);
    assert.equal(max.message, "stream 1's CPU could not be read, so cpu_max could not be checked");
    const sum = cpuSumControl([null, 99], [1, 1], 2);
    assert.deepEqual([sum?.held, sum?.measured, sum?.threshold], [false, null, 150]);
    const skew = skewControl([], 1, 2);
    assert.deepEqual([skew?.held, skew?.measured], [false, null]);
  });

  it('cpu_sum: K >= 2 only, > 75 x min(cores the streams may use, cores)', () => {
    assert.equal(cpuSumControl([98], [1], 2), undefined);
    assert.equal(cpuSumControl([98, 97], [1, 1], 2)?.held, true);
    const f = cpuSumControl([98, 40], [1, 1], 2);
    assert.equal(f?.held, false);
    assert.equal(f?.threshold, 150);
    assert.match(f?.message ?? '', /12 points short of 150%/);
    // Oversubscribed: 4 streams on 2 cores can only add to 200%.
    assert.equal(cpuSumControl([50, 50, 50, 50], [1, 1, 1, 1], 2)?.held, true);
    assert.equal(cpuSumControl([50, 50, 50, 50], [1, 1, 1, 1], 2)?.threshold, 150);
  });

  it('cpu_sum: two pinned T=2 streams on 4 cores can use one core each, so 200% holds', () => {
    // Each pinned stream sees one core: min(T=2, 1 core) = 1, so the floor is 75 x 2 = 150, not 300.
    const pinned = cpuSumControl([100, 100], [1, 1], 4);
    assert.deepEqual([pinned?.threshold, pinned?.held], [150, true]);
    // Free, the same two streams could use 4 cores between them: 200% is then too little.
    const free = cpuSumControl([100, 100], [2, 2], 4);
    assert.deepEqual([free?.threshold, free?.held], [300, false]);
  });

  it('affinity pinned: one core each, distinct, min(K, cores) of them', () => {
    assert.equal(affinityControl([[0], [1]], true, [0, 1]).held, true);
    assert.equal(affinityControl([[0], [0]], true, [0, 1]).held, false);
    assert.equal(affinityControl([[0, 1], [1]], true, [0, 1]).held, false);
    assert.equal(affinityControl([[0], [1], [0]], true, [0, 1]).held, true);
  });

  it('affinity free: every stream sees the full set', () => {
    assert.equal(
      affinityControl(
        [
          [0, 1],
          [1, 0],
        ],
        false,
        [0, 1],
      ).held,
      true,
    );
    const f = affinityControl([[0, 1], [1]], false, [0, 1]);
    assert.equal(f.held, false);
    assert.match(f.message, /1 of 2 streams did not see every core/);
  });

  it('start_skew: <= 2% of the median pass compute time, K >= 2 only', () => {
    assert.equal(skewControl([5], 1, 1), undefined);
    assert.equal(skewControl([0.1, 19.9], 1, 2)?.held, true);
    const f = skewControl([0.1, 25], 1, 2);
    assert.equal(f?.held, false);
    assert.equal(f?.threshold, 20);
    assert.match(f?.message ?? '', /by 5 ms/);
  });
});

describe('overlap', () => {
  it("reads the share of the shortest stream's time with every stream computing, and fails on the worst pass under 75%", () => {
    assert.equal(overlapControl([{ startsMs: [0], endsMs: [10] }], 1), undefined);
    // Together 50-990; the shorter stream ran 50-1000: 940 of its 950 ms.
    const fine = overlapControl([{ startsMs: [0, 50], endsMs: [990, 1000] }], 2);
    assert.deepEqual([fine?.held, fine?.measured], [true, 98.9]);
    // A stream on a faster core, done after 600 of the other's 1000 ms: with the other all its time.
    assert.deepEqual([overlapControl([{ startsMs: [0, 0], endsMs: [1000, 600] }], 2)?.measured], [100]);
    // One stream starting 300 ms late and running as long: 700 of its 1000 ms.
    const late = overlapControl(
      [
        { startsMs: [0, 10], endsMs: [1000, 990] },
        { startsMs: [0, 300], endsMs: [1000, 1300] },
      ],
      2,
    );
    assert.deepEqual([late?.held, late?.measured, late?.threshold], [false, 70, 75]);
    // Windows that never meet count as 0, not negative; times that cannot be read do not hold.
    assert.equal(overlapControl([{ startsMs: [0, 2000], endsMs: [1000, 3000] }], 2)?.measured, 0);
    assert.equal(overlapControl([], 2)?.held, false);
  });
});
