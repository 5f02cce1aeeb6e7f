/**
 * Time for a capacity trial. The real clock is the system monotonic clock with setTimeout; the
 * virtual one runs events in time order without waiting, so a trial driven by fake workers gives
 * figures that can be computed by hand (tests).
 */
import { timerMs } from '../../core/timer.js';
import { monotonicMs } from '../../measure/clock.js';
import { readOwnTimes, type OwnTimes } from '../../measure/thread-cpu.js';

export interface Timers {
  now(): number;
  /** Call `fn` at `ms` (or at once when that has passed); returns a cancel. */
  at(ms: number, fn: () => void): () => void;
  /**
   * Called from an event: how much of its wake's lateness was the machine's, ms (see `stoppedMs`
   * below). Absent, or 0, where nothing is known: all of it is then the parent's.
   */
  stoppedMs?(): number;
}

export interface RealTimers extends Timers {
  readonly real: true;
  stoppedMs(): number;
}

/**
 * A timer's own granularity, ms: libuv counts its loop time in whole milliseconds, so a wake with its
 * thread idle may come up to this late with the machine running. Never given to the machine.
 */
const TIMER_GRAIN_MS = 1;

/** What wakes the real clock: setTimeout, or a test's own. */
export type Wake = (fn: () => void, ms: number) => () => void;

const wakeAfter: Wake = (fn, ms) => {
  const t = setTimeout(fn, timerMs(ms));
  return () => clearTimeout(t);
};

/**
 * The wall clock: events in time order, then in the order they were set (as the virtual clock runs them), one timer
 * armed for the earliest. A timer per event would race: Node 24 was seen here to fire two pending timers of different
 * delays in the wrong order. The timer wakes `spinMs` early, then spins to the instant. setTimeout alone is often
 * 1-2 ms late, later still when the parent is not scheduled at once; under SCHED_FIFO (see priority.ts) a 1 ms spin
 * was within 0.08 ms here, at normal priority 5 ms is needed and not always enough. The spin is the parent's CPU,
 * taken from the workers: no longer than it must be.
 *
 * A wake can also be late because the whole machine stopped: on a VM whose host caps its CPU, the
 * guest was seen here to stop for 10-250 ms on a 100 ms grid under load, steal reading 0 (docs/capacity.md).
 * The parent's own thread says which: over the wait, the time it ran (its own work held the timer
 * back) plus the time it waited for a core (the machine was busy: the harness's fault, as the
 * arrivals control says) explain that much lateness; the rest, when it took no major page fault
 * (a wait on the disk, its own), the parent was asleep and should have been woken: the machine was
 * not running. `stoppedMs` gives that rest to the events of the wake.
 */
export function realTimers(
  spinMs: number,
  wake: Wake = wakeAfter,
  ownTimes: () => OwnTimes | null = readOwnTimes,
): RealTimers {
  const events: Array<{ ms: number; fn: () => void }> = [];
  let armed: { ms: number; own: OwnTimes | null; cancel: () => void } | undefined;
  let stopped = 0;
  const arm = (): void => {
    const head = events[0];
    if (!head || (armed && armed.ms <= head.ms)) return;
    armed?.cancel();
    const own = ownTimes();
    armed = { ms: head.ms, own, cancel: wake(fire, Math.max(0, head.ms - monotonicMs() - spinMs)) };
  };
  // Every event due within the spin runs in this wake, each at its instant.
  function fire(): void {
    const woke = armed;
    armed = undefined;
    // Only lateness past the first event's instant: a wake within the spin is on time, and one within
    // the timer's grain gives the machine nothing, so /proc is read again only when it can matter.
    const lateMs = woke ? monotonicMs() - woke.ms : 0;
    stopped = woke && lateMs > TIMER_GRAIN_MS ? machineStoppedMs(lateMs, woke.own, ownTimes()) : 0;
    try {
      for (let head = events[0]; head && head.ms - monotonicMs() <= spinMs; head = events[0]) {
        events.shift();
        while (monotonicMs() < head.ms) {
          // Spin the last moment: an arrival must be on time (the arrivals control allows 5 ms).
        }
        head.fn();
      }
    } finally {
      stopped = 0;
      arm();
    }
  }
  return {
    real: true,
    now: monotonicMs,
    stoppedMs: () => stopped,
    at: (ms, fn) => {
      const e = { ms, fn };
      // After every event already set for the same instant.
      const i = events.findIndex((x) => x.ms > ms);
      events.splice(i < 0 ? events.length : i, 0, e);
      arm();
      return () => {
        const at = events.indexOf(e);
        if (at < 0) return;
        events.splice(at, 1);
        // The wake armed for it goes too (a pending one keeps the process alive), unless it is another's.
        if (armed && armed.ms < (events[0]?.ms ?? Number.POSITIVE_INFINITY)) {
          armed.cancel();
          armed = undefined;
          arm();
        }
      };
    },
  };
}

/** The part of a wake's lateness its thread's own times leave unexplained, beyond the timer's grain, ms (see realTimers). */
export function machineStoppedMs(lateMs: number, before: OwnTimes | null, after: OwnTimes | null): number {
  if (!before || !after || lateMs <= 0 || after.majorFaults > before.majorFaults) return 0;
  const explainedMs = after.onCpuMs - before.onCpuMs + (after.waitingMs - before.waitingMs);
  return Math.max(0, lateMs - Math.max(0, explainedMs) - TIMER_GRAIN_MS);
}

export const isReal = (t: Timers): t is RealTimers => (t as Partial<RealTimers>).real === true;

/** Events in time order, then in the order they were set; `now` jumps from one to the next. */
export class VirtualTimers implements Timers {
  private t: number;
  private seq = 0;
  private readonly events: Array<{ ms: number; seq: number; fn: () => void; live: boolean }> = [];
  private running = false;

  constructor(startMs = 0) {
    this.t = startMs;
  }

  now(): number {
    return this.t;
  }

  at(ms: number, fn: () => void): () => void {
    const e = { ms: Math.max(ms, this.t), seq: this.seq++, fn, live: true };
    this.events.push(e);
    this.events.sort((a, b) => a.ms - b.ms || a.seq - b.seq);
    queueMicrotask(() => this.drain());
    return () => {
      e.live = false;
    };
  }

  private drain(): void {
    if (this.running) return;
    this.running = true;
    try {
      for (let e = this.events.shift(); e; e = this.events.shift()) {
        if (!e.live) continue;
        this.t = e.ms;
        e.fn();
      }
    } finally {
      this.running = false;
    }
  }
}
