import { PiperParallelError, toError } from '../errors.js';
import { monotonicMs } from '../measure/clock.js';
import type { CpuSampler, CpuSnapshot } from '../measure/system-cpu.js';
import type { LoadedMessage, PassMessage, WorkerMessage } from './messages.js';
import type { InitMessage } from './messages.js';
import type { StreamWorker, WorkerAdapter } from './worker.js';

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

export const DEFAULT_TIMEOUTS: ArmTimeouts = { loadMs: 180_000, barrierMs: 120_000, passMs: 600_000, leadMs: 20, graceMs: 2000 };

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
}

type Event = { rang: number; message: WorkerMessage } | { rang: number; exit: string };

class ArmFailure extends Error {
  constructor(readonly state: 'failed' | 'timed-out' | 'aborted', message: string) {
    super(message);
  }
}

/**
 * Run one arm: K workers, each pass started together. The parent is the barrier: it waits for
 * every worker to say ready, then sends one start instant a few ms ahead on the shared monotonic
 * clock. A worker that fails, dies or does not arrive in time fails the arm; all are reaped.
 */
export async function runArmWorkers(p: ArmRunParams): Promise<ArmRun> {
  const t0 = monotonicMs();
  const workers: StreamWorker[] = [];
  const children: ChildRecord[] = [];
  const sync: PassSync[] = [];
  const timedCpu: ArmRun['timedCpu'] = [];
  const events: Event[] = [];
  let wake: (() => void) | undefined;
  const push = (e: Event): void => {
    events.push(e);
    wake?.();
  };

  /** Wait until `done()` holds, failing on any worker failure, exit, timeout or abort. */
  const waitFor = async (what: string, timeoutMs: number, handle: (e: Event) => boolean, done: () => boolean): Promise<void> => {
    const deadline = monotonicMs() + timeoutMs;
    for (;;) {
      // Messages for a later step (a 'ready' right behind a 'pass') stay queued for it.
      const later: Event[] = [];
      while (events.length > 0) {
        const e = events.shift() as Event;
        if ('exit' in e) throw new ArmFailure('failed', `stream ${e.rang} (pid ${children[e.rang]?.pid ?? '?'}) exited ${e.exit} ${what}; something killed it or it crashed (check memory, dmesg) — run again`);
        if (e.message.type === 'failed') throw new ArmFailure('failed', `stream ${e.rang} failed ${what}: ${e.message.message}`);
        if (!handle(e)) later.push(e);
      }
      events.push(...later);
      if (done()) return;
      if (p.signal?.aborted) throw new ArmFailure('aborted', `interrupted ${what}`);
      const left = deadline - monotonicMs();
      if (left <= 0) {
        throw new ArmFailure('timed-out', `${what}: no answer within ${Math.round(timeoutMs / 1000)} s from ${pendingNames()}; the machine may be overloaded: run with nothing else busy or raise --barrier-timeout`);
      }
      await new Promise<void>((resolve) => {
        const finish = (): void => {
          clearTimeout(timer);
          p.signal?.removeEventListener('abort', finish);
          wake = undefined;
          resolve();
        };
        const timer = setTimeout(finish, Math.min(left, 1000));
        p.signal?.addEventListener('abort', finish, { once: true });
        wake = finish;
      });
    }
  };
  let pending = new Set<number>();
  const pendingNames = (): string => [...pending].map((r) => `stream ${r} (pid ${children[r]?.pid ?? '?'})`).join(', ');

  let state: ArmRun['state'] = 'done';
  let message: string | undefined;
  try {
    p.adapter.openArm?.(p.streams, { barrierMs: p.timeouts.barrierMs, loadMs: p.timeouts.loadMs });
    for (let rang = 0; rang < p.streams; rang += 1) {
      const w = p.adapter.spawn({ rang, core: p.cores[rang] });
      workers.push(w);
      children.push({ rang, pid: w.pid, core: p.cores[rang], passes: [] });
      w.onMessage((m) => push({ rang, message: m }));
      void w.exited.then((x) => {
        // A clean exit after the last pass is expected; anything earlier is a failure.
        const finished = (children[rang]?.passes.length ?? 0) >= p.init.passes + (p.init.warmup ?? 0);
        if (!finished || x.code !== 0) push({ rang, exit: x.signal ? `on signal ${x.signal}` : `with code ${x.code}` });
      });
      w.send({ type: 'init', rang, ...p.init });
    }
    pending = new Set(children.map((c) => c.rang));
    await waitFor('while loading the voice', p.timeouts.loadMs, (e) => {
      if ('message' in e && e.message.type === 'loaded') {
        const c = children[e.rang];
        if (c) c.loaded = e.message;
        pending.delete(e.rang);
        return true;
      }
      return false;
    }, () => pending.size === 0);

    const total = (p.init.warmup ?? 0) + p.init.passes;
    for (let pass = 0; pass < total; pass += 1) {
      pending = new Set(children.map((c) => c.rang));
      await waitFor(`at the barrier of pass ${pass}`, p.timeouts.barrierMs, (e) => {
        if ('message' in e && e.message.type === 'ready' && e.message.pass === pass) return pending.delete(e.rang);
        return false;
      }, () => pending.size === 0);
      const pids = workers.map((w) => w.pid).filter((pid): pid is number => pid !== undefined);
      const timed = pass >= (p.init.warmup ?? 0);
      const cpuBefore = timed ? p.cpuSampler?.snapshot(pids) : undefined;
      // Processes: the parent is the barrier. Threads meet on their shared-memory barrier instead.
      let atMs = monotonicMs() + p.timeouts.leadMs;
      if (!p.adapter.selfSynchronized) for (const w of workers) w.send({ type: 'start', pass, atMs });
      pending = new Set(children.map((c) => c.rang));
      const results: PassMessage[] = [];
      await waitFor(`during pass ${pass}`, p.timeouts.passMs, (e) => {
        if ('message' in e && e.message.type === 'pass' && e.message.pass === pass) {
          children[e.rang]?.passes.push(e.message);
          results[e.rang] = e.message;
          return pending.delete(e.rang);
        }
        return false;
      }, () => pending.size === 0);
      const cpuAfter = cpuBefore ? p.cpuSampler?.snapshot(pids) : undefined;
      if (cpuBefore && cpuAfter) timedCpu.push({ before: cpuBefore, after: cpuAfter });
      const startsMs = results.map((r) => r.startMs);
      if (p.adapter.selfSynchronized) atMs = Math.min(...startsMs);
      sync.push({
        pass,
        warmup: pass < (p.init.warmup ?? 0),
        atMs,
        startsMs,
        endsMs: results.map((r) => r.endMs),
        skewMs: Math.max(...startsMs) - Math.min(...startsMs),
        lateMs: Math.max(...startsMs) - atMs,
      });
      p.onPass?.(pass + 1, total);
    }
  } catch (err) {
    if (err instanceof ArmFailure) {
      state = err.state;
      message = err.message;
    } else if (err instanceof PiperParallelError) {
      state = 'failed';
      message = err.message;
    } else {
      state = 'failed';
      message = toError(err).message;
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate(p.timeouts.graceMs)));
    await p.adapter.closeArm?.();
  }
  return { state, message, children, sync, timedCpu, wallSeconds: (monotonicMs() - t0) / 1000 };
}
