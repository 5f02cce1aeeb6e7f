import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { SabBarrier } from '../../lib/workers/sab-barrier.js';

const WORKER = new URL('../fixtures/barrier-worker.js', import.meta.url);
type Report = { kind: 'released' | 'error' | 'stopped'; round: number; at?: number; message?: string };

function start(
  barrier: SabBarrier,
  data: { rounds: number; timeoutMs: number; skip?: number },
): { reports: Report[]; done: Promise<void>; worker: Worker } {
  const reports: Report[] = [];
  const worker = new Worker(WORKER, { workerData: { buffer: barrier.buffer, ...data } });
  worker.on('message', (m: Report) => reports.push(m));
  const done = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return { reports, done, worker };
}

describe('SharedArrayBuffer barrier with real worker threads', () => {
  it('releases nobody until all arrive, then all, round after round (generations)', async () => {
    const barrier = SabBarrier.create(3);
    const ws = [0, 1, 2].map(() => start(barrier, { rounds: 5, timeoutMs: 10_000 }));
    await Promise.all(ws.map((w) => w.done));
    for (const w of ws)
      assert.deepEqual(
        w.reports.map((r) => `${r.kind}${r.round}`),
        ['released0', 'released1', 'released2', 'released3', 'released4'],
      );
    assert.equal(barrier.broken, false);
  });

  it('a waiter whose partner never comes times out and breaks the barrier', async () => {
    const barrier = SabBarrier.create(2);
    const t0 = Date.now();
    const w = start(barrier, { rounds: 1, timeoutMs: 300 });
    await w.done;
    assert.equal(w.reports[0]?.kind, 'error');
    assert.match(w.reports[0]?.message ?? '', /timed out/);
    assert.ok(Date.now() - t0 < 5000);
    assert.equal(barrier.broken, true);
  });

  it('a stream that leaves after round 1 breaks it for the others at their timeout, nobody hangs', async () => {
    const barrier = SabBarrier.create(3);
    // The first waiter's 3 s must outlast three threads starting on a loaded 2-core machine; it only runs out in round 1.
    const ws = [
      start(barrier, { rounds: 3, timeoutMs: 3000 }),
      start(barrier, { rounds: 3, timeoutMs: 20_000 }),
      start(barrier, { rounds: 3, timeoutMs: 20_000, skip: 1 }),
    ];
    await Promise.all(ws.map((w) => w.done));
    // Round 0 released everyone; in round 1 the first times out and the second is released with an error.
    for (const w of ws.slice(0, 2)) {
      assert.equal(w.reports[0]?.kind, 'released');
      assert.equal(w.reports[1]?.kind, 'error');
    }
    assert.match(ws[1]!.reports[1]!.message ?? '', /broken/);
  });

  it('breaking it from the main thread releases every waiter with an error at once', async () => {
    const barrier = SabBarrier.create(3);
    const ws = [start(barrier, { rounds: 1, timeoutMs: 60_000 }), start(barrier, { rounds: 1, timeoutMs: 60_000 })];
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    barrier.break();
    await Promise.all(ws.map((w) => w.done));
    assert.ok(Date.now() - t0 < 5000);
    for (const w of ws) assert.match(w.reports[0]?.message ?? '', /broken/);
  });
});
