/**
 * The serving workers of one layout, kept across the trials of a turn: grown (new workers load and
 * warm before the next trial) to the count a trial needs; a process pool keeps its extras idle, a
 * thread pool is made anew at each size, as piscina's pool size is fixed.
 */
import { PiperParallelError } from '../../core/errors.js';
import type { InitMessage, WorkerMessage } from '../../workers/messages.js';
import type { StreamWorker, WorkerAdapter } from '../../workers/worker.js';
import type { TrialWorkers } from '../trial/trial.js';

export interface PoolOptions {
  adapter: WorkerAdapter;
  init: Omit<InitMessage, 'type' | 'rang'>;
  /** The core worker `i` is pinned to, or undefined (free). */
  coreOf: (i: number) => number | undefined;
  loadMs: number;
  graceMs: number;
  /** Ctrl-C: a load (up to `loadMs`) is not waited out; the workers are reaped and the resize throws ABORTED. */
  signal?: AbortSignal;
}

export class ServingPool implements TrialWorkers {
  private workers: StreamWorker[] = [];
  private readonly listeners = new Set<(worker: number, message: WorkerMessage) => void>();
  private closing = new Set<StreamWorker>();

  constructor(private readonly o: PoolOptions) {}

  get count(): number {
    return this.workers.length;
  }

  pids(): number[] {
    return this.workers.map((w) => w.pid).filter((p): p is number => p !== undefined);
  }

  send(worker: number, job: { id: number; sentence: number }): void {
    this.workers[worker]?.send({ type: 'job', ...job });
  }

  listen(fn: (worker: number, message: WorkerMessage) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(w: StreamWorker, message: WorkerMessage): void {
    const i = this.workers.indexOf(w);
    if (i >= 0) for (const l of this.listeners) l(i, message);
  }

  private start(rang: number): { worker: StreamWorker; loaded: Promise<void> } {
    const worker = this.o.adapter.spawn({ rang, core: this.o.coreOf(rang) });
    const loaded = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new PiperParallelError(
              'TIMEOUT',
              `capacity worker ${rang} did not load within ${Math.round(this.o.loadMs / 1000)} s`,
            ),
          ),
        this.o.loadMs,
      );
      worker.onMessage((m) => {
        if (m.type === 'loaded') {
          clearTimeout(timer);
          resolve();
        } else if (m.type === 'failed') {
          clearTimeout(timer);
          reject(new PiperParallelError('WORKER', `capacity worker ${rang} failed while loading: ${m.message}`));
        }
        this.emit(worker, m);
      });
      void worker.exited.then((x) => {
        clearTimeout(timer);
        if (this.closing.has(worker)) return;
        const how = x.signal ? `on signal ${x.signal}` : `with code ${x.code}`;
        reject(new PiperParallelError('WORKER', `capacity worker ${rang} exited ${how}`));
        this.emit(worker, { type: 'failed', message: `worker ${rang} (pid ${worker.pid ?? '?'}) exited ${how}` });
      });
    });
    worker.send({ type: 'init', rang, ...this.o.init });
    return { worker, loaded };
  }

  /** Exactly `n` loaded workers; throws (after reaping the new ones) when one fails to load. */
  async resize(n: number): Promise<void> {
    if (n === this.workers.length) return;
    if (this.o.adapter.isolation === 'thread' || n < this.workers.length) {
      const keep = this.o.adapter.isolation === 'thread' ? 0 : n;
      await this.stop(this.workers.slice(keep));
      this.workers = this.workers.slice(0, keep);
      if (keep === 0) await this.o.adapter.closeArm?.();
    }
    if (this.workers.length === 0) this.o.adapter.openArm?.(n, { barrierMs: this.o.loadMs, loadMs: this.o.loadMs });
    // Each worker is kept as soon as it exists, so one whose spawn throws leaves none untracked.
    const started: Array<Promise<void>> = [];
    try {
      while (this.workers.length < n) {
        const s = this.start(this.workers.length);
        this.workers.push(s.worker);
        started.push(s.loaded);
      }
    } catch (err) {
      // The ones started are reaped; their loads are settled by their exit, or never waited on.
      for (const p of started) p.catch(() => undefined);
      await this.close();
      throw err;
    }
    const outcome = await this.settledUnlessAborted(started);
    if (outcome === 'aborted') {
      await this.close();
      throw new PiperParallelError('ABORTED', 'interrupted while workers loaded');
    }
    const failed = outcome.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      await this.close();
      throw failed.reason;
    }
  }

  private settledUnlessAborted(started: Array<Promise<void>>): Promise<PromiseSettledResult<void>[] | 'aborted'> {
    const signal = this.o.signal;
    if (!signal) return Promise.allSettled(started);
    if (signal.aborted) return Promise.resolve('aborted');
    return new Promise((resolve) => {
      const onAbort = (): void => resolve('aborted');
      signal.addEventListener('abort', onAbort, { once: true });
      void Promise.allSettled(started).then((r) => {
        signal.removeEventListener('abort', onAbort);
        resolve(r);
      });
    });
  }

  /**
   * At least `n` loaded workers. Processes beyond `n` stay, idle, for the rest of the turn: a K that
   * comes back up finds them loaded instead of starting them again. Threads: exactly `n`.
   */
  async atLeast(n: number): Promise<void> {
    if (this.o.adapter.isolation === 'thread' || n > this.workers.length) await this.resize(n);
  }

  /**
   * The first `n` workers, as a trial sees them. A failure of any worker reaches the trial: a dead
   * idle worker must not wait for a later trial to be found.
   */
  first(n: number): TrialWorkers {
    return {
      count: Math.min(n, this.workers.length),
      send: (worker, job) => {
        if (worker < n) this.send(worker, job);
      },
      listen: (fn) =>
        this.listen((worker, m) => {
          if (worker < n || m.type === 'failed') fn(worker, m);
        }),
    };
  }

  private async stop(list: StreamWorker[]): Promise<void> {
    for (const w of list) this.closing.add(w);
    await Promise.all(list.map((w) => w.terminate(this.o.graceMs)));
  }

  async close(): Promise<void> {
    await this.stop(this.workers);
    this.workers = [];
    await this.o.adapter.closeArm?.();
  }
}
