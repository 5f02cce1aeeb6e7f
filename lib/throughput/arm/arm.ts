import { PiperParallelError, toError } from '../../core/errors.js';
import { monotonicMs } from '../../measure/clock.js';
import { readSwapPages } from '../../measure/memory.js';
import type { CpuSampler, CpuSnapshot } from '../../measure/system-cpu.js';
import type { LoadedMessage, PassMessage, WorkerMessage } from '../../workers/messages.js';
import type { InitMessage } from '../../workers/messages.js';
import type { StreamWorker, WorkerAdapter } from '../../workers/worker.js';
import { maxOf, minOf } from '../../core/extremes.js';
import { timerMs } from '../../core/timer.js';

export interface ArmTimeouts {
  /** Voice load and phonemizing, per worker. */
  loadMs: number;
  /** How long the barrier waits for the last worker to arrive. */
  barrierMs: number;
  /** One pass, once started. */
  passMs: number;
  /** How far ahead of now the common start instant is set. */
  leadMs: number;
  /** SIGTERM to SIGKILL. */
  graceMs: number;
}

export const DEFAULT_TIMEOUTS: ArmTimeouts = {
  loadMs: 180_000,
  barrierMs: 120_000,
  passMs: 600_000,
  leadMs: 20,
  graceMs: 2000,
};

export interface ChildRecord {
  rang: number;
  pid: number | undefined;
  core: number | undefined;
  loaded?: LoadedMessage;
  /** `round` is set when rounds are merged (1-based); a single run is round 1. */
  passes: Array<PassMessage & { round?: number }>;
}

export interface PassSync {
  pass: number;
  warmup: boolean;
  atMs: number;
  startsMs: number[];
  endsMs: number[];
  /** Latest start minus earliest start, across workers. */
  skewMs: number;
  /** Latest start minus the planned instant. */
  lateMs: number;
  round?: number;
}

export interface ArmRun {
  state: 'done' | 'failed' | 'timed-out' | 'aborted';
  message?: string;
  children: ChildRecord[];
  sync: PassSync[];
  /** CPU readings around each timed pass (all ready, to all reported), for the outside-load control. */
  timedCpu: Array<{ before: CpuSnapshot; after: CpuSnapshot }>;
  /** Pages the machine swapped in or out from the first spawn to the last reap; null where unreadable. */
  swapPages?: number | null;
  wallSeconds: number;
  /** Set when several rounds were merged: each round's place, state, wall time and the cores each stream saw. */
  rounds?: Array<{ round: number; order: number; state: ArmRun['state']; wallSeconds: number; seen: number[][] }>;
}

export interface ArmRunParams {
  adapter: WorkerAdapter;
  streams: number;
  /** Core per worker (undefined = free). */
  cores: Array<number | undefined>;
  init: Omit<InitMessage, 'type' | 'rang'>;
  timeouts: ArmTimeouts;
  signal?: AbortSignal;
  onPass?: (pass: number, total: number) => void;
  /** Reads machine and own CPU around each timed pass; none: no outside-load figure. */
  cpuSampler?: CpuSampler;
  /** The machine's swapped pages so far (default /proc/vmstat; tests inject their own); null where unreadable. */
  swapPages?: () => number | null;
}

type Event = { rang: number; message: WorkerMessage } | { rang: number; exit: string };

class ArmFailure extends Error {
  constructor(
    readonly state: 'failed' | 'timed-out' | 'aborted',
    message: string,
  ) {
    super(message);
  }
}

/** One arm in flight: its workers, the messages they sent, and waits that fail rather than hang. */
class ArmDriver {
  readonly workers: StreamWorker[] = [];
  readonly children: ChildRecord[] = [];
  readonly sync: PassSync[] = [];
  readonly timedCpu: ArmRun['timedCpu'] = [];
  private readonly events: Event[] = [];
  private wake: (() => void) | undefined;
  private pending = new Set<number>();

  constructor(private readonly p: ArmRunParams) {}

  private push(e: Event): void {
    this.events.push(e);
    this.wake?.();
  }

  private pendingNames(): string {
    return [...this.pending].map((r) => `stream ${r} (pid ${this.children[r]?.pid ?? '?'})`).join(', ');
  }

  /** Until every stream has sent what `take` accepts, failing on any worker failure, exit, timeout or abort. */
  /** sherpa-onnx ends its process with exit code 255 on a fatal error, having said why on stderr. */
  private exitHint(exit: string): string {
    const engine = this.p.init.engine;
    if (engine?.kind === 'sherpa' && exit === 'with code 255') {
      return (
        `sherpa-onnx ends its process so on a fatal error (its message is above); check the voice with ` +
        `\`piper-parallel synth --engine sherpa --voice ${engine.voice.name}\`, or delete ${engine.voice.dir} ` +
        `to have it made anew`
      );
    }
    return 'something killed it or it crashed (check memory, dmesg) — run again';
  }

  async waitAll(
    what: string,
    timeoutMs: number,
    take: (e: { rang: number; message: WorkerMessage }) => boolean,
  ): Promise<void> {
    this.pending = new Set(this.children.map((c) => c.rang));
    const deadline = monotonicMs() + timeoutMs;
    for (;;) {
      // Messages for a later step (a 'ready' right behind a 'pass') stay queued for it.
      const later: Event[] = [];
      while (this.events.length > 0) {
        const e = this.events.shift() as Event;
        if ('exit' in e)
          throw new ArmFailure(
            'failed',
            `stream ${e.rang} (pid ${this.children[e.rang]?.pid ?? '?'}) exited ${e.exit} ${what}; ${this.exitHint(e.exit)}`,
          );
        if (e.message.type === 'failed')
          throw new ArmFailure('failed', `stream ${e.rang} failed ${what}: ${e.message.message}`);
        if (this.pending.has(e.rang) && take(e)) this.pending.delete(e.rang);
        else later.push(e);
      }
      this.events.push(...later);
      if (this.pending.size === 0) return;
      if (this.p.signal?.aborted) throw new ArmFailure('aborted', `interrupted ${what}`);
      const left = deadline - monotonicMs();
      if (left <= 0)
        throw new ArmFailure(
          'timed-out',
          `${what}: no answer within ${Math.round(timeoutMs / 1000)} s from ${this.pendingNames()}; the ` +
            `machine may be overloaded: run with nothing else busy or raise --barrier-timeout`,
        );
      await this.sleep(Math.min(left, 1000));
    }
  }

  /** Until a message, the abort, or `ms`. */
  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.p.signal?.removeEventListener('abort', finish);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(finish, timerMs(ms));
      this.p.signal?.addEventListener('abort', finish, { once: true });
      this.wake = finish;
    });
  }

  spawnAll(): void {
    const { p } = this;
    p.adapter.openArm?.(p.streams, { barrierMs: p.timeouts.barrierMs, loadMs: p.timeouts.loadMs });
    for (let rang = 0; rang < p.streams; rang += 1) {
      const w = p.adapter.spawn({ rang, core: p.cores[rang] });
      this.workers.push(w);
      this.children.push({ rang, pid: w.pid, core: p.cores[rang], passes: [] });
      w.onMessage((m) => this.push({ rang, message: m }));
      void w.exited.then((x) => {
        // A clean exit after the last pass is expected; anything earlier is a failure.
        const finished = (this.children[rang]?.passes.length ?? 0) >= p.init.passes + (p.init.warmup ?? 0);
        if (!finished || x.code !== 0)
          this.push({ rang, exit: x.signal ? `on signal ${x.signal}` : `with code ${x.code}` });
      });
      w.send({ type: 'init', rang, ...p.init });
    }
  }

  async awaitLoaded(): Promise<void> {
    await this.waitAll('while loading the voice', this.p.timeouts.loadMs, (e) => {
      if (e.message.type !== 'loaded') return false;
      const c = this.children[e.rang];
      if (c) c.loaded = e.message;
      return true;
    });
  }

  /** One pass: all ready, one start instant (processes) or their own barrier (threads), all reported. */
  async runPass(pass: number): Promise<void> {
    const { p } = this;
    await this.waitAll(
      `at the barrier of pass ${pass}`,
      p.timeouts.barrierMs,
      (e) => e.message.type === 'ready' && e.message.pass === pass,
    );
    const pids = this.workers.map((w) => w.pid).filter((pid): pid is number => pid !== undefined);
    const warmup = pass < (p.init.warmup ?? 0);
    const cpuBefore = warmup ? undefined : p.cpuSampler?.snapshot(pids);
    // Processes: the parent is the barrier. Threads meet on their shared-memory barrier instead.
    let atMs = monotonicMs() + p.timeouts.leadMs;
    if (!p.adapter.selfSynchronized) for (const w of this.workers) w.send({ type: 'start', pass, atMs });
    const results: PassMessage[] = [];
    await this.waitAll(`during pass ${pass}`, p.timeouts.passMs, (e) => {
      if (e.message.type !== 'pass' || e.message.pass !== pass) return false;
      this.children[e.rang]?.passes.push(e.message);
      results[e.rang] = e.message;
      return true;
    });
    const cpuAfter = cpuBefore ? p.cpuSampler?.snapshot(pids) : undefined;
    if (cpuBefore && cpuAfter) this.timedCpu.push({ before: cpuBefore, after: cpuAfter });
    const startsMs = results.map((r) => r.startMs);
    if (p.adapter.selfSynchronized) atMs = minOf(startsMs);
    const skewMs = maxOf(startsMs) - minOf(startsMs);
    this.sync.push({
      pass,
      warmup,
      atMs,
      startsMs,
      endsMs: results.map((r) => r.endMs),
      skewMs,
      lateMs: maxOf(startsMs) - atMs,
    });
  }
}

/** Any thrown value as the arm's outcome. */
function outcome(err: unknown): { state: ArmRun['state']; message: string } {
  if (err instanceof ArmFailure) return { state: err.state, message: err.message };
  return { state: 'failed', message: err instanceof PiperParallelError ? err.message : toError(err).message };
}

/**
 * One arm's workers, open: loaded, then run a few passes at a time, so the arms of a voice can be
 * open together and take their passes in turn, seconds apart. Failures become the arm's state;
 * `activeMs` counts the arm's own time (loading and its passes), not its waits for other arms.
 */
export class ArmSession {
  private readonly driver: ArmDriver;
  private result: { state: ArmRun['state']; message?: string } = { state: 'done' };
  private nextPass = 0;
  private activeMs = 0;
  private swapPages: number | null = 0;

  constructor(private readonly p: ArmRunParams) {
    this.driver = new ArmDriver(p);
  }

  get total(): number {
    return (this.p.init.warmup ?? 0) + this.p.init.passes;
  }

  get warmups(): number {
    return this.p.init.warmup ?? 0;
  }

  get failed(): boolean {
    return this.result.state !== 'done';
  }

  /** Time and swapped pages over the arm's own steps only: another arm's passes are not this arm's. */
  private async step(work: () => Promise<void>): Promise<void> {
    if (this.failed) return;
    const swapped = this.p.swapPages ?? (() => readSwapPages());
    const t0 = monotonicMs();
    const before = swapped();
    try {
      await work();
    } catch (err) {
      this.result = outcome(err);
    }
    const after = swapped();
    this.swapPages =
      this.swapPages === null || before === null || after === null ? null : this.swapPages + (after - before);
    this.activeMs += monotonicMs() - t0;
  }

  /** Spawn every worker and wait for each to load the voice. */
  async open(): Promise<void> {
    await this.step(async () => {
      this.driver.spawnAll();
      await this.driver.awaitLoaded();
    });
  }

  /** The next `count` passes (warm-up first), or all that are left. */
  async run(count = this.total): Promise<void> {
    await this.step(async () => {
      for (const end = Math.min(this.total, this.nextPass + count); this.nextPass < end; this.nextPass += 1) {
        await this.driver.runPass(this.nextPass);
        this.p.onPass?.(this.nextPass + 1, this.total);
      }
    });
  }

  /** Reap every worker; the arm as it ran. */
  async close(): Promise<ArmRun> {
    await Promise.all(this.driver.workers.map((w) => w.terminate(this.p.timeouts.graceMs)));
    await this.p.adapter.closeArm?.();
    const { driver } = this;
    return {
      ...this.result,
      children: driver.children,
      sync: driver.sync,
      timedCpu: driver.timedCpu,
      swapPages: this.swapPages,
      wallSeconds: this.activeMs / 1000,
    };
  }
}

/**
 * Run one arm: K workers, each pass started together. The parent is the barrier: it waits for
 * every worker to say ready, then sends one start instant a few ms ahead on the shared monotonic
 * clock. A worker that fails, dies or does not arrive in time fails the arm; all are reaped.
 */
export async function runArmWorkers(p: ArmRunParams): Promise<ArmRun> {
  const arm = new ArmSession(p);
  let run: ArmRun | undefined;
  try {
    await arm.open();
    await arm.run();
  } finally {
    // Reaped whatever was thrown: no child outlives its arm.
    run = await arm.close();
  }
  return run;
}
