// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { arrivalOffsetsMs } from '../../../lib/capacity/trial/arrivals.js';
import { SentenceQueue } from '../../../lib/capacity/trial/queue.js';
import { CapacitySearch } from '../../../lib/capacity/answer/search.js';

type Truth = { a: number; b?: number };

/** Run a search against a machine that serves exactly `truth.a` listeners with no gap, `truth.b` within the bound; the steps it took. */
function walk(
  predicted: number,
  cap: number,
  truth: Truth,
  predictedInBound = 1,
): { tried: string[]; a: number; b: number; above: number | undefined } {
  const s = new CapacitySearch({ predicted, predictedInBound, cap, inBoundImpossible: truth.b === undefined });
  const tried: string[] = [];
  for (let step = s.next(); step !== undefined && tried.length < 50; step = s.next()) {
    tried.push(`${step.k}${step.purpose === 'premier_son' ? 'b' : ''}`);
    const gap = step.k > truth.a;
    s.record(step.k, {
      gapFree: step.purpose === 'sans_trou' ? !gap : null,
      inBound: !gap && step.k <= (truth.b ?? 0),
    });
  }
  return { tried, a: s.held(), b: s.heldInBound(), above: s.failedAbove() };
}

describe('the capacity search', () => {
  it('starts at the prediction and needs two trials when it is right', () => {
    assert.deepEqual(walk(6, 32, { a: 6 }), { tried: ['6', '7'], a: 6, b: 0, above: 7 });
  });

  it('steps down once, then halves and bisects, when the prediction is too high', () => {
    assert.deepEqual(walk(16, 32, { a: 6 }).tried, ['16', '15', '7', '3', '5', '6']);
    assert.deepEqual(walk(1, 32, { a: 0 }), { tried: ['1'], a: 0, b: 0, above: 1 });
  });

  it('a later round whose machine slowed by one listener steps down once from the new failure, not from half of it', () => {
    // Round 1 starts at 20 on a machine that serves 21: 20, 21 and 22 (failed). Round 2 the machine serves 19: 20 fails.
    const s = new CapacitySearch({ predicted: 20, predictedInBound: 1, cap: 32, inBoundImpossible: true });
    for (const [k, ok] of [
      [20, true],
      [21, true],
      [22, false],
    ] as const)
      s.record(k, { gapFree: ok, inBound: false }, 1);
    s.newRound();
    s.record(20, { gapFree: false, inBound: false }, 2);
    assert.deepEqual(s.next(), { k: 19, purpose: 'sans_trou' });
    // Without the new round the first step down of round 1 is spent: it halves, to 10, and bisects back up.
    const t = new CapacitySearch({ predicted: 20, predictedInBound: 1, cap: 32, inBoundImpossible: true });
    t.record(20, { gapFree: false, inBound: false }, 1);
    assert.equal(t.next()?.k, 19);
    t.record(19, { gapFree: false, inBound: false }, 1);
    assert.equal(t.next()?.k, 9);
  });

  it('grows by half when it is too low, and stops at the cap', () => {
    assert.deepEqual(walk(2, 32, { a: 9 }), { tried: ['2', '3', '5', '8', '12', '10', '9'], a: 9, b: 0, above: 10 });
    assert.deepEqual(walk(4, 5, { a: 100 }), { tried: ['4', '5'], a: 5, b: 0, above: undefined });
  });

  it('then searches the K within the first-audio bound with first-audio trials, never above the first answer', () => {
    // (a): 8, 9 held, 14 and 11 had gaps, 10 held. (b): whole trials at 8 and up were over the bound; 5 over, 4 within.
    assert.deepEqual(walk(8, 32, { a: 10, b: 4 }, 5), {
      tried: ['8', '9', '14', '11', '10', '5b', '4b'],
      a: 10,
      b: 4,
      above: 11,
    });
    assert.equal(walk(8, 32, { a: 10, b: 12 }, 5).b, 10);
  });

  it('a K holds only if every trial of it held and no smaller K failed, whatever order the outcomes came in', () => {
    const s = new CapacitySearch({ predicted: 6, predictedInBound: 1, cap: 32, inBoundImpossible: true });
    s.record(6, { gapFree: true, inBound: false });
    s.record(7, { gapFree: false, inBound: false });
    assert.deepEqual([s.held(), s.failedAbove()], [6, 7]);
    // A later round: 6 fails once, and 5, never tried, is where the search goes next.
    s.record(6, { gapFree: false, inBound: false });
    assert.deepEqual([s.held(), s.failedAbove()], [0, 6]);
    assert.deepEqual(s.next(), { k: 5, purpose: 'sans_trou' });
    s.record(5, { gapFree: true, inBound: false });
    s.record(4, { gapFree: false, inBound: false });
    // 5 held, but 4 below it failed: nothing is claimed above 3.
    assert.deepEqual([s.held(), s.failedAbove()], [0, 4]);
    // A first-audio trial says nothing of gaps unless it heard one.
    s.record(2, { gapFree: null, inBound: true });
    assert.equal(s.count(2, 'sans_trou'), 0);
    assert.equal(s.count(2, 'premier_son'), 1);
  });

  it('later rounds ask for the edges until each has its quota, smallest first', () => {
    const s = new CapacitySearch({ predicted: 3, predictedInBound: 2, cap: 32, inBoundImpossible: false });
    s.record(3, { gapFree: true, inBound: false });
    s.record(4, { gapFree: false, inBound: false });
    s.record(1, { gapFree: null, inBound: true });
    s.record(2, { gapFree: null, inBound: false });
    assert.deepEqual([s.held(), s.heldInBound()], [3, 1]);
    const quota = (k: number): number => (k === 3 ? 4 : 2);
    assert.deepEqual(s.missing(quota), [
      { k: 3, purpose: 'sans_trou' },
      { k: 4, purpose: 'sans_trou' },
      { k: 1, purpose: 'premier_son' },
      { k: 2, purpose: 'premier_son' },
    ]);
    for (const k of [3, 3, 3]) s.record(k, { gapFree: true, inBound: false });
    s.record(4, { gapFree: false, inBound: false });
    s.record(1, { gapFree: null, inBound: true });
    s.record(2, { gapFree: null, inBound: false });
    assert.deepEqual(s.missing(quota), []);
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
    assert.deepEqual(
      [fifo.take(), fifo.take(), fifo.take()].map((j) => [j?.stream, j?.sentence]),
      [
        [0, 0],
        [0, 1],
        [1, 0],
      ],
    );
    const dl = new SentenceQueue('deadline', [2, 1]);
    dl.arrive(0, 0);
    dl.arrive(1, 100);
    assert.deepEqual(
      [dl.take()].map((j) => [j?.stream, j?.sentence]),
      [[0, 0]],
    );
    // Listener 0's first sentence played at 300 and lasted 0.5 s: its second is due at 800, before listener 1's first (100)? No: 100 first.
    dl.ready(0, 0, 300, 0.5);
    assert.equal(dl.dueMs({ stream: 0, sentence: 1, seq: 1 }), 800);
    assert.deepEqual(
      [dl.take(), dl.take(), dl.take()].map((j) => [j?.stream, j?.sentence]),
      [
        [1, 0],
        [0, 1],
        [1, 1],
      ],
    );
    assert.equal(dl.take(), undefined);
    // Before its first audio a listener cannot start playing earlier than now: at 5000, listener 1's second
    // sentence (first still in flight) is due at 5000 + 2000, after listener 0's second (first played at 300, due 2300).
    const now = new SentenceQueue('deadline', [2, 1]);
    now.arrive(0, 0);
    now.arrive(1, 0);
    now.take(undefined, 0);
    now.take(undefined, 0);
    now.ready(0, 0, 300, 2);
    assert.equal(now.dueMs({ stream: 1, sentence: 1, seq: 3 }, 5000), 7000);
    assert.deepEqual(
      [now.take(undefined, 5000)].map((j) => [j?.stream, j?.sentence]),
      [[0, 1]],
    );
  });
});
