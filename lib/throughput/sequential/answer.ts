/**
 * One question's answer at a look, from the rounds' log ratios of A over B and the look's level: a
 * winner (the interval excludes 1), no difference beyond the margin (the interval inside it), or
 * still open. A question closed without either says what it can: A not slower than B by more than
 * the margin (non-inferiority: one bound beyond the margin on the side it protects), and about how
 * many more rounds would settle it at the spread seen.
 */
import { stdev } from '../../measure/stats.js';
import { studentQuantile } from '../../measure/student.js';

export type AnswerState = 'winner' | 'equivalent' | 'non-inferior' | 'open' | 'not-resolved';

export interface Judged {
  state: AnswerState;
  /** A over B, exp(mean log); null without a round. */
  ratio: number | null;
  interval: [number, number] | null;
  rounds: number;
  /** For a non-inferior answer: the layout protected ('a' is not slower than 'b' by more than the margin). */
  protects?: 'a' | 'b';
  /** For one not settled: about this many more rounds at the spread seen (null: no spread to go on). */
  moreRounds?: number | null;
}

/** log(1 / (1 - m)): the margin on the log scale, [0.94, 1.064] for 6%. */
export const logMargin = (marginPct: number): number => -Math.log(1 - marginPct / 100);

const quantiles = new Map<string, number>();
/** Two-sided t quantile at `confidence`, cached: futility searches ask for many. */
export function tAt(confidence: number, df: number): number {
  const key = `${confidence}|${df}`;
  let q = quantiles.get(key);
  if (q === undefined) {
    q = studentQuantile(1 - (1 - confidence) / 2, df);
    quantiles.set(key, q);
  }
  return q;
}

/** The mean log ratio and its sample spread (0 below two rounds). */
function meanSd(logs: readonly number[]): { mean: number; sd: number } {
  return { mean: logs.reduce((s, v) => s + v, 0) / Math.max(1, logs.length), sd: stdev(logs) ?? 0 };
}

/** The look's interval and what it settles: winner, equivalent, or open. */
export function judgeLogs(logs: readonly number[], confidence: number, marginPct: number): Judged {
  const n = logs.length;
  if (n < 2) return { state: 'open', ratio: n === 1 ? Math.exp(logs[0] ?? 0) : null, interval: null, rounds: n };
  const { mean, sd } = meanSd(logs);
  const half = (tAt(confidence, n - 1) * sd) / Math.sqrt(n);
  const interval: [number, number] = [Math.exp(mean - half), Math.exp(mean + half)];
  const m = logMargin(marginPct);
  const state: AnswerState =
    mean - half > 0 || mean + half < 0 ? 'winner' : mean - half >= -m && mean + half <= m ? 'equivalent' : 'open';
  return { state, ratio: Math.exp(mean), interval, rounds: n };
}

/**
 * Rounds at which, at the spread and ratio seen, the interval would settle the question (exclude 1,
 * or fit the margin): the smallest n with t(n-1) s / sqrt(n) below the larger of |d| and m - |d|.
 * Null without a spread; `cap` when even that many would not do.
 */
export function roundsToSettle(
  logs: readonly number[],
  confidence: number,
  marginPct: number,
  cap = 1000,
): number | null {
  if (logs.length < 2) return null;
  const { mean, sd } = meanSd(logs);
  if (sd === 0) return logs.length;
  const target = Math.max(Math.abs(mean), logMargin(marginPct) - Math.abs(mean));
  for (let n = logs.length; n < cap; n += 1) if ((tAt(confidence, n - 1) * sd) / Math.sqrt(n) < target) return n;
  return cap;
}

/** A question that ends without a winner or an equivalence: non-inferior if a bound allows, else not resolved. */
export function closeUnsettled(j: Judged, logs: readonly number[], confidence: number, marginPct: number): Judged {
  if (j.state === 'winner' || j.state === 'equivalent') return j;
  const m = logMargin(marginPct);
  const more = roundsToSettle(logs, confidence, marginPct);
  const moreRounds = more === null ? null : Math.max(1, more - logs.length);
  if (j.interval && Math.log(j.interval[0]) >= -m) return { ...j, state: 'non-inferior', protects: 'a', moreRounds };
  if (j.interval && Math.log(j.interval[1]) <= m) return { ...j, state: 'non-inferior', protects: 'b', moreRounds };
  return { ...j, state: 'not-resolved', moreRounds };
}
