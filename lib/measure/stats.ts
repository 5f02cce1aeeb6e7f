import { maxOf, minOf } from '../core/extremes.js';
import { studentQuantile } from './student.js';
export interface Summary {
  min: number | null;
  max: number | null;
  mediane: number | null;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** The original script's summary: min, max, median. */
export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) return { min: null, max: null, mediane: null };
  return { min: minOf(values), max: maxOf(values), mediane: median(values) };
}

export interface Distribution {
  n: number;
  mean: number | null;
  stdev: number | null;
  /** Third quartile minus first (linear interpolation between order statistics). */
  iqr: number | null;
  /** Nearest-rank 95th percentile; with fewer than 20 values it is the maximum, and says so. */
  p95: number | null;
  p95_label: string;
}

function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (pos - lo);
}

/** Sample standard deviation (n - 1). */
export function stdev(values: readonly number[]): number | null {
  if (values.length < 2) return null;
  const m = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, v) => a + (v - m) ** 2, 0) / (values.length - 1));
}

export function distribution(values: readonly number[]): Distribution {
  const n = values.length;
  if (n === 0) return { n, mean: null, stdev: null, iqr: null, p95: null, p95_label: 'no value' };
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil(0.95 * n);
  return {
    n,
    mean: values.reduce((a, b) => a + b, 0) / n,
    stdev: stdev(values),
    iqr: quantile(sorted, 0.75) - quantile(sorted, 0.25),
    p95: sorted[rank - 1] as number,
    p95_label: n < 20 ? `max of ${n}` : 'p95 (nearest rank)',
  };
}

/** Upper control limit: mean + 3 sigma (null with fewer than 2 values). */
export function upperControlLimit(values: readonly number[]): number | null {
  const s = stdev(values);
  if (s === null) return null;
  return values.reduce((a, b) => a + b, 0) / values.length + 3 * s;
}

/** Below this many values an interquartile range says nothing: a spread is then unknown. */
export const MIN_PASSES_FOR_SPREAD = 4;

/** Two-sided 95% Student t quantiles, df 1 to 30 (standard table values). */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/** The 0.975 quantile of Student's t with `df` degrees of freedom (beyond 30, 1.96 + 2.5/df, within 0.002). */
export function tQuantile975(df: number): number {
  if (!Number.isInteger(df) || df < 1)
    throw new RangeError(`degrees of freedom must be a whole number >= 1, got ${df}`);
  return T975[df - 1] ?? 1.96 + 2.5 / df;
}

/** Rounds below which no interval between rounds exists: a spread needs two. */
export const MIN_ROUNDS_TO_DECIDE = 2;

/**
 * 95% interval of a multiplicative effect from one figure per round: the t interval of the mean of
 * their logs, as factors. Rounds are the independent replicates (each ran every arm, in a shuffled
 * order, at its own moment), so drift between them is inside the interval. null below 2 rounds.
 */
export function logMeanInterval(
  perRound: readonly number[],
): { centre: number; halfWidth: number; lo: number; hi: number } | null {
  const logs = perRound.filter((v) => Number.isFinite(v) && v > 0).map(Math.log);
  if (logs.length < MIN_ROUNDS_TO_DECIDE || logs.length < perRound.length) return null;
  const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
  const h = (tQuantile975(logs.length - 1) * (stdev(logs) ?? 0)) / Math.sqrt(logs.length);
  return { centre: Math.exp(mean), halfWidth: h, lo: Math.exp(mean - h), hi: Math.exp(mean + h) };
}

/**
 * The two-sided interval of exp(mean log) at any `confidence` (a family's level, not only 95%): the
 * t interval of the logs, as factors; null below MIN_ROUNDS_TO_DECIDE values.
 */
export function ratioInterval(logs: readonly number[], confidence: number): [number, number] | null {
  if (logs.length < MIN_ROUNDS_TO_DECIDE) return null;
  const mean = logs.reduce((s, v) => s + v, 0) / logs.length;
  const half =
    (studentQuantile(1 - (1 - confidence) / 2, logs.length - 1) * (stdev(logs) ?? 0)) / Math.sqrt(logs.length);
  return [Math.exp(mean - half), Math.exp(mean + half)];
}
