import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { ProcessAdapter } from '../../lib/run/adapters/process.js';
import { DEFAULT_TIMEOUTS, runArmWorkers } from '../../lib/run/arm.js';
import type { StreamWorker, WorkerAdapter } from '../../lib/run/worker.js';

const FAKE = fileURLToPath(new URL('../../lib/run/entry/spin-stream.js', import.meta.url));
const init = { voice: { name: 'fake', onnxPath: '/nonexistent', config: { audio: { sample_rate: 22050 }, espeak: { voice: 'fr' }, inference: { noise_scale: 0, length_scale: 1, noise_w: 0 }, phoneme_id_map: { _: [0] }, num_symbols: 1, num_speakers: 1 } }, threads: 1, lines: ['x'], warmup: 1, passes: 3 };

/** Wraps the process adapter to remember every worker it started, so tests can check they are gone. */
function tracking(modes: (rang: number) => string): { adapter: WorkerAdapter; workers: StreamWorker[] } {
  const inner = new ProcessAdapter({ entry: FAKE, args: (rang) => [modes(rang)] });
  const workers: StreamWorker[] = [];
  return {
    workers,
    adapter: { isolation: 'process', spawn: (o) => { const w = inner.spawn(o); workers.push(w); return w; } },
  };
}

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the barrier with real child processes', () => {
  it('releases every pass together and records skew', async () => {
    const { adapter, workers } = tracking(() => 'normal');
    const run = await runArmWorkers({ adapter, streams: 2, cores: [undefined, undefined], init, timeouts: { ...DEFAULT_TIMEOUTS, barrierMs: 10_000 } });
    assert.equal(run.state, 'done', run.message);
    assert.equal(run.sync.length, 4);
    assert.deepEqual(run.sync.map((s) => s.warmup), [true, false, false, false]);
    for (const s of run.sync) {
      assert.equal(s.startsMs.length, 2);
      // Nobody starts before the common instant.
      for (const t of s.startsMs) assert.ok(t >= s.atMs);
      assert.equal(s.skewMs, Math.max(...s.startsMs) - Math.min(...s.startsMs));
    }
    assert.equal(run.children[0]?.passes.length, 4);
    assert.ok(workers.every((w) => !alive(w.pid)));
  });

  it('a child that never arrives breaks the barrier: the arm fails naming it, nothing hangs, all are reaped', async () => {
    const { adapter, workers } = tracking((rang) => (rang === 1 ? 'never-ready' : 'normal'));
    const t0 = Date.now();
    const run = await runArmWorkers({ adapter, streams: 2, cores: [undefined, undefined], init, timeouts: { ...DEFAULT_TIMEOUTS, barrierMs: 1500, graceMs: 500 } });
    assert.equal(run.state, 'timed-out');
    assert.match(run.message ?? '', /at the barrier of pass 1: no answer within 2 s from stream 1 \(pid \d+\)/);
    assert.ok(Date.now() - t0 < 15_000);
    await Promise.all(workers.map((w) => w.exited));
    assert.ok(workers.every((w) => !alive(w.pid)));
  });

  it('a child that dies during a pass fails the arm with its exit code', async () => {
    const { adapter, workers } = tracking((rang) => (rang === 0 ? 'exit-in-pass' : 'normal'));
    const run = await runArmWorkers({ adapter, streams: 2, cores: [undefined, undefined], init, timeouts: { ...DEFAULT_TIMEOUTS, barrierMs: 5000, graceMs: 500 } });
    assert.equal(run.state, 'failed');
    assert.match(run.message ?? '', /stream 0 \(pid \d+\) exited with code 9 during pass 0/);
    assert.ok(workers.every((w) => !alive(w.pid)));
  });

  it('an abort stops the arm and reaps the children', async () => {
    const { adapter, workers } = tracking((rang) => (rang === 1 ? 'never-ready' : 'normal'));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const run = await runArmWorkers({ adapter, streams: 2, cores: [undefined, undefined], init, timeouts: { ...DEFAULT_TIMEOUTS, graceMs: 500 }, signal: controller.signal });
    assert.equal(run.state, 'aborted');
    assert.ok(workers.every((w) => !alive(w.pid)));
  });

  it('pinned children start under taskset and see their one core', { skip: !new ProcessAdapter() && 'never' }, async () => {
    const { findTaskset } = await import('../../lib/run/adapters/process.js');
    if (!findTaskset()) return;
    const { spawnSync } = await import('node:child_process');
    const out = spawnSync(findTaskset() as string, ['-c', '0', process.execPath, '-e', "console.log(require('fs').readFileSync('/proc/self/status','utf8').match(/Cpus_allowed_list:\\s*(\\S+)/)[1])"], { encoding: 'utf8' });
    assert.equal(out.stdout.trim(), '0');
  });
});

describe('affinity without taskset', () => {
  it('fails the arm with a one-line error that names the fix, and starts nothing', async () => {
    const adapter = new ProcessAdapter({ entry: FAKE, args: () => ['normal'], taskset: null });
    const run = await runArmWorkers({ adapter, streams: 2, cores: [0, 1], init, timeouts: { ...DEFAULT_TIMEOUTS, barrierMs: 5000 } });
    assert.equal(run.state, 'failed');
    assert.match(run.message ?? '', /affinity was requested but util-linux taskset is not installed; install util-linux or use --affinity off/);
    assert.equal(run.children.length, 0);
  });
});
