/**
 * A stream worker that speaks the real protocol but spins the CPU instead of synthesizing: it
 * measures the harness itself (bench) and drives the barrier and control tests. argv[2] is its
 * mode, argv[3] the milliseconds a pass spins (default 30). Modes:
 * - normal;
 * - never-ready: never says ready for pass 1, and stays alive;
 * - exit-in-pass: exits with code 9 when its first pass starts;
 * - exit-255: exits with code 255 when its first pass starts, as sherpa-onnx does on a fatal error;
 * - extra-thread: a second thread spins beside it in every pass, so it uses more than it declares;
 * - after-others: sleeps two passes' worth, then spins, so it does not run with the others;
 * - late-start: starts every pass 50 ms after the common instant;
 * - starts-late: starts every pass one pass's worth late, then spins flat out (its own window is busy);
 * - zero-audio: reports 0 s of audio;
 * - unreadable-cpu: reports its CPU as unreadable (null).
 */
import { Worker } from 'node:worker_threads';
import { allowedCores, monotonicMs, waitUntil } from '../../measure/clock.js';
import { ParentMessageSchema, type WorkerMessage } from '../../workers/messages.js';

const mode = process.argv[2] ?? 'normal';
const spinMs = Number(process.argv[3] ?? 30);
const send = (m: WorkerMessage): void => void process.send?.(m);
let init: { warmup: number; passes: number } | undefined;
let pass = 0;
const helper =
  mode === 'extra-thread'
    ? new Worker(
        `const { parentPort } = require('node:worker_threads');
      parentPort.on('message', (ms) => { const t = performance.now(); while (performance.now() - t < ms) {} });`,
        { eval: true },
      )
    : undefined;
helper?.unref();

function spin(ms: number): void {
  const t = monotonicMs();
  while (monotonicMs() - t < ms) {
    // busy: a pass
  }
}

function ready(): void {
  if (!init) return;
  if (pass >= init.warmup + init.passes) {
    process.disconnect?.();
    return;
  }
  if (mode === 'never-ready' && pass === 1) return; // stays alive, never arrives
  send({ type: 'ready', pass });
}

process.on('message', async (raw: unknown) => {
  const m = ParentMessageSchema.parse(raw);
  if (m.type === 'init') {
    init = m;
    send({
      type: 'loaded',
      pid: process.pid,
      cores: allowedCores('/proc/self/status'),
      loadSeconds: 0,
      phonemizeSeconds: 0,
      sentences: 1,
      missingPhonemes: {},
    });
    ready();
    return;
  }
  if (m.type !== 'start') return;
  await waitUntil(m.atMs + (mode === 'late-start' ? 50 : mode === 'starts-late' ? spinMs : 0));
  const t0 = monotonicMs();
  if (mode === 'exit-in-pass') process.exit(9);
  if (mode === 'exit-255') process.exit(255);
  const cpu0 = process.cpuUsage();
  if (mode === 'after-others') await new Promise((r) => setTimeout(r, 2 * spinMs));
  helper?.postMessage(spinMs);
  spin(spinMs);
  const cpu = process.cpuUsage(cpu0);
  const t1 = monotonicMs();
  send({
    type: 'pass',
    pass,
    warmup: pass < (init?.warmup ?? 0),
    computeSeconds: (t1 - t0) / 1000,
    inferenceSeconds: (t1 - t0) / 1000,
    audioSeconds: mode === 'zero-audio' ? 0 : 0.3,
    cpuSeconds: mode === 'unreadable-cpu' ? null : (cpu.user + cpu.system) / 1e6,
    startMs: t0,
    endMs: t1,
  });
  pass += 1;
  ready();
});
setInterval(() => undefined, 60_000).unref();
process.on('disconnect', () => process.exit(0));
