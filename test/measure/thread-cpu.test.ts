import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { currentTid, parseSchedstat, processTids, threadsCpuSeconds } from '../../lib/measure/thread-cpu.js';

describe('per-thread CPU from /proc schedstat', () => {
  it('parses the first field (ns on CPU) and sums threads through an injected reader', () => {
    assert.equal(parseSchedstat('123456789 5000 7\n'), 123456789);
    assert.throws(() => parseSchedstat('x y z'), /not a schedstat line/);
    const files: Record<string, string> = {
      '/proc/self/task/10/schedstat': '1500000000 0 0',
      '/proc/self/task/11/schedstat': '500000000 0 0',
    };
    assert.equal(
      threadsCpuSeconds([10, 11, 12], (p) => {
        const t = files[p];
        if (t === undefined) throw new Error('gone');
        return t;
      }),
      2,
    );
  });

  it('unknown stays unknown: a stream thread whose schedstat is missing or all zero reads null, never 0 s', () => {
    const files: Record<string, string> = {
      '/proc/self/task/10/schedstat': '0 0 0',
      '/proc/self/task/11/schedstat': '500000000 0 0',
    };
    const read = (p: string): string => {
      const t = files[p];
      if (t === undefined) throw new Error('ENOENT');
      return t;
    };
    assert.equal(threadsCpuSeconds([10, 11], read), null);
    assert.equal(threadsCpuSeconds([12, 11], read), null);
    assert.equal(threadsCpuSeconds([], read), null);
    // A pool thread that ended counts as 0; the stream's own thread decides.
    assert.equal(threadsCpuSeconds([11, 12], read), 0.5);
  });

  it(
    'a busy thread accrues CPU, an idle one does not',
    { skip: process.platform !== 'linux' && 'Linux /proc only' },
    async () => {
      const me = currentTid();
      assert.ok(processTids().includes(me));
      const code = `const { parentPort } = require('node:worker_threads');
      const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
      parentPort.postMessage(tid);
      const cpu = () => Number(require('node:fs').readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e9;
      // Spin until this thread itself has used the CPU asked for, however loaded the machine is (20 s at most).
      parentPort.once('message', (s) => { const c0 = cpu(); const t = Date.now(); while (cpu() - c0 < s && Date.now() - t < 20000) {} parentPort.postMessage('done'); });`;
      const busy = new Worker(code, { eval: true });
      const idle = new Worker(code, { eval: true });
      const tidOf = (w: Worker) => new Promise<number>((r) => w.once('message', r));
      const [busyTid, idleTid] = await Promise.all([tidOf(busy), tidOf(idle)]);
      const before = [threadsCpuSeconds([busyTid]), threadsCpuSeconds([idleTid])];
      busy.postMessage(0.3);
      await new Promise((r) => busy.once('message', r));
      const after = [threadsCpuSeconds([busyTid]), threadsCpuSeconds([idleTid])];
      // The parent must see the busy thread's 0.3 s under its own id, and next to nothing under the idle one.
      assert.ok(after[0]! - before[0]! >= 0.3, `busy thread ${after[0]! - before[0]!} s`);
      assert.ok(after[1]! - before[1]! < 0.05, `idle thread ${after[1]! - before[1]!} s`);
      await Promise.all([busy.terminate(), idle.terminate()]);
    },
  );
});
