// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_TIMER_MS, timerMs } from '../../lib/core/timer.js';

describe('a delay a timer can hold', () => {
  it('past 2^31 - 1 ms is the longest, not 1 ms; below it is itself; negative is 0', async () => {
    assert.equal(MAX_TIMER_MS, 2147483647);
    assert.deepEqual(
      [timerMs(2147483 * 1000 + 1000), timerMs(2 ** 40), timerMs(30_000), timerMs(-5)],
      [MAX_TIMER_MS, MAX_TIMER_MS, 30_000, 0],
    );
    // What the clamp prevents: Node fires a longer timer at once. A clamped one has not fired 50 ms on.
    let fired = 0;
    const clamped = setTimeout(() => (fired += 1), timerMs(2 ** 31 + 1000));
    await new Promise((r) => setTimeout(r, 50));
    clearTimeout(clamped);
    assert.equal(fired, 0);
  });
});
