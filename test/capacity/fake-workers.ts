import type { TrialWorkers } from '../../lib/capacity/trial/trial.js';
import type { Timers } from '../../lib/capacity/trial/timers.js';
import type { WorkerMessage } from '../../lib/workers/messages.js';

/**
 * Workers that synthesize nothing: a job takes `computeMs(sentence)` of the timers' time and
 * reports `audioSeconds(sentence)`. With virtual timers every figure can be worked out by hand.
 */
export class FakeWorkers implements TrialWorkers {
  private readonly listeners = new Set<(worker: number, m: WorkerMessage) => void>();
  readonly sent: Array<{ worker: number; id: number; sentence: number; atMs: number }> = [];

  constructor(
    readonly count: number,
    private readonly timers: Timers,
    private readonly computeMs: (sentence: number, worker: number) => number,
    private readonly audioSeconds: (sentence: number) => number,
    private readonly failOn?: { worker: number; job: number },
  ) {}

  send(worker: number, job: { id: number; sentence: number }): void {
    const startMs = this.timers.now();
    this.sent.push({ worker, ...job, atMs: startMs });
    const endMs = startMs + this.computeMs(job.sentence, worker);
    this.timers.at(endMs, () => {
      const m: WorkerMessage =
        this.failOn?.worker === worker && this.failOn.job === job.id
          ? { type: 'failed', message: 'injected' }
          : {
              type: 'done',
              id: job.id,
              sentence: job.sentence,
              startMs,
              endMs,
              audioSeconds: this.audioSeconds(job.sentence),
              peakRssBytes: 1000 + worker,
              majorFaultsBefore: 3,
              majorFaults: 3 + worker,
            };
      for (const l of this.listeners) l(worker, m);
    });
  }

  listen(fn: (worker: number, m: WorkerMessage) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}
