// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MIN_PILOT_ROUNDS, roundsNeeded } from '../../../lib/throughput/run/precision.js';

describe('--precision: the rounds a pilot calls for', () => {
  it('grows as the square of the pilot half-width over the target, never below the pilot', () => {
    // ±10% after 6 rounds, ±5% wanted: 6 x (ln 1.1 / ln 1.05)^2 = 22.9, so 23.
    assert.equal(roundsNeeded(6, Math.log(1.1), 5), 23);
    assert.equal(roundsNeeded(6, Math.log(1.05), 5), 6);
    assert.equal(roundsNeeded(6, Math.log(1.01), 5), 6);
    assert.equal(MIN_PILOT_ROUNDS, 6);
  });
});
