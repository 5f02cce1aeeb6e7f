import { Prng } from '../../lib/core/prng.js';
import type { VirtualTimers } from '../../lib/capacity/trial/timers.js';
import type { ParentMessage, WorkerMessage } from '../../lib/workers/messages.js';
import type { SpawnOptions, StreamWorker, WorkerAdapter, WorkerExit } from '../../lib/workers/worker.js';

/**
 * A machine of C cores on virtual time, shared fairly (processor sharing) by the jobs of the
 * workers a capacity run starts. A one-thread job alone runs at `speed` x real time on one core;
 * a T-thread job may use `threadCores(T)` cores. With K jobs asking for more cores than there are,
 * each gets its share: K one-thread jobs on 2 cores run at speed x 2/K each. Every time is exact,
 * so the true capacity can be worked out by hand.
 */
export interface MachineSpec {
  cores: number;
  /** x real time of a one-thread job alone. */
  speed: number;
  /** Audio seconds of each sentence of the text. */
  audioSeconds: readonly number[];
  threadCores?: (threads: number) => number;
  /** Virtual ms a worker takes to load. */
  loadMs?: number;
  /** The n-th job the machine starts (1-based) ends its worker with this message instead. */
  failJob?: { n: number; message: string };
  /**
   * Each trial's own luck: its jobs run at exp(logSd * z) of the machine's speed, z standard normal, drawn from `seed`
   * at each trial's start (nextTrial). None: every time exact.
   */
  noise?: { logSd: number; seed: number };
}

interface Job {
  worker: FakeWorker;
  id: number;
  sentence: number;
  startMs: number;
  /** Core-ms left at factor 1. */
  leftCoreMs: number;
  maxCores: number;
}

class FakeWorker implements StreamWorker {
  readonly exited: Promise<WorkerExit>;
  private readonly listeners: Array<(m: WorkerMessage) => void> = [];
  threads = 1;
  gone = false;
  private done!: (x: WorkerExit) => void;

  constructor(
    readonly rang: number,
    readonly pid: number,
    private readonly machine: FakeMachine,
  ) {
    this.exited = new Promise((r) => {
      this.done = r;
    });
  }

  send(m: ParentMessage): void {
    if (this.gone) return;
    if (m.type === 'init') {
      this.threads = m.threads;
      this.machine.timers.at(this.machine.timers.now() + (this.machine.spec.loadMs ?? 100), () =>
        this.emit({
          type: 'loaded',
          pid: this.pid,
          cores: [0],
          loadSeconds: 0.1,
          phonemizeSeconds: 0,
          sentences: this.machine.spec.audioSeconds.length,
          missingPhonemes: {},
        }),
      );
    } else if (m.type === 'job') this.machine.start(this, m.id, m.sentence);
  }

  onMessage(listener: (m: WorkerMessage) => void): void {
    this.listeners.push(listener);
  }

  emit(m: WorkerMessage): void {
    if (!this.gone) for (const l of this.listeners) l(m);
  }

  async terminate(): Promise<WorkerExit> {
    if (!this.gone) {
      this.gone = true;
      this.machine.drop(this);
      this.done({ code: null, signal: 'SIGTERM' });
    }
    return this.exited;
  }
}

export class FakeMachine {
  /** Multiplies every job's speed from now on (a machine that slows down between rounds). */
  factor = 1;
  spawned = 0;
  private jobs: Job[] = [];
  /** This trial's draw of the noise (1 without noise). */
  private luck = 1;
  private readonly prng: Prng | undefined;
  private lastMs: number;
  private cancel: () => void = () => undefined;

  constructor(
    readonly timers: VirtualTimers,
    readonly spec: MachineSpec,
  ) {
    this.lastMs = timers.now();
    this.prng = spec.noise ? new Prng(spec.noise.seed) : undefined;
  }

  /** A trial starts: its luck is drawn (Box-Muller), the jobs under way from now on run at it. */
  nextTrial(): void {
    if (!this.prng || !this.spec.noise) return;
    this.advance();
    const z = Math.sqrt(-2 * Math.log(1 - this.prng.next())) * Math.cos(2 * Math.PI * this.prng.next());
    this.luck = Math.exp(this.spec.noise.logSd * z);
    this.schedule();
  }

  adapter(isolation: 'process' | 'thread' = 'process'): WorkerAdapter {
    return { isolation, spawn: (o: SpawnOptions) => new FakeWorker(o.rang, 1000 + this.spawned++, this) };
  }

  private rate(j: Job): number {
    const demand = this.jobs.reduce((n, x) => n + x.maxCores, 0);
    return j.maxCores * Math.min(1, this.spec.cores / demand) * this.factor * this.luck;
  }

  /** Work done since the last event, at the rates that held. */
  private advance(): void {
    const now = this.timers.now();
    const rates = this.jobs.map((j) => this.rate(j));
    this.jobs.forEach((j, i) => {
      j.leftCoreMs -= (rates[i] as number) * (now - this.lastMs);
    });
    this.lastMs = now;
  }

  private schedule(): void {
    this.cancel();
    if (this.jobs.length === 0) return;
    const next = Math.min(...this.jobs.map((j) => j.leftCoreMs / this.rate(j)));
    this.cancel = this.timers.at(this.timers.now() + Math.max(0, next), () => this.tick());
  }

  private tick(): void {
    this.advance();
    const finished = this.jobs.filter((j) => j.leftCoreMs <= 1e-6);
    this.jobs = this.jobs.filter((j) => j.leftCoreMs > 1e-6);
    this.schedule();
    for (const j of finished) {
      const audioSeconds = this.spec.audioSeconds[j.sentence] as number;
      j.worker.emit({
        type: 'done',
        id: j.id,
        sentence: j.sentence,
        startMs: j.startMs,
        endMs: this.timers.now(),
        audioSeconds,
        peakRssBytes: 100 * 2 ** 20,
        majorFaultsBefore: 0,
        majorFaults: 0,
      });
    }
  }

  private started = 0;

  start(worker: FakeWorker, id: number, sentence: number): void {
    this.started += 1;
    const fail = this.spec.failJob;
    if (fail && fail.n === this.started) {
      this.timers.at(this.timers.now() + 10, () => worker.emit({ type: 'failed', message: fail.message }));
      return;
    }
    this.advance();
    const cores = worker.threads > 1 ? (this.spec.threadCores ?? ((t: number) => t))(worker.threads) : 1;
    this.jobs.push({
      worker,
      id,
      sentence,
      startMs: this.timers.now(),
      leftCoreMs: ((this.spec.audioSeconds[sentence] as number) * 1000) / this.spec.speed,
      maxCores: cores,
    });
    this.schedule();
  }

  drop(worker: FakeWorker): void {
    this.advance();
    this.jobs = this.jobs.filter((j) => j.worker !== worker);
    this.schedule();
  }
}
