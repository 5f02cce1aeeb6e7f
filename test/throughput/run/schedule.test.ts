// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { passesOfRound, roundOrder, voiceArmOrder, voiceSequence } from '../../../lib/core/schedule.js';

describe('rounds: passes and order', () => {
  it('splits the passes as evenly as can be, the first rounds taking one more; added rounds take as many as the first', () => {
    assert.deepEqual(
      [1, 2, 3].map((r) => passesOfRound(6, 3, r)),
      [2, 2, 2],
    );
    assert.deepEqual(
      [1, 2, 3].map((r) => passesOfRound(7, 3, r)),
      [3, 2, 2],
    );
    assert.deepEqual(
      [1, 2].map((r) => passesOfRound(3, 2, r)),
      [2, 1],
    );
    assert.equal(passesOfRound(7, 3, 4), 3);
    assert.equal(passesOfRound(6, 3, 5), 2);
  });

  it('shuffles each round by the seed: every arm once, the same seed the same order, another seed or round another', () => {
    const orders = [1, 2, 3].map((round) => roundOrder(8, 1, round));
    for (const o of orders)
      assert.deepEqual(
        [...o].sort((a, b) => a - b),
        [0, 1, 2, 3, 4, 5, 6, 7],
      );
    assert.deepEqual(roundOrder(8, 1, 2), orders[1]);
    assert.notDeepEqual(orders[0], orders[1]);
    assert.notDeepEqual(roundOrder(8, 2, 1), orders[0]);
    // Over many rounds each arm comes first about as often as any other (a fair shuffle).
    const first = new Array<number>(4).fill(0);
    for (let round = 1; round <= 4000; round += 1) {
      const at = roundOrder(4, 7, round)[0] as number;
      first[at] = (first[at] ?? 0) + 1;
    }
    for (const n of first) assert.ok(n > 850 && n < 1150, `first places ${first.join(', ')}`);
  });

  it("runs a voice's arms in pairs of rounds, the second the reverse of the first, each pair shuffled anew", () => {
    const rounds = [1, 2, 3, 4, 5, 6].map((r) => voiceArmOrder(4, 9, r, 0));
    for (const o of rounds)
      assert.deepEqual(
        [...o].sort((a, b) => a - b),
        [0, 1, 2, 3],
      );
    assert.deepEqual(rounds[1], [...(rounds[0] as number[])].reverse());
    assert.deepEqual(rounds[3], [...(rounds[2] as number[])].reverse());
    assert.deepEqual(voiceArmOrder(4, 9, 3, 0), rounds[2]);
    // Over a pair every arm's two places add up to the same: a steady drift weighs on all alike.
    for (let arm = 0; arm < 4; arm += 1)
      assert.equal((rounds[0] as number[]).indexOf(arm) + (rounds[1] as number[]).indexOf(arm), 3);
    // Pairs, seeds and voices shuffle apart.
    const pairs = new Set(Array.from({ length: 12 }, (_, i) => voiceArmOrder(4, 9, 2 * i + 1, 0).join('')));
    assert.ok(pairs.size > 4, `only ${pairs.size} orders in 12 pairs`);
    assert.notDeepEqual(
      [1, 3, 5, 7].map((r) => voiceArmOrder(4, 9, r, 1).join('')),
      [1, 3, 5, 7].map((r) => voiceArmOrder(4, 9, r, 0).join('')),
    );
  });

  it('lets the voices take turns leading the round', () => {
    assert.deepEqual(voiceSequence(2, 1), [0, 1]);
    assert.deepEqual(voiceSequence(2, 2), [1, 0]);
    assert.deepEqual(voiceSequence(3, 3), [0, 1, 2]);
  });
});
