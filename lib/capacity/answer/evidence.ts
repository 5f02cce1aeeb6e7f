/**
 * How sure a capacity answer is, from counts alone: a 95% upper bound on the chance that a
 * listener hears a gap (Clopper-Pearson, one-sided), and a bound on a percentile of the time to
 * first audio from an order statistic (the binomial argument MLPerf LoadGen's early stopping uses
 * for tail latency). No distribution is assumed.
 */
import { maxOf } from '../../core/extremes.js';

export const CONFIDENCE = 0.95;

function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i += 1) s += Math.log((n - k + i) / i);
  return s;
}

/** P(X <= x) for X ~ Binomial(n, p), summed in log space so large n does not underflow. */
export function binomialCdf(x: number, n: number, p: number): number {
  if (x < 0) return 0;
  if (x >= n || p <= 0) return 1;
  if (p >= 1) return 0;
  const lp = Math.log(p);
  const lq = Math.log1p(-p);
  const terms = Array.from({ length: Math.floor(x) + 1 }, (_, k) => logChoose(n, k) + k * lp + (n - k) * lq);
  const top = maxOf(terms);
  return Math.min(1, Math.exp(top) * terms.reduce((s, t) => s + Math.exp(t - top), 0));
}

/**
 * The one-sided upper confidence bound on a rate from `events` in `trials` (Clopper-Pearson):
 * the largest rate under which seeing `events` or fewer still has a chance of at least 5%.
 * With no event it is 1 - 0.05^(1/n), about 3/n. null with no trial (nothing is known).
 */
export function rateUpperBound(events: number, trials: number, confidence = CONFIDENCE): number | null {
  if (trials <= 0) return null;
  const alpha = 1 - confidence;
  if (events <= 0) return 1 - alpha ** (1 / trials);
  if (events >= trials) return 1;
  let lo = events / trials;
  let hi = 1;
  for (let i = 0; i < 60; i += 1) {
    const mid = (lo + hi) / 2;
    if (binomialCdf(events, trials, mid) > alpha) lo = mid;
    else hi = mid;
  }
  return hi;
}

export interface QuantileBound {
  /** The value no more than (1 - quantile) of the population exceeds, with the given confidence. */
  valueMs: number;
  /** The quantile that value bounds (0-1): the one asked for, or, when the sample is too small for it, the highest it can bound. */
  quantile: number;
  /** The sample is large enough to bound the quantile asked for. */
  reached: boolean;
}

/**
 * An upper confidence bound on a quantile: the r-th smallest value, r the smallest rank for which
 * fewer than r of n draws fall below the quantile with probability >= confidence. When even the
 * largest value is too low a rank (n < about 59 for the 95th percentile at 95%), the largest value
 * is returned with the quantile it does bound, (1 - confidence)^(1/n): the worst of 18 listeners
 * bounds the 84th percentile, not the 95th.
 */
export function quantileUpperBound(
  values: readonly number[],
  quantile = 0.95,
  confidence = CONFIDENCE,
): QuantileBound | null {
  const n = values.length;
  if (n === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  for (let r = 1; r <= n; r += 1) {
    if (binomialCdf(r - 1, n, quantile) >= confidence)
      return { valueMs: sorted[r - 1] as number, quantile, reached: true };
  }
  return { valueMs: sorted[n - 1] as number, quantile: (1 - confidence) ** (1 / n), reached: false };
}

/** A share as a whole percentage, rounded up so a bound is never understated. */
export const percentUp = (share: number): number => Math.ceil(share * 100 - 1e-9);
