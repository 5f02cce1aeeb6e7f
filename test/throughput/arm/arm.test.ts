import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { allowedCores } from '../../../lib/measure/clock.js';
import { findTaskset, ProcessAdapter } from '../../../lib/workers/process-adapter.js';
import { armRecord } from '../../../lib/throughput/arm/record.js';
import { DEFAULT_TIMEOUTS, runArmWorkers } from '../../../lib/throughput/arm/arm.js';
import type { StreamWorker, WorkerAdapter } from '../../../lib/workers/worker.js';
import { alive } from '../../helpers/alive.js';

const FAKE = fileURLToPath(new URL('../../../lib/throughput/worker/spin-stream.js', import.meta.url));
const init = {
  voice: {
    name: 'fake',
    onnxPath: '/nonexistent',
    config: {
      audio: { sample_rate: 22050 },
      espeak: { voice: 'fr' },
      inference: { noise_scale: 0, length_scale: 1, noise_w: 0 },
      phoneme_id_map: { _: [0] },
      num_symbols: 1,
      num_speakers: 1,
    },
  },
  threads: 1,
  prepared: {
    sentences: [{ text: 'x', phonemes: ['x'], ids: [1, 0, 2], phonemizeSeconds: 0 }],
    phonemizeSeconds: 0,
    missingPhonemes: {},
  },
  warmup: 1,
  passes: 3,
};

/** Wraps the process adapter to remember every worker it started, so tests can check they are gone. */
function tracking(modes: (rang: number) => string): { adapter: WorkerAdapter; workers: StreamWorker[] } {
  const inner = new ProcessAdapter({ entry: FAKE, args: (rang) => [modes(rang)] });
  const workers: StreamWorker[] = [];
  return {
    workers,
    adapter: {
      isolation: 'process',
      spawn: (o) => {
        const w = inner.spawn(o);
        workers.push(w);
        return w;
      },
    },
  };
}

describe('the barrier with real child processes', () => {
  it('releases every pass together and records skew', async () => {
    const { adapter, workers } = tracking(() => 'normal');
    const run = await runArmWorkers({
      adapter,
      streams: 2,
      cores: [undefined, undefined],
      init,
      timeouts: { ...DEFAULT_TIMEOUTS, barrierMs: 10_000 },
    });
    assert.equal(run.state, 'done', run.message);
    assert.equal(run.sync.length, 4);
    assert.deepEqual(
      run.sync.map((s) => s.warmup),
      [true, false, false, false],
    );
    for (const s of run.sync) {
      assert.equal(s.startsMs.length, 2);
      // Nobody starts before the common instant.
      for (const t of s.startsMs) assert.ok(t >= s.atMs);
      assert.equal(s.skewMs, Math.max(...s.startsMs) - Math.min(...s.startsMs));
    }
    assert.equal(run.children[0]?.passes.length, 4);
    assert.ok(workers.every((w) => !alive(w.pid)));
  });

  it('a sherpa-onnx stream that ends with exit code 255 fails the arm with what that means and how to check the voice', async () => {
    const sherpaVoice = {
      name: 'v',
      dir: '/cache/v',
      model: '/cache/v/model.onnx',
      tokens: '/cache/v/tokens.txt',
      dataDir: '/cache/e',
      provider: 'cpu',
      sampleRate: 22050,
      numSpeakers: 1,
      noiseScale: 0,
      noiseScaleW: 0,
      lengthScale: 1,
    };
    const sherpa = await runArmWorkers({
      adapter: tracking(() => 'exit-255').adapter,
      streams: 1,
      cores: [undefined],
      init: { ...init, engine: { kind: 'sherpa', voice: sherpaVoice } },
      timeouts: DEFAULT_TIMEOUTS,
    });
    assert.equal(sherpa.state, 'failed');
    assert.match(
      sherpa.message ?? '',
      /^stream 0 \(pid \d+\) exited with code 255 .*; sherpa-onnx ends its process so on a fatal error \(its message is above\); check the voice with `piper-parallel synth --engine sherpa --voice v`, or delete \/cache\/v to have it made anew$/,
    );
    // The same exit from an onnxruntime stream says nothing of sherpa-onnx.
    const ort = await runArmWorkers({
      adapter: tracking(() => 'exit-255').adapter,
      streams: 1,
      cores: [undefined],
      init,
      timeouts: DEFAULT_TIMEOUTS,
    });
    assert.match(ort.message ?? '', /exited with code 255 .*something killed it or it crashed/);
  });

  it('a child that never arrives breaks the barrier: the arm fails naming it, nothing hangs, all are reaped', async () => {
    const { adapter, workers } = tracking((rang) => (rang === 1 ? 'never-ready' : 'normal'));
    const t0 = Date.now();
    const run = await runArmWorkers({
      adapter,
      streams: 2,
      cores: [undefined, undefined],
      init,
      timeouts: { ...DEFAULT_TIMEOUTS, barrierMs: 1500, graceMs: 500 },
    });
    assert.equal(run.state, 'timed-out');
    assert.match(run.message ?? '', /at the barrier of pass 1: no answer within 2 s from stream 1 \(pid \d+\)/);
    assert.ok(Date.now() - t0 < 15_000);
    await Promise.all(workers.map((w) => w.exited));
    assert.ok(workers.every((w) => !alive(w.pid)));
  });

  it('a child that dies during a pass fails the arm with its exit code', async () => {
    const { adapter, workers } = tracking((rang) => (rang === 0 ? 'exit-in-pass' : 'normal'));
    const run = await runArmWorkers({
      adapter,
      streams: 2,
      cores: [undefined, undefined],
      init,
      timeouts: { ...DEFAULT_TIMEOUTS, barrierMs: 5000, graceMs: 500 },
    });
    assert.equal(run.state, 'failed');
    assert.match(run.message ?? '', /stream 0 \(pid \d+\) exited with code 9 during pass 0/);
    assert.ok(workers.every((w) => !alive(w.pid)));
  });

  it('an abort stops the arm and reaps the children', async () => {
    const { adapter, workers } = tracking((rang) => (rang === 1 ? 'never-ready' : 'normal'));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const run = await runArmWorkers({
      adapter,
      streams: 2,
      cores: [undefined, undefined],
      init,
      timeouts: { ...DEFAULT_TIMEOUTS, graceMs: 500 },
      signal: controller.signal,
    });
    assert.equal(run.state, 'aborted');
    assert.ok(workers.every((w) => !alive(w.pid)));
  });

  it("reads the machine's CPU around every timed pass only, naming the live stream processes", async () => {
    const { adapter, workers } = tracking(() => 'normal');
    const calls: number[][] = [];
    let ms = 0;
    const cpuSampler = {
      snapshot: (pids: readonly number[] = []) => {
        calls.push([...pids]);
        ms += 100;
        return { systemBusyTicks: ms, ownTicks: ms, atMs: ms };
      },
    };
    const run = await runArmWorkers({
      adapter,
      streams: 2,
      cores: [undefined, undefined],
      init,
      timeouts: { ...DEFAULT_TIMEOUTS, barrierMs: 10_000 },
      cpuSampler,
    });
    assert.equal(run.state, 'done', run.message);
    // 1 warm-up pass and 3 timed ones: two readings per timed pass, none for the warm-up.
    assert.equal(calls.length, 6);
    assert.equal(run.timedCpu.length, 3);
    for (const pids of calls)
      assert.deepEqual(
        pids,
        workers.map((w) => w.pid),
      );
  });
});

const HAS_TASKSET = findTaskset() !== undefined && allowedCores().length >= 2;
const NO_TASKSET = !HAS_TASKSET && 'needs util-linux taskset and 2 usable cores';
/** 400 ms passes: long enough that 2% of one (8 ms) is well above the barrier's own skew. */
const controlInit = { ...init, warmup: 1, passes: 3 };

/** Real spin processes through the process adapter, `modes(rang)` each, turned into an archived arm. */
async function controlArm(o: {
  streams: number;
  modes?: (rang: number) => string;
  cores?: Array<number | undefined>;
  adapter?: WorkerAdapter;
  pinned?: boolean;
}) {
  const adapter =
    o.adapter ?? new ProcessAdapter({ entry: FAKE, args: (rang) => [o.modes?.(rang) ?? 'normal', '400'] });
  const cores = o.cores ?? Array.from({ length: o.streams }, () => undefined);
  const run = await runArmWorkers({
    adapter,
    streams: o.streams,
    cores,
    init: controlInit,
    timeouts: { ...DEFAULT_TIMEOUTS, barrierMs: 20_000 },
  });
  assert.equal(run.state, 'done', run.message);
  const arm = armRecord(run, {
    voice: { name: 'spin', synthetic: true, sha256: 'x' },
    condition: { flux: o.streams, fils: 1, affinite: o.pinned ?? false, isolation: 'process' },
    allCores: allowedCores(),
  });
  return (name: string) => arm.controles.find((c) => c.name === name);
}

describe('every control, provoked for real through stream processes', () => {
  it('a normal K=2 run holds cpu_max, cpu_sum, affinity and start_skew', async () => {
    const control = await controlArm({ streams: 2 });
    for (const name of ['cpu_max', 'cpu_sum', 'affinity', 'start_skew', 'overlap'])
      assert.equal(control(name)?.held, true, control(name)?.message ?? name);
  });

  it('overlap fails when a stream starts a pass late and then spins flat out, which cpu_sum cannot see', async () => {
    const c = await controlArm({ streams: 2, modes: (rang) => (rang === 1 ? 'starts-late' : 'normal') });
    // Each stream was busy over its own window, so cpu_sum holds; the windows barely meet.
    assert.equal(c('cpu_sum')?.held, true, c('cpu_sum')?.message);
    assert.equal(c('overlap')?.held, false, c('overlap')?.message);
    assert.ok((c('overlap')?.measured ?? 100) < 25, c('overlap')?.message);
    assert.match(
      c('overlap')?.message ?? '',
      /under the 75% limit by [\d.]+ points: a stream ran apart from the others/,
    );
  });

  it('cpu_max fails when a stream declared single-threaded spins a second thread', async () => {
    const c = await controlArm({ streams: 1, modes: () => 'extra-thread' });
    assert.equal(c('cpu_max')?.held, false);
    assert.ok((c('cpu_max')?.measured ?? 0) > 150, c('cpu_max')?.message);
  });

  it('cpu_sum fails when the streams do not overlap', async () => {
    const c = await controlArm({ streams: 2, modes: (rang) => (rang === 1 ? 'after-others' : 'normal') });
    assert.equal(c('cpu_sum')?.held, false, c('cpu_sum')?.message);
    // One stream at about 100%, the other at about a third: well short of 150%.
    assert.ok((c('cpu_sum')?.measured ?? 999) < 145, c('cpu_sum')?.message);
  });

  it('start_skew fails when one stream starts 50 ms late', async () => {
    const c = await controlArm({ streams: 2, modes: (rang) => (rang === 1 ? 'late-start' : 'normal') });
    assert.equal(c('start_skew')?.held, false);
    assert.ok((c('start_skew')?.measured ?? 0) >= 45, c('start_skew')?.message);
  });

  it('pinned process streams run on distinct cores, seen from inside each', { skip: NO_TASKSET }, async () => {
    const c = await controlArm({ streams: 2, cores: [0, 1].map((i) => allowedCores()[i]), pinned: true });
    assert.equal(c('affinity')?.held, true, c('affinity')?.message);
    assert.equal(c('affinity')?.measured, 2);
  });

  it('affinity fails when two pinned streams land on one core', { skip: NO_TASKSET }, async () => {
    const inner = new ProcessAdapter({ entry: FAKE, args: () => ['normal', '400'] });
    const first = allowedCores()[0];
    // The test adapter pins every stream to the first core, whatever it was asked.
    const adapter: WorkerAdapter = { isolation: 'process', spawn: (o) => inner.spawn({ ...o, core: first }) };
    const c = await controlArm({ streams: 2, cores: [0, 1].map((i) => allowedCores()[i]), adapter, pinned: true });
    assert.equal(c('affinity')?.held, false);
    assert.equal(c('affinity')?.measured, 1);
    assert.match(c('affinity')?.message ?? '', /pinning did not hold: streams saw \[(\d+)\] \[\1\]/);
  });
});

describe('stopping streams', () => {
  it('a stream that ignores SIGTERM is killed with SIGKILL after the grace period, and reaped', async () => {
    const adapter = new ProcessAdapter({
      entry: fileURLToPath(new URL('../../fixtures/stubborn-stream.js', import.meta.url)),
    });
    const w = adapter.spawn({ rang: 0, core: undefined });
    // Wait until it runs (its SIGTERM handler is in place), from its own word.
    // (Its word is not a protocol message, so the adapter passes it on as a malformed one: any will do.)
    await new Promise<void>((resolve) => w.onMessage(() => resolve()));
    const t0 = Date.now();
    // Bounded here too: without the SIGKILL the stream would never end, and this test must not hang.
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([
      w.terminate(400),
      new Promise<'hung'>((r) => {
        timer = setTimeout(() => r('hung'), 10_000);
      }),
    ]);
    clearTimeout(timer);
    if (exit === 'hung') process.kill(w.pid as number, 'SIGKILL');
    if (exit === 'hung') assert.fail('the stream was still alive 10 s after terminate(400)');
    assert.equal(exit.signal, 'SIGKILL');
    assert.ok(Date.now() - t0 >= 390, `killed after ${Date.now() - t0} ms`);
    assert.equal(alive(w.pid), false);
  });

  it('a pass that runs past its timeout fails the arm as timed-out, naming the stream', async () => {
    const adapter = new ProcessAdapter({ entry: FAKE, args: () => ['normal', '3000'] });
    const run = await runArmWorkers({
      adapter,
      streams: 1,
      cores: [undefined],
      init: { ...init, warmup: 0, passes: 1 },
      timeouts: { ...DEFAULT_TIMEOUTS, passMs: 500, graceMs: 200 },
    });
    assert.equal(run.state, 'timed-out');
    assert.match(run.message ?? '', /^during pass 0: no answer within 1 s from stream 0 \(pid \d+\)/);
    assert.ok(run.wallSeconds < 3, `${run.wallSeconds} s`);
  });
});

describe('affinity without taskset', () => {
  it('fails the arm with a one-line error that names the fix, and starts nothing', async () => {
    const adapter = new ProcessAdapter({ entry: FAKE, args: () => ['normal'], taskset: null });
    const run = await runArmWorkers({
      adapter,
      streams: 2,
      cores: [0, 1],
      init,
      timeouts: { ...DEFAULT_TIMEOUTS, barrierMs: 5000 },
    });
    assert.equal(run.state, 'failed');
    assert.match(
      run.message ?? '',
      /affinity was requested but util-linux taskset is not installed; install util-linux or use --affinity off/,
    );
    assert.equal(run.children.length, 0);
  });
});
