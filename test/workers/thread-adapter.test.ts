import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { ThreadAdapter } from '../../lib/workers/thread-adapter.js';
import { MESSAGES } from '../fixtures/chatty-thread.js';

const CHATTY = fileURLToPath(new URL('../fixtures/chatty-thread.js', import.meta.url));
const STUCK = fileURLToPath(new URL('../fixtures/native-stuck-thread.js', import.meta.url));

describe('thread adapter', () => {
  it("reports a thread stream's end only after every message it sent has arrived", async () => {
    for (let round = 0; round < 5; round += 1) {
      const adapter = new ThreadAdapter({ entry: CHATTY, taskset: null });
      adapter.openArm(2, { barrierMs: 10_000, loadMs: 10_000 });
      const workers = [0, 1].map((rang) => adapter.spawn({ rang, core: undefined }));
      const counts = workers.map(() => 0);
      workers.forEach((w, i) =>
        w.onMessage(() => {
          counts[i] = (counts[i] ?? 0) + 1;
        }),
      );
      const exits = await Promise.all(
        workers.map(async (w, i) => {
          const exit = await w.exited;
          return { exit, seen: counts[i] };
        }),
      );
      for (const e of exits) {
        assert.deepEqual(e.exit, { code: 0, signal: null });
        assert.equal(e.seen, MESSAGES);
      }
      await adapter.closeArm();
    }
  });

  it('a thread stuck in native code does not hang terminate() or closeArm(): each gives up after its limit', async () => {
    const adapter = new ThreadAdapter({ entry: STUCK, taskset: null, closeMs: 300 });
    adapter.openArm(1, { barrierMs: 10_000, loadMs: 10_000 });
    const w = adapter.spawn({ rang: 0, core: undefined });
    await new Promise<void>((resolve) => w.onMessage(() => resolve()));
    const t0 = performance.now();
    const exit = await w.terminate();
    await adapter.closeArm();
    // Far below the four seconds the thread is stuck for: the limits held.
    assert.ok(performance.now() - t0 < 2500, `took ${performance.now() - t0} ms`);
    // piscina ends the aborted task at once ('terminated'); a thread that stays is let go ('unresponsive').
    assert.equal(exit.code, null);
    assert.ok(exit.signal === 'terminated' || exit.signal === 'unresponsive', String(exit.signal));
  });

  it('closeArm() with a thread still stuck in native code (never terminated) gives up after its limit', async () => {
    const adapter = new ThreadAdapter({ entry: STUCK, taskset: null, closeMs: 300 });
    adapter.openArm(1, { barrierMs: 10_000, loadMs: 10_000 });
    const w = adapter.spawn({ rang: 0, core: undefined });
    await new Promise<void>((resolve) => w.onMessage(() => resolve()));
    const t0 = performance.now();
    await adapter.closeArm();
    assert.ok(performance.now() - t0 < 2500, `closeArm took ${Math.round(performance.now() - t0)} ms`);
  });
});
