/**
 * One capacity trial: K listeners arrive as planned, their sentences go into one queue, W loaded
 * workers take them one at a time, and what each listener hears is computed from the times the
 * workers report. Driven by callbacks only, so virtual timers and fake workers make it exact.
 */
import type { DoneMessage, WorkerMessage } from '../run/messages.js';
import { percentile, playback, type StreamPlayback } from './playback.js';
import { SentenceQueue, type QueuePolicy } from './queue.js';
import type { Timers } from './timers.js';

/** The workers of a pool, as a trial sees them. */
export interface TrialWorkers {
  readonly count: number;
  send(worker: number, job: { id: number; sentence: number }): void;
  /** Every message from any worker (an exit arrives as a 'failed' message); returns an unsubscribe. */
  listen(fn: (worker: number, message: WorkerMessage) => void): () => void;
}

export interface TrialParams {
  workers: TrialWorkers;
  /** Listeners' arrivals, ms after the trial's start. */
  offsetsMs: readonly number[];
  policy: QueuePolicy;
  /** Audio seconds of each sentence of the text, measured before (the deadline order uses them). */
  estimatedAudioSeconds: readonly number[];
  timers: Timers;
  /** The trial starts this long after it is called, so the first arrival is on time. */
  leadMs?: number;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Search steps: stop at the first gap, as the answer for this K is then known. */
  stopAtFirstGap?: boolean;
}

export interface JobRecord {
  stream: number;
  sentence: number;
  worker: number;
  dispatchMs: number;
  startMs: number;
  endMs: number;
  audioSeconds: number;
}

export interface TrialResult {
  state: 'done' | 'failed' | 'timed-out' | 'aborted' | 'stopped';
  message?: string;
  startMs: number;
  arrivals: Array<{ plannedMs: number; actualMs: number }>;
  streams: StreamPlayback[];
  jobs: JobRecord[];
  /** Latest arrival behind its plan, ms. */
  worstLatenessMs: number;
  firstAudioP95Ms: number | null;
  gaps: number;
  streamsWithGaps: number;
  /** Per worker: the highest peak RSS it reported, and its major faults during the trial. */
  peakRssBytes: Array<number | null>;
  majorFaults: Array<number | null>;
  /** Sentences still in flight when the trial settled: those workers must not serve another trial. */
  pending: number;
}

interface InFlight {
  stream: number;
  sentence: number;
  worker: number;
  dispatchMs: number;
}

/** One trial's state; every method runs from an event (an arrival, a worker's message, a timer). */
class Trial {
  readonly startMs: number;
  private readonly queue: SentenceQueue;
  private readonly arrivals: Array<{ plannedMs: number; actualMs: number }>;
  private readonly ready: Array<Array<DoneMessage | undefined>>;
  private readonly inFlight = new Map<number, InFlight>();
  private readonly idle: number[];
  private readonly jobs: JobRecord[] = [];
  private readonly rss: Array<number | null>;
  /** Per worker, major faults during its jobs; a worker given no job took none; unreadable is null. */
  private readonly faults: Array<number | null>;
  private readonly cancels: Array<() => void> = [];
  private unsubscribe: () => void = () => undefined;
  private nextId = 0;
  private finished = false;
  private settled = false;
  private draining: (() => void) | undefined;
  private readonly onAbort = (): void => this.finish('aborted', 'interrupted');

  constructor(private readonly p: TrialParams, private readonly resolve: (r: TrialResult) => void) {
    this.startMs = p.timers.now() + (p.leadMs ?? 50);
    this.queue = new SentenceQueue(p.policy, p.estimatedAudioSeconds);
    this.arrivals = p.offsetsMs.map((o) => ({ plannedMs: this.startMs + o, actualMs: Number.NaN }));
    this.ready = p.offsetsMs.map(() => p.estimatedAudioSeconds.map(() => undefined));
    this.idle = Array.from({ length: p.workers.count }, (_, i) => i);
    this.rss = this.idle.map(() => null);
    this.faults = this.idle.map(() => 0);
  }

  start(): void {
    const { p } = this;
    this.unsubscribe = p.workers.listen((worker, m) => this.onMessage(worker, m));
    p.signal?.addEventListener('abort', this.onAbort, { once: true });
    if (p.signal?.aborted) return this.finish('aborted', 'interrupted');
    this.cancels.push(p.timers.at(this.startMs + p.timeoutMs, () => this.finish('timed-out', `the trial did not finish within ${Math.round(p.timeoutMs / 1000)} s`)));
    // Listeners due at the same instant arrive together: all are queued before any is served.
    for (const plannedMs of [...new Set(this.arrivals.map((a) => a.plannedMs))]) {
      this.cancels.push(p.timers.at(plannedMs, () => this.arrive(plannedMs)));
    }
  }

  private arrive(plannedMs: number): void {
    this.arrivals.forEach((a, stream) => {
      if (a.plannedMs !== plannedMs) return;
      a.actualMs = this.p.timers.now();
      this.queue.arrive(stream, a.actualMs);
    });
    this.dispatch();
  }

  private dispatch(): void {
    while (!this.finished && this.idle.length > 0 && this.queue.size > 0) {
      const job = this.queue.take();
      const worker = this.idle.shift();
      if (!job || worker === undefined) return;
      const id = this.nextId++;
      this.inFlight.set(id, { stream: job.stream, sentence: job.sentence, worker, dispatchMs: this.p.timers.now() });
      // Every listener has its own copy of the text: job ids map back to (listener, sentence).
      this.p.workers.send(worker, { id, sentence: job.sentence });
    }
  }

  private onMessage(worker: number, m: WorkerMessage): void {
    if (this.draining && m.type === 'done') {
      this.inFlight.delete(m.id);
      if (this.inFlight.size === 0) this.draining();
      return;
    }
    if (this.finished) return;
    if (m.type === 'done') this.onDone(worker, m);
    else if (m.type === 'failed') this.finish('failed', `worker ${worker} failed: ${m.message}`);
  }

  private onDone(worker: number, m: DoneMessage): void {
    const job = this.inFlight.get(m.id);
    if (!job || job.worker !== worker) return this.finish('failed', `worker ${worker} reported job ${m.id}, which it was not given`);
    this.inFlight.delete(m.id);
    const row = this.ready[job.stream];
    if (row) row[job.sentence] = m;
    this.jobs.push({ ...job, startMs: m.startMs, endMs: m.endMs, audioSeconds: m.audioSeconds });
    if (m.peakRssBytes !== undefined) this.rss[worker] = Math.max(this.rss[worker] ?? 0, m.peakRssBytes);
    const f = this.faults[worker];
    if (f !== undefined) this.faults[worker] = f === null || m.majorFaults === undefined || m.majorFaultsBefore === undefined ? null : f + Math.max(0, m.majorFaults - m.majorFaultsBefore);
    this.queue.ready(job.stream, job.sentence, m.endMs, m.audioSeconds);
    this.idle.push(worker);
    if (this.p.stopAtFirstGap && this.hasGap(job.stream)) return this.finish('stopped', `a gap for listener ${job.stream}`);
    if (this.jobs.length === this.arrivals.length * this.p.estimatedAudioSeconds.length) return this.finish('done');
    this.dispatch();
  }

  /** A gap among the listener's sentences ready so far, in order. */
  private hasGap(stream: number): boolean {
    const row = this.ready[stream] ?? [];
    const upTo = row.findIndex((d) => d === undefined);
    const known = (upTo < 0 ? row : row.slice(0, upTo)) as DoneMessage[];
    return playback(this.arrivals[stream]?.actualMs ?? 0, known.map((d) => ({ readyMs: d.endMs, audioSeconds: d.audioSeconds }))).gaps > 0;
  }

  private finish(state: TrialResult['state'], message?: string): void {
    if (this.finished) return;
    this.finished = true;
    for (const c of this.cancels) c();
    this.p.signal?.removeEventListener('abort', this.onAbort);
    // A trial stopped early still has sentences in flight: the workers are free for the next trial
    // only once those are back (or after the timeout), so their answers never reach it.
    if (state === 'stopped' && this.inFlight.size > 0) {
      const give = this.p.timers.at(this.p.timers.now() + this.p.timeoutMs, () => this.settle(state, message));
      this.draining = () => {
        give();
        this.settle(state, message);
      };
      return;
    }
    this.settle(state, message);
  }

  private settle(state: TrialResult['state'], message?: string): void {
    if (this.settled) return;
    this.settled = true;
    this.draining = undefined;
    this.unsubscribe();
    const k = this.arrivals.length;
    const streams = this.arrivals.map((a, s) => playback(a.actualMs, (this.ready[s] ?? []).flatMap((d) => (d ? [{ readyMs: d.endMs, audioSeconds: d.audioSeconds }] : []))));
    const complete = streams.filter((x, s) => (this.ready[s] ?? []).every((d) => d !== undefined) && Number.isFinite(x.arrivalMs));
    const arrived = this.arrivals.filter((a) => Number.isFinite(a.actualMs));
    this.resolve({
      state,
      ...(message ? { message } : {}),
      startMs: this.startMs,
      arrivals: this.arrivals,
      streams,
      jobs: this.jobs,
      worstLatenessMs: Math.max(0, ...arrived.map((a) => a.actualMs - a.plannedMs)),
      firstAudioP95Ms: percentile(complete.length === k ? streams.map((x) => x.firstAudioMs) : streams.filter((x) => x.sentences.length > 0).map((x) => x.firstAudioMs), 95),
      gaps: streams.reduce((n, x) => n + x.gaps, 0),
      streamsWithGaps: streams.filter((x) => x.gaps > 0).length,
      peakRssBytes: this.rss,
      majorFaults: this.faults,
      pending: this.inFlight.size,
    });
  }
}

export function runTrial(p: TrialParams): Promise<TrialResult> {
  return new Promise((resolve) => new Trial(p, resolve).start());
}
