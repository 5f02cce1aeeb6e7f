/**
 * Time for a capacity trial. The real clock is the system monotonic clock with setTimeout; the
 * virtual one runs events in time order without waiting, so a trial driven by fake workers gives
 * figures that can be computed by hand (tests).
 */
import { timerMs } from '../../core/timer.js';
import { monotonicMs } from '../../measure/clock.js';

export interface Timers {
  now(): number;
  /** Call `fn` at `ms` (or at once when that has passed); returns a cancel. */
  at(ms: number, fn: () => void): () => void;
}

export interface RealTimers extends Timers {
  readonly real: true;
}

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
 */
export function realTimers(spinMs: number, wake: Wake = wakeAfter): RealTimers {
  const events: Array<{ ms: number; fn: () => void }> = [];
  let armed: { ms: number; cancel: () => void } | undefined;
  const arm = (): void => {
    const head = events[0];
    if (!head || (armed && armed.ms <= head.ms)) return;
    armed?.cancel();
    armed = { ms: head.ms, cancel: wake(fire, Math.max(0, head.ms - monotonicMs() - spinMs)) };
  };
  // Every event due within the spin runs in this wake, each at its instant.
  function fire(): void {
    armed = undefined;
    try {
      for (let head = events[0]; head && head.ms - monotonicMs() <= spinMs; head = events[0]) {
        events.shift();
        while (monotonicMs() < head.ms) {
          // Spin the last moment: an arrival must be on time (the arrivals control allows 5 ms).
        }
        head.fn();
      }
    } finally {
      arm();
    }
  }
  return {
    real: true,
    now: monotonicMs,
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
