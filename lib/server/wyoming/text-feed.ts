/**
 * Streamed text sent at a pace, in order. One timer is pending at a time, armed for the next piece once the one
 * before has gone: a timer per piece would race, and Node 24 was seen here to fire two pending timers of different
 * delays in the wrong order (2 runs in 200 of 60 timers 2.25 ms apart), which sent a server "à 3 bientôt. pommes"
 * for "à bientôt. 3 pommes".
 */
import { timerMs } from '../../core/timer.js';

export interface TimedPiece<T> {
  /** When it is due, ms after the feed starts. */
  atMs: number;
  item: T;
}

export interface FeedClock {
  /** ms since the feed started. */
  elapsedMs: () => number;
  /** Calls fn after ms; returns a cancel. */
  after: (ms: number, fn: () => void) => () => void;
}

/** Sends every piece at or after its time, in the order given; returns a cancel for what has not gone yet. */
export function feedInOrder<T>(
  pieces: readonly TimedPiece<T>[],
  send: (item: T) => void,
  clock: FeedClock,
): () => void {
  let next = 0;
  let cancel: (() => void) | undefined;
  let stopped = false;
  const step = (): void => {
    cancel = undefined;
    while (!stopped && next < pieces.length && (pieces[next] as TimedPiece<T>).atMs <= clock.elapsedMs())
      send((pieces[next++] as TimedPiece<T>).item);
    if (stopped || next >= pieces.length) return;
    cancel = clock.after(Math.max(0, (pieces[next] as TimedPiece<T>).atMs - clock.elapsedMs()), step);
  };
  step();
  return () => {
    stopped = true;
    cancel?.();
  };
}

/** The real clock, from now. */
export function wallFeedClock(): FeedClock {
  const startMs = performance.now();
  return {
    elapsedMs: () => performance.now() - startMs,
    after: (ms, fn) => {
      const t = setTimeout(fn, timerMs(ms));
      return () => clearTimeout(t);
    },
  };
}
