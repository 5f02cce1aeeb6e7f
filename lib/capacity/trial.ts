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

export function runTrial(p: TrialParams): Promise<TrialResult> {
  return new Promise((resolve) => {
    const k = p.offsetsMs.length;
    const sentences = p.estimatedAudioSeconds.length;
    const startMs = p.timers.now() + (p.leadMs ?? 50);
    const queue = new SentenceQueue(p.policy, p.estimatedAudioSeconds);
    const arrivals = p.offsetsMs.map((o) => ({ plannedMs: startMs + o, actualMs: Number.NaN }));
    const ready: Array<Array<DoneMessage | undefined>> = Array.from({ length: k }, () => Array.from({ length: sentences }, () => undefined));
    const inFlight = new Map<number, { stream: number; sentence: number; worker: number; dispatchMs: number }>();
    const idle = Array.from({ length: p.workers.count }, (_, i) => i);
    const jobs: JobRecord[] = [];
    const rss: Array<number | null> = Array.from({ length: p.workers.count }, () => null);
    // Per worker, major faults during its jobs; a worker given no job took none; unreadable is null.
    const faults: Array<number | null> = Array.from({ length: p.workers.count }, () => 0);
    const cancels: Array<() => void> = [];
    let nextId = 0;
    let finished = false;
    let draining = false;
    let drained = (): void => undefined;

    const finish = (state: TrialResult['state'], message?: string): void => {
      if (finished) return;
      finished = true;
      for (const c of cancels) c();
      p.signal?.removeEventListener('abort', onAbort);
      // A trial stopped early still has sentences in flight: the workers are free for the next trial
      // only once those are back (or after the timeout), so their answers never reach it.
      if (state === 'stopped' && inFlight.size > 0) {
        draining = true;
        const give = p.timers.at(p.timers.now() + p.timeoutMs, () => settle(state, message));
        drained = () => {
          give();
          settle(state, message);
        };
        return;
      }
      settle(state, message);
    };

    let settled = false;
    const settle = (state: TrialResult['state'], message?: string): void => {
      if (settled) return;
      settled = true;
      unsubscribe();
      const streams = arrivals.map((a, s) => playback(a.actualMs, (ready[s] ?? []).flatMap((d) => (d ? [{ readyMs: d.endMs, audioSeconds: d.audioSeconds }] : []))));
      const complete = streams.filter((x, s) => (ready[s] ?? []).every((d) => d !== undefined) && Number.isFinite(x.arrivalMs));
      resolve({
        state,
        ...(message ? { message } : {}),
        startMs,
        arrivals,
        streams,
        jobs,
        worstLatenessMs: Math.max(0, ...arrivals.filter((a) => Number.isFinite(a.actualMs)).map((a) => a.actualMs - a.plannedMs)),
        firstAudioP95Ms: percentile(complete.length === k ? streams.map((x) => x.firstAudioMs) : streams.filter((x) => x.sentences.length > 0).map((x) => x.firstAudioMs), 95),
        gaps: streams.reduce((n, x) => n + x.gaps, 0),
        streamsWithGaps: streams.filter((x) => x.gaps > 0).length,
        peakRssBytes: rss,
        majorFaults: faults,
        pending: inFlight.size,
      });
    };

    const dispatch = (): void => {
      while (!finished && idle.length > 0 && queue.size > 0) {
        const job = queue.take();
        const worker = idle.shift();
        if (!job || worker === undefined) return;
        const id = nextId++;
        inFlight.set(id, { stream: job.stream, sentence: job.sentence, worker, dispatchMs: p.timers.now() });
        // Every listener has its own copy of the text: job ids map back to (listener, sentence).
        p.workers.send(worker, { id, sentence: job.sentence });
      }
    };

    const onDone = (worker: number, m: DoneMessage): void => {
      const job = inFlight.get(m.id);
      if (!job || job.worker !== worker) return finish('failed', `worker ${worker} reported job ${m.id}, which it was not given`);
      inFlight.delete(m.id);
      const row = ready[job.stream];
      if (row) row[job.sentence] = m;
      jobs.push({ ...job, startMs: m.startMs, endMs: m.endMs, audioSeconds: m.audioSeconds });
      if (m.peakRssBytes !== undefined) rss[worker] = Math.max(rss[worker] ?? 0, m.peakRssBytes);
      const f = faults[worker];
      if (f !== undefined) faults[worker] = f === null || m.majorFaults === undefined || m.majorFaultsBefore === undefined ? null : f + Math.max(0, m.majorFaults - m.majorFaultsBefore);
      queue.ready(job.stream, job.sentence, m.endMs, m.audioSeconds);
      idle.push(worker);
      if (p.stopAtFirstGap && hasGap(job.stream)) return finish('stopped', `a gap for listener ${job.stream}`);
      if (jobs.length === k * sentences) return finish('done');
      dispatch();
    };

    const hasGap = (stream: number): boolean => {
      const row = ready[stream] ?? [];
      const upTo = row.findIndex((d) => d === undefined);
      const known = (upTo < 0 ? row : row.slice(0, upTo)) as DoneMessage[];
      return playback(arrivals[stream]?.actualMs ?? 0, known.map((d) => ({ readyMs: d.endMs, audioSeconds: d.audioSeconds }))).gaps > 0;
    };

    const unsubscribe = p.workers.listen((worker, m) => {
      if (draining && m.type === 'done') {
        inFlight.delete(m.id);
        if (inFlight.size === 0) {
          draining = false;
          drained();
        }
        return;
      }
      if (finished) return;
      if (m.type === 'done') onDone(worker, m);
      else if (m.type === 'failed') finish('failed', `worker ${worker} failed: ${m.message}`);
    });
    const onAbort = (): void => finish('aborted', 'interrupted');
    p.signal?.addEventListener('abort', onAbort, { once: true });
    if (p.signal?.aborted) return finish('aborted', 'interrupted');
    cancels.push(p.timers.at(startMs + p.timeoutMs, () => finish('timed-out', `the trial did not finish within ${Math.round(p.timeoutMs / 1000)} s`)));
    // Listeners due at the same instant arrive together: all are queued before any is served.
    for (const plannedMs of [...new Set(arrivals.map((a) => a.plannedMs))]) {
      cancels.push(
        p.timers.at(plannedMs, () => {
          arrivals.forEach((a, stream) => {
            if (a.plannedMs !== plannedMs) return;
            a.actualMs = p.timers.now();
            queue.arrive(stream, a.actualMs);
          });
          dispatch();
        }),
      );
    }
  });
}
