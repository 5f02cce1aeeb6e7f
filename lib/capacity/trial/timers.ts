/**
 * Time for a capacity trial. The real clock is the system monotonic clock with setTimeout; the
 * virtual one runs events in time order without waiting, so a trial driven by fake workers gives
 * figures that can be computed by hand (tests).
 */
import { monotonicMs } from '../../measure/clock.js';

export interface Timers {
  now(): number;
  /** Call `fn` at `ms` (or at once when that has passed); returns a cancel. */
  at(ms: number, fn: () => void): () => void;
}

export interface RealTimers extends Timers {
  readonly real: true;
}

/**
 * The wall clock: a timer wakes `spinMs` early, then spins to the instant. setTimeout alone is often
 * 1-2 ms late, later still when the parent is not scheduled at once; under SCHED_FIFO (see
 * priority.ts) a 1 ms spin was within 0.08 ms here, at normal priority 5 ms is needed and not always
 * enough. The spin is the parent's CPU, taken from the workers: no longer than it must be.
 */
export function realTimers(spinMs: number): RealTimers {
  return {
    real: true,
    now: monotonicMs,
    at: (ms, fn) => {
      const t = setTimeout(
        () => {
          while (monotonicMs() < ms) {
            // Spin the last moment: an arrival must be on time (the arrivals control allows 5 ms).
          }
          fn();
        },
        Math.max(0, ms - monotonicMs() - spinMs),
      );
      return () => clearTimeout(t);
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
