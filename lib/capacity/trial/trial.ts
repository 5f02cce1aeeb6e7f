/**
 * One capacity trial: K listeners arrive as planned and ask for the text; W loaded workers
 * synthesize it sentence by sentence, one at a time each, and what each listener hears is computed
 * from the times the workers report. In a pool every worker takes from one queue; with a worker per
 * listener, worker i serves only listener i, in order. Driven by callbacks only, so virtual timers
 * and fake workers make every figure exact.
 */
import type { DoneMessage, WorkerMessage } from '../../workers/messages.js';
import { percentile, playback, type ReadySentence, type StreamPlayback } from './playback.js';
import { SentenceQueue, type QueuePolicy } from './queue.js';
import type { Timers } from './timers.js';

/** The workers of a pool, as a trial sees them. */
export interface TrialWorkers {
  readonly count: number;
  send(worker: number, job: { id: number; sentence: number }): void;
  /** Every message from any worker (an exit arrives as a 'failed' message); returns an unsubscribe. */
  listen(fn: (worker: number, message: WorkerMessage) => void): () => void;
}

/** When a trial may end before every sentence is heard. */
export interface StopRule {
  /** At the first gap: the trial has failed, nothing more to learn about this K. */
  atGap: boolean;
  /**
   * A first-audio trial: end once every listener has its first audio, or at the first one over
   * this bound (ms). Its later sentences are not heard, so it says nothing of gaps after that.
   */
  firstAudioMs?: number;
}

export interface TrialParams {
  workers: TrialWorkers;
  /** Listeners' arrivals, ms after the trial's start. */
  offsetsMs: readonly number[];
  policy: QueuePolicy;
  /** Worker i serves listener i only (there are as many workers as listeners). */
  dedicated?: boolean;
  /** Audio seconds of each sentence of the text, measured before (the deadline order uses them). */
  estimatedAudioSeconds: readonly number[];
  timers: Timers;
  /** The trial starts this long after it is called, so the first arrival is on time. */
  leadMs?: number;
  timeoutMs: number;
  signal?: AbortSignal;
  stop?: StopRule;
}

export interface JobRecord {
  stream: number;
  sentence: number;
  worker: number;
  dispatchMs: number;
  startMs: number;
  endMs: number;
  audioSeconds: number;
  /** A server's reply: the audio pairs it sent (DoneMessage.pairs); absent for a local worker's sentence. */
  pairs?: DoneMessage['pairs'];
}

/** What a listener hears of one answer: its pairs where a server sent several, else the sentence as one piece. */
export function piecesOf(d: Pick<DoneMessage, 'endMs' | 'audioSeconds' | 'pairs'>): ReadySentence[] {
  return d.pairs && d.pairs.length > 0
    ? d.pairs.map((p) => ({ readyMs: p.endMs, audioSeconds: p.audioSeconds }))
    : [{ readyMs: d.endMs, audioSeconds: d.audioSeconds }];
}

export interface Arrival {
  plannedMs: number;
  /** NaN: the listener had not arrived when the trial ended. */
  actualMs: number;
  /** Its planned time was before the trial ended: only these are judged by the arrivals control. */
  due: boolean;
  /** How much of its lateness was the whole machine stopped (Timers.stoppedMs), ms: not the parent's. */
  machineStoppedMs: number;
}

export interface TrialResult {
  state: 'done' | 'failed' | 'timed-out' | 'aborted' | 'stopped';
  message?: string;
  startMs: number;
  endMs: number;
  arrivals: Arrival[];
  streams: StreamPlayback[];
  jobs: JobRecord[];
  /**
   * Latest due arrival behind its plan, less the time the machine stopped, ms: the parent's lateness,
   * which the arrivals control judges (a due listener that never arrived counts to the end).
   */
  worstLatenessMs: number;
  /** The same with the machine's stops left in, ms. */
  worstRawLatenessMs: number;
  /** Nearest rank over the listeners who arrived; one with no audio yet counts its wait so far. */
  firstAudioP95Ms: number | null;
  gaps: number;
  streamsWithGaps: number;
  /** Per worker: the highest peak RSS it reported, and its major faults during the trial. */
  peakRssBytes: Array<number | null>;
  majorFaults: Array<number | null>;
  /**
   * Sentences still being synthesized when the trial resolved: a trial ended early waits for the ones
   * in flight (their answers are dropped), so this is 0 unless a worker failed or the wait timed out;
   * then those workers must not serve another trial.
   */
  pending: number;
  /** When the trial resolved (after that wait), ms. */
  settledMs: number;
  /** Sentences in the text: a listener who got all of them heard the whole session. */
  textSentences: number;
}

/** How long a trial ended early waits for its sentences in flight before letting those workers go. */
const DRAIN_MS = 60_000;

/** One trial's state; every method runs from an event (an arrival, a worker's message, a timer). */
class Trial {
  readonly startMs: number;
  private readonly queue: SentenceQueue;
  private readonly arrivals: Arrival[];
  private readonly ready: Array<Array<DoneMessage | undefined>>;
  private readonly inFlight = new Map<
    number,
    { stream: number; sentence: number; worker: number; dispatchMs: number }
  >();
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
  private draining: ((worker: number, m: WorkerMessage) => void) | undefined;
  private readonly onAbort = (): void => this.finish('aborted', 'interrupted');

  constructor(
    private readonly p: TrialParams,
    private readonly resolve: (r: TrialResult) => void,
  ) {
    this.startMs = p.timers.now() + (p.leadMs ?? 50);
    this.queue = new SentenceQueue(p.policy, p.estimatedAudioSeconds);
    this.arrivals = p.offsetsMs.map((o) => ({
      plannedMs: this.startMs + o,
      actualMs: Number.NaN,
      due: false,
      machineStoppedMs: 0,
    }));
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
    this.cancels.push(
      p.timers.at(this.startMs + p.timeoutMs, () =>
        this.finish('timed-out', `the trial did not finish within ${Math.round(p.timeoutMs / 1000)} s`),
      ),
    );
    // Listeners due at the same instant arrive together: all are queued before any is served.
    for (const plannedMs of [...new Set(this.arrivals.map((a) => a.plannedMs))]) {
      this.cancels.push(p.timers.at(plannedMs, () => this.arrive(plannedMs)));
    }
  }

  private arrive(plannedMs: number): void {
    if (this.finished) return;
    this.arrivals.forEach((a, stream) => {
      if (a.plannedMs !== plannedMs) return;
      a.actualMs = this.p.timers.now();
      a.machineStoppedMs = this.p.timers.stoppedMs?.() ?? 0;
      this.queue.arrive(stream, a.actualMs);
    });
    this.dispatch();
  }

  private dispatch(): void {
    for (let i = 0; i < this.idle.length && !this.finished;) {
      const worker = this.idle[i] as number;
      const job = this.queue.take(this.p.dedicated ? worker : undefined, this.p.timers.now());
      if (!job) {
        if (!this.p.dedicated) return;
        i += 1;
        continue;
      }
      this.idle.splice(i, 1);
      const id = this.nextId++;
      this.inFlight.set(id, { stream: job.stream, sentence: job.sentence, worker, dispatchMs: this.p.timers.now() });
      // Every listener has its own copy of the text: job ids map back to (listener, sentence).
      this.p.workers.send(worker, { id, sentence: job.sentence });
    }
  }

  private onMessage(worker: number, m: WorkerMessage): void {
    if (this.draining) return this.draining(worker, m);
    if (this.finished) return;
    if (m.type === 'done') this.onDone(worker, m);
    else if (m.type === 'failed') this.finish('failed', `worker ${worker} failed: ${m.message}`);
  }

  private onDone(worker: number, m: DoneMessage): void {
    const job = this.inFlight.get(m.id);
    if (!job || job.worker !== worker)
      return this.finish('failed', `worker ${worker} reported job ${m.id}, which it was not given`);
    this.inFlight.delete(m.id);
    const row = this.ready[job.stream];
    if (row) row[job.sentence] = m;
    this.jobs.push({
      ...job,
      startMs: m.startMs,
      endMs: m.endMs,
      audioSeconds: m.audioSeconds,
      ...(m.pairs ? { pairs: m.pairs } : {}),
    });
    if (m.peakRssBytes !== undefined) this.rss[worker] = Math.max(this.rss[worker] ?? 0, m.peakRssBytes);
    const f = this.faults[worker];
    if (f !== undefined)
      this.faults[worker] =
        f === null || m.majorFaults === undefined || m.majorFaultsBefore === undefined
          ? null
          : f + Math.max(0, m.majorFaults - m.majorFaultsBefore);
    // The listener's playback starts at the first audio it got, a stream's first pair.
    this.queue.ready(job.stream, job.sentence, piecesOf(m)[0]?.readyMs ?? m.endMs, m.audioSeconds);
    this.idle.push(worker);
    const why = this.stopReason(job.stream, job.sentence);
    if (why !== undefined) return this.finish('stopped', why);
    if (this.jobs.length === this.arrivals.length * this.p.estimatedAudioSeconds.length) return this.finish('done');
    this.dispatch();
  }

  /** Why the trial may end now, by its stop rule; undefined to go on. */
  private stopReason(stream: number, sentence: number): string | undefined {
    const stop = this.p.stop;
    if (!stop) return undefined;
    if (stop.atGap && this.hasGap(stream)) return `a gap for listener ${stream}`;
    const limit = stop.firstAudioMs;
    if (limit === undefined || sentence !== 0) return undefined;
    const head = this.ready[stream]?.[0];
    const first =
      (head ? (piecesOf(head)[0]?.readyMs ?? Number.NaN) : Number.NaN) -
      (this.arrivals[stream]?.actualMs ?? Number.NaN);
    if (first > limit) return `listener ${stream} waited ${Math.round(first)} ms for its first audio, over ${limit} ms`;
    const known = this.ready.every((row) => row[0] !== undefined);
    return known && this.jobs.length < this.arrivals.length * this.p.estimatedAudioSeconds.length
      ? 'every listener has its first audio'
      : undefined;
  }

  /** A gap among the listener's sentences ready so far, in order. */
  private hasGap(stream: number): boolean {
    const row = this.ready[stream] ?? [];
    const upTo = row.findIndex((d) => d === undefined);
    const known = (upTo < 0 ? row : row.slice(0, upTo)) as DoneMessage[];
    return playback(this.arrivals[stream]?.actualMs ?? 0, known.flatMap(piecesOf)).gaps > 0;
  }

  private finish(state: TrialResult['state'], message?: string): void {
    if (this.finished) return;
    this.finished = true;
    for (const c of this.cancels) c();
    this.p.signal?.removeEventListener('abort', this.onAbort);
    const result = this.result(state, message);
    if (state !== 'stopped' || this.inFlight.size === 0) return this.settle(result);
    // Ended early with sentences in flight: wait for them, so their answers reach no other trial.
    // A worker that fails meanwhile, or a wait past the bound, ends the wait: those workers are let go.
    const drained = (): void => this.settle(result);
    const cancel = this.p.timers.at(this.p.timers.now() + DRAIN_MS, drained);
    this.draining = (_worker, m) => {
      if (m.type === 'done') this.inFlight.delete(m.id);
      if (m.type === 'failed' || this.inFlight.size === 0) {
        cancel();
        drained();
      }
    };
  }

  private settle(result: TrialResult): void {
    if (this.settled) return;
    this.settled = true;
    this.unsubscribe();
    this.resolve({ ...result, pending: this.inFlight.size, settledMs: this.p.timers.now() });
  }

  private result(state: TrialResult['state'], message?: string): TrialResult {
    const endMs = this.p.timers.now();
    for (const a of this.arrivals) a.due = a.plannedMs <= endMs;
    const streams = this.arrivals.map((a, s) =>
      playback(
        a.actualMs,
        (this.ready[s] ?? []).flatMap((d) => (d ? piecesOf(d) : [])),
      ),
    );
    const arrived = this.arrivals.flatMap((a, s) => (Number.isFinite(a.actualMs) ? [s] : []));
    // A listener still waiting has waited at least this long: leaving it out would flatter the trial.
    const waits = arrived.map((s) =>
      (streams[s]?.sentences.length ?? 0) > 0
        ? (streams[s]?.firstAudioMs as number)
        : endMs - (this.arrivals[s]?.actualMs as number),
    );
    return {
      state,
      ...(message ? { message } : {}),
      startMs: this.startMs,
      endMs,
      arrivals: this.arrivals,
      streams,
      jobs: this.jobs,
      worstLatenessMs: worstLateness(this.arrivals, endMs, true),
      worstRawLatenessMs: worstLateness(this.arrivals, endMs, false),
      firstAudioP95Ms: percentile(waits, 95),
      gaps: streams.reduce((n, x) => n + x.gaps, 0),
      streamsWithGaps: streams.filter((x) => x.gaps > 0).length,
      peakRssBytes: this.rss,
      majorFaults: this.faults,
      pending: this.inFlight.size,
      settledMs: endMs,
      textSentences: this.p.estimatedAudioSeconds.length,
    };
  }
}

function worstLateness(arrivals: readonly Arrival[], endMs: number, lessStops: boolean): number {
  const late = arrivals
    .filter((a) => a.due)
    .map(
      (a) => (Number.isFinite(a.actualMs) ? a.actualMs : endMs) - a.plannedMs - (lessStops ? a.machineStoppedMs : 0),
    );
  return Math.max(0, ...late);
}

export function runTrial(p: TrialParams): Promise<TrialResult> {
  if (p.dedicated && p.workers.count !== p.offsetsMs.length) {
    return Promise.resolve().then(() => {
      throw new Error(`a worker per listener needs ${p.offsetsMs.length} workers, got ${p.workers.count}`);
    });
  }
  return new Promise((resolve) => new Trial(p, resolve).start());
}
