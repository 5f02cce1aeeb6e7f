import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { toError } from '../core/errors.js';
import { WorkerMessageSchema, type ParentMessage, type WorkerMessage } from './messages.js';
import { SabBarrier } from './sab-barrier.js';
import type { SpawnOptions, StreamWorker, WorkerAdapter, WorkerExit } from './worker.js';
import { findTaskset } from './taskset.js';
import type { ThreadTask } from './worker.js';

/** How long a thread is waited for at close before it is let go (it ends with the process). */
const CLOSE_MS = 10_000;

/** `work`, or `fallback` once `ms` have passed; the timer never keeps the process alive. */
async function withinMs<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

class ThreadWorker implements StreamWorker {
  readonly pid = process.pid;
  readonly exited: Promise<WorkerExit>;
  private readonly listeners: Array<(m: WorkerMessage) => void> = [];

  constructor(
    readonly rang: number,
    private readonly port: MessagePort,
    task: Promise<unknown>,
    private readonly stop: { abort: AbortController; barrier: SabBarrier; closeMs: number },
  ) {
    const { abort } = stop;
    // The task's end travels on piscina's channel, the stream's messages on this port: nothing orders
    // the two. The port closes (in the entry's finally, or with the thread) only after its messages are
    // delivered, so the exit is reported after the port's close, or 2 s after the task, whichever first.
    const closed = new Promise<void>((resolve) => port.once('close', () => resolve()));
    const settled: Promise<WorkerExit> = task.then(
      (outcome) => ({ code: outcome === 'done' ? 0 : 1, signal: null }),
      (err: unknown) => ({ code: null, signal: abort.signal.aborted ? 'terminated' : toError(err).message }),
    );
    this.exited = settled.then(async (exit) => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        closed,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, 2000);
        }),
      ]);
      clearTimeout(timer);
      return exit;
    });
    port.on('message', (raw: unknown) => {
      const parsed = WorkerMessageSchema.safeParse(raw);
      const message: WorkerMessage = parsed.success
        ? parsed.data
        : { type: 'failed', message: `thread ${rang} sent a malformed message` };
      for (const l of this.listeners) l(message);
    });
  }

  send(message: ParentMessage): void {
    this.port.postMessage(message);
  }

  onMessage(listener: (message: WorkerMessage) => void): void {
    this.listeners.push(listener);
  }

  async terminate(): Promise<WorkerExit> {
    // A waiter blocked in Atomics.wait wakes on the broken barrier; a running task is stopped with its thread.
    this.stop.barrier.break();
    this.stop.abort.abort();
    // A thread inside native code cannot be stopped until that call returns: never wait on it past the limit.
    const exit = await withinMs(this.exited, this.stop.closeMs, { code: null, signal: 'unresponsive' });
    this.port.close();
    return exit;
  }
}

/**
 * Each stream a worker thread of this process: a piscina pool of exactly K threads per arm, one
 * long task each, meeting on a SharedArrayBuffer barrier.
 */
export class ThreadAdapter implements WorkerAdapter {
  readonly isolation = 'thread' as const;
  readonly selfSynchronized = true;
  private pool: Piscina | undefined;
  private barrier: SabBarrier | undefined;
  private timeouts = { barrierMs: 120_000, loadMs: 180_000 };

  constructor(
    private readonly options: {
      entry: string;
      taskset?: string | null;
      /** How long terminate() and closeArm() wait for a thread (default 10 s); one stuck in native code is let go. */
      closeMs?: number;
    },
  ) {}

  openArm(streams: number, timeouts: { barrierMs: number; loadMs: number }): void {
    this.timeouts = timeouts;
    this.barrier = SabBarrier.create(streams);
    this.pool = new Piscina({
      filename: this.options.entry,
      minThreads: streams,
      maxThreads: streams,
      concurrentTasksPerWorker: 1,
      idleTimeout: 60_000,
      atomics: 'disabled',
    });
  }

  spawn({ rang, core }: SpawnOptions): StreamWorker {
    if (!this.pool || !this.barrier) throw new Error('ThreadAdapter.spawn before openArm');
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    const task: ThreadTask = {
      rang,
      core: core ?? null,
      port: port2,
      barrier: this.barrier.buffer,
      // A backstop only: the parent times the barrier first, and can name the stream that is missing.
      barrierMs: this.timeouts.barrierMs * 2 + 5000,
      loadMs: this.timeouts.loadMs,
      taskset: this.options.taskset === undefined ? (findTaskset() ?? null) : this.options.taskset,
    };
    const run = this.pool.run(task, { transferList: [port2], signal: abort.signal });
    return new ThreadWorker(rang, port1, run, {
      abort,
      barrier: this.barrier,
      closeMs: this.options.closeMs ?? CLOSE_MS,
    });
  }

  async closeArm(): Promise<void> {
    this.barrier?.break();
    const pool = this.pool;
    this.pool = undefined;
    this.barrier = undefined;
    if (pool) await withinMs(pool.destroy(), this.options.closeMs ?? CLOSE_MS, undefined);
  }
}
