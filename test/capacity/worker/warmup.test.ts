// light test file: pure functions only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WARMUP_MAX_SENTENCES, warmupOrder } from '../../../lib/capacity/worker/warmup.js';

test('a worker warms on the whole reply, twice, in the order a listener hears it', () => {
  assert.deepEqual(warmupOrder(2, 2), [0, 1, 0, 1]);
  assert.deepEqual(warmupOrder(1, 2), [0, 0]);
  assert.deepEqual(warmupOrder(3, 1), [0, 1, 2]);
});

test('a long text warms on its first sentences only, within the cap', () => {
  assert.deepEqual(warmupOrder(10, 2), [0, 1, 2, 3, 0, 1, 2, 3]);
  assert.equal(warmupOrder(50, 1).length, WARMUP_MAX_SENTENCES);
  assert.equal(warmupOrder(5, 20).length, WARMUP_MAX_SENTENCES);
  assert.deepEqual(warmupOrder(0, 2), []);
  assert.deepEqual(warmupOrder(3, 0), []);
});
