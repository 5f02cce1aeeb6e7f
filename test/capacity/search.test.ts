import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { arrivalOffsetsMs } from '../../lib/capacity/arrivals.js';
import { SentenceQueue } from '../../lib/capacity/queue.js';
import { CapacitySearch } from '../../lib/capacity/search.js';

/** Run a search against a machine that serves exactly `truth` listeners; the K values it tried. */
function walk(predicted: number, cap: number, truth: number): { tried: number[]; answer: number; above: number | undefined } {
  const s = new CapacitySearch(predicted, cap);
  const tried: number[] = [];
  for (let k = s.next(); k !== undefined && tried.length < 50; k = s.next()) {
    tried.push(k);
    s.record(k, k <= truth);
  }
  return { tried, answer: s.held(), above: s.failedAbove() };
}

describe('the capacity search', () => {
  it('starts at the prediction and needs two trials when it is right', () => {
    assert.deepEqual(walk(6, 32, 6), { tried: [6, 7], answer: 6, above: 7 });
  });

  it('steps down once, then halves and bisects, when the prediction is too high', () => {
    assert.deepEqual(walk(16, 32, 6), { tried: [16, 15, 7, 3, 5, 6], answer: 6, above: 7 });
    assert.deepEqual(walk(1, 32, 0), { tried: [1], answer: 0, above: 1 });
  });

  it('doubles when it is too low, and stops at the cap', () => {
    assert.deepEqual(walk(2, 32, 9), { tried: [2, 3, 6, 12, 9, 10], answer: 9, above: 10 });
    assert.deepEqual(walk(4, 5, 100), { tried: [4, 5], answer: 5, above: undefined });
  });

  it('a K holds only if every trial of it held; later rounds re-test the edge', () => {
    const s = new CapacitySearch(3, 32);
    s.record(3, true);
    s.record(4, false);
    assert.deepEqual(s.edge(), [3, 4]);
    s.record(3, false);
    assert.equal(s.held(), 0);
    assert.equal(s.failedAbove(), 3);
  });
});

describe('arrivals and the queue', () => {
  it('together, staggered over one mean sentence, or Poisson (seeded)', () => {
    assert.deepEqual(arrivalOffsetsMs('together', 3, 6000, 1), [0, 0, 0]);
    assert.deepEqual(arrivalOffsetsMs('staggered', 4, 6000, 1), [0, 1500, 3000, 4500]);
    const p = arrivalOffsetsMs('poisson', 200, 6000, 7);
    assert.deepEqual(p, arrivalOffsetsMs('poisson', 200, 6000, 7));
    assert.notDeepEqual(p, arrivalOffsetsMs('poisson', 200, 6000, 8));
    assert.ok(p.every((x, i) => i === 0 || x >= (p[i - 1] as number)));
    // 199 gaps of mean 30 ms: their mean is within 20% of it.
    assert.ok(Math.abs((p[199] as number) / 199 - 30) < 6, `mean gap ${(p[199] as number) / 199}`);
    assert.throws(() => arrivalOffsetsMs('staggered', 0, 6000, 1), /whole number >= 1/);
  });

  it('fifo serves in the order asked; deadline the sentence due soonest, its due time moving with real audio lengths', () => {
    const fifo = new SentenceQueue('fifo', [2, 1]);
    fifo.arrive(0, 0);
    fifo.arrive(1, 100);
    assert.deepEqual([fifo.take(), fifo.take(), fifo.take()].map((j) => [j?.stream, j?.sentence]), [[0, 0], [0, 1], [1, 0]]);
    const dl = new SentenceQueue('deadline', [2, 1]);
    dl.arrive(0, 0);
    dl.arrive(1, 100);
    assert.deepEqual([dl.take()].map((j) => [j?.stream, j?.sentence]), [[0, 0]]);
    // Listener 0's first sentence played at 300 and lasted 0.5 s: its second is due at 800, before listener 1's first (100)? No: 100 first.
    dl.ready(0, 0, 300, 0.5);
    assert.equal(dl.dueMs({ stream: 0, sentence: 1, seq: 1 }), 800);
    assert.deepEqual([dl.take(), dl.take(), dl.take()].map((j) => [j?.stream, j?.sentence]), [[1, 0], [0, 1], [1, 1]]);
    assert.equal(dl.take(), undefined);
  });
});
