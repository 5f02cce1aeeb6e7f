// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServingPool } from '../../../lib/capacity/worker/pool.js';
import { VirtualTimers } from '../../../lib/capacity/trial/timers.js';
import type { WorkerMessage } from '../../../lib/workers/messages.js';
import { FakeMachine } from '../fake-machine.js';

const init = {
  voice: { name: 'fake', onnxPath: '/nonexistent.onnx', config: {} },
  threads: 1,
  prepared: { sentences: [], phonemizeSeconds: 0, missingPhonemes: {} },
  warmup: 1,
  passes: 1,
} as unknown as ConstructorParameters<typeof ServingPool>[0]['init'];

describe('the serving pool of a turn', () => {
  it('a process pool grows to what a trial needs and keeps its extras idle; a trial sees only its first K', async () => {
    const machine = new FakeMachine(new VirtualTimers(0), {
      cores: 2,
      speed: 1,
      audioSeconds: [1],
      failJob: { n: 1, message: 'idle worker gone' },
    });
    const pool = new ServingPool({
      adapter: machine.adapter('process'),
      init,
      coreOf: () => undefined,
      loadMs: 10_000,
      graceMs: 100,
    });
    await pool.atLeast(3);
    await pool.atLeast(1);
    assert.deepEqual([machine.spawned, pool.count], [3, 3]);
    const view = pool.first(1);
    assert.equal(view.count, 1);
    const seen: Array<[number, WorkerMessage['type']]> = [];
    const stop = view.listen((w, m) => seen.push([w, m.type]));
    // A job for a worker beyond the view is dropped; a failure of any worker gets through.
    view.send(2, { id: 0, sentence: 0 });
    await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(seen, []);
    // The machine's first job fails its worker: worker 2's failure reaches the view of worker 0 only.
    pool.send(2, { id: 1, sentence: 0 });
    await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(seen, [[2, 'failed']]);
    await pool.atLeast(4);
    assert.deepEqual([machine.spawned, pool.count], [4, 4]);
    stop();
    await pool.close();
    assert.equal(pool.count, 0);
  });

  it('a thread pool is made anew at each size', async () => {
    const machine = new FakeMachine(new VirtualTimers(0), { cores: 2, speed: 1, audioSeconds: [1] });
    const pool = new ServingPool({
      adapter: machine.adapter('thread'),
      init,
      coreOf: () => undefined,
      loadMs: 10_000,
      graceMs: 100,
    });
    await pool.atLeast(2);
    await pool.atLeast(1);
    assert.deepEqual([machine.spawned, pool.count], [3, 1]);
    await pool.close();
  });

  it('a spawn that throws part-way through a resize leaves no worker behind: the ones started are reaped', async () => {
    const machine = new FakeMachine(new VirtualTimers(0), { cores: 2, speed: 1, audioSeconds: [1] });
    const inner = machine.adapter('process');
    const started: Array<ReturnType<typeof inner.spawn>> = [];
    let calls = 0;
    const adapter = {
      isolation: 'process' as const,
      spawn: (o: Parameters<typeof inner.spawn>[0]) => {
        calls += 1;
        if (calls === 3) throw new Error('EAGAIN: no more processes');
        const w = inner.spawn(o);
        started.push(w);
        return w;
      },
    };
    const pool = new ServingPool({ adapter, init, coreOf: () => undefined, loadMs: 10_000, graceMs: 100 });
    await assert.rejects(pool.resize(4), /EAGAIN: no more processes/);
    assert.equal(started.length, 2);
    const exits = await Promise.all(
      started.map((w) => Promise.race([w.exited, new Promise((r) => setTimeout(() => r('alive'), 2000))])),
    );
    assert.ok(
      exits.every((e) => e !== 'alive'),
      'every worker started before the failure was reaped',
    );
    assert.equal(pool.count, 0);
  });

  it(
    'Ctrl-C while workers load: the resize ends at once with ABORTED and reaps them, not after the load timeout',
    { timeout: 20_000 },
    async () => {
      let exited = 0;
      // Workers that never say they loaded, as a voice stuck loading for minutes.
      const adapter = {
        isolation: 'process' as const,
        spawn: (o: { rang: number }) => {
          let markExited: (x: { code: number; signal: null }) => void = () => undefined;
          const exitedP = new Promise<{ code: number; signal: null }>((r) => (markExited = r));
          return {
            rang: o.rang,
            pid: undefined,
            exited: exitedP,
            send: () => undefined,
            onMessage: () => undefined,
            terminate: () => {
              exited += 1;
              markExited({ code: 0, signal: null });
              return exitedP;
            },
          };
        },
      };
      const controller = new AbortController();
      const pool = new ServingPool({
        adapter,
        init,
        coreOf: () => undefined,
        // An hour: the test's own timeout would end first if the abort were not heard.
        loadMs: 3_600_000,
        graceMs: 100,
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(), 20);
      await assert.rejects(pool.resize(2), { code: 'ABORTED', message: 'interrupted while workers loaded' });
      assert.deepEqual([exited, pool.count], [2, 0]);
    },
  );
});
