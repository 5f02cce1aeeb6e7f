/**
 * The server's one queue of sentences. fifo: in the order they were asked for (listener by
 * listener, sentence by sentence). deadline: the sentence whose playback is due soonest first:
 * a listener's sentence j is due when its first sentence started playing plus the audio of the
 * sentences before it (before its first audio, its arrival stands in for that start).
 */
export type QueuePolicy = 'fifo' | 'deadline';
export const QUEUE_POLICIES: readonly QueuePolicy[] = ['fifo', 'deadline'];

export interface Job {
  stream: number;
  sentence: number;
  /** Order of asking, for fifo and for ties. */
  seq: number;
}

interface Listener {
  arrivalMs: number;
  firstPlayMs: number | undefined;
  /** Audio seconds per sentence: measured once ready, estimated before. */
  audioSeconds: number[];
}

export class SentenceQueue {
  private readonly waiting: Job[] = [];
  private readonly listeners = new Map<number, Listener>();
  private seq = 0;

  /** `estimatedAudioSeconds[j]`: how long sentence j plays, as measured before the trial. */
  constructor(
    readonly policy: QueuePolicy,
    private readonly estimatedAudioSeconds: readonly number[],
  ) {}

  get size(): number {
    return this.waiting.length;
  }

  arrive(stream: number, arrivalMs: number): void {
    this.listeners.set(stream, { arrivalMs, firstPlayMs: undefined, audioSeconds: [...this.estimatedAudioSeconds] });
    for (let sentence = 0; sentence < this.estimatedAudioSeconds.length; sentence += 1)
      this.waiting.push({ stream, sentence, seq: this.seq++ });
  }

  /** A sentence is ready: its real length replaces the estimate, and the first one starts the listener's playback. */
  ready(stream: number, sentence: number, readyMs: number, audioSeconds: number): void {
    const l = this.listeners.get(stream);
    if (!l) return;
    l.audioSeconds[sentence] = audioSeconds;
    if (sentence === 0) l.firstPlayMs = readyMs;
  }

  dueMs(job: Job, nowMs = Number.NEGATIVE_INFINITY): number {
    const l = this.listeners.get(job.stream) as Listener;
    let due = l.firstPlayMs ?? Math.max(l.arrivalMs, nowMs);
    for (let i = 0; i < job.sentence; i += 1) due += (l.audioSeconds[i] ?? 0) * 1000;
    return due;
  }

  /** Sentences waiting for `stream` (all listeners when undefined). */
  sizeFor(stream?: number): number {
    return stream === undefined ? this.waiting.length : this.waiting.filter((j) => j.stream === stream).length;
  }

  /** The next sentence to synthesize, taken off the queue: of any listener, or only of `stream` (a worker of its own). */
  take(stream?: number, nowMs?: number): Job | undefined {
    let best = -1;
    for (let i = 0; i < this.waiting.length; i += 1) {
      const a = this.waiting[i] as Job;
      if (stream !== undefined && a.stream !== stream) continue;
      if (best < 0) {
        best = i;
        if (this.policy === 'fifo') break;
        continue;
      }
      const b = this.waiting[best] as Job;
      const da = this.dueMs(a, nowMs);
      const db = this.dueMs(b, nowMs);
      if (da < db || (da === db && a.seq < b.seq)) best = i;
    }
    return best < 0 ? undefined : this.waiting.splice(best, 1)[0];
  }
}
