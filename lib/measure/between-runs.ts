/** The spread between runs of one machine, apart from the spread inside each run. */
import { chiSquareQuantile } from './chi-square.js';
import { stdev, tQuantile975 } from './stats.js';

/**
 * From R >= 2 draws (log means) and each run's own variance of its mean: the spread between runs
 * (tau, method of moments: the draws' variance less the average within-run part, never below 0) and
 * the 95% prediction interval of the next run's figure, m +- t(R-1) s sqrt(1 + 1/R).
 */
export function betweenRuns(
  perRun: readonly number[],
  within: ReadonlyArray<number | null>,
): { betweenPct: number | null; rerun: [number, number] } | null {
  if (perRun.length < 2) return null;
  const logs = perRun.map(Math.log);
  const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
  const s = stdev(logs) ?? 0;
  const half = tQuantile975(logs.length - 1) * s * Math.sqrt(1 + 1 / logs.length);
  const known = within.filter((v): v is number => v !== null);
  const tau2 =
    known.length === within.length ? Math.max(0, s ** 2 - known.reduce((a, b) => a + b, 0) / known.length) : null;
  return {
    betweenPct: tau2 === null ? null : (Math.exp(Math.sqrt(tau2)) - 1) * 100,
    rerun: [Math.exp(mean - half), Math.exp(mean + half)],
  };
}

/**
 * A one-sided upper confidence bound, at `level`, on the spread between runs (log sd): over R runs the draws' variance
 * s^2 is the truth times chi2(R-1) / (R-1), so the truth's bound is (R-1) s^2 / chi2 quantile at 1 - level, less the
 * average within-run part. Null below 2 runs or where a run's own spread is unknown.
 */
export function betweenRunsUpper(
  perRun: readonly number[],
  within: ReadonlyArray<number | null>,
  level: number,
): number | null {
  if (perRun.length < 2 || within.some((v) => v === null)) return null;
  const logs = perRun.map(Math.log);
  const s = stdev(logs) ?? 0;
  const df = logs.length - 1;
  const total = (df * s ** 2) / chiSquareQuantile(1 - level, df);
  const inside = (within as readonly number[]).reduce((a, b) => a + b, 0) / within.length;
  return Math.sqrt(Math.max(0, total - inside));
}
