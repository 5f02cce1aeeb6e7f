/** The longest delay Node's timers hold: 2^31 - 1 ms (24.8 days). A longer one fires after 1 ms, with a warning. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A delay a timer can hold. Past the longest it is the longest: a user's --server-timeout-s at its maximum, plus a
 * second of grace, or a stream's text time at a tiny --text-rate, would otherwise time out at once.
 */
export const timerMs = (ms: number): number => Math.min(Math.max(0, ms), MAX_TIMER_MS);
