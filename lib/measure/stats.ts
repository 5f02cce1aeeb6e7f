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
  return { min: Math.min(...values), max: Math.max(...values), mediane: median(values) };
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

/** P(X <= k) for X ~ Binomial(n, 1/2): how often at most k of n values fall below the true median. */
export function binomialHalfCdf(k: number, n: number): number {
  if (k < 0) return 0;
  let term = 0.5 ** n;
  let sum = term;
  for (let i = 1; i <= Math.min(k, n); i += 1) {
    term = (term * (n - i + 1)) / i;
    sum += term;
  }
  return Math.min(1, sum);
}

/** The coverage of [x_(j), x_(n+1-j)] (order statistics, 1-based) as an interval of the median. */
export function orderIntervalCoverage(j: number, n: number): number {
  return 1 - 2 * binomialHalfCdf(j - 1, n);
}

/**
 * The fewest values whose widest order-statistic interval, [min, max], covers the median with at
 * least `level`: 1 - 2 x 0.5^n >= level. For 95% that is 6. Below it no interval of the median can
 * honestly be called 95%, so nothing is decided on fewer values.
 */
export function minimumValuesFor(level = 0.95): number {
  let n = 1;
  while (orderIntervalCoverage(1, n) < level) n += 1;
  return n;
}

/** Values (passes) below which an arm's interval does not exist and no comparison resolves. */
export const MIN_PASSES_TO_DECIDE = minimumValuesFor(0.95);

/**
 * Distribution-free interval of the median: the narrowest order-statistic interval [x_(j), x_(n+1-j)]
 * whose coverage is at least `level`, whatever the distribution (binomial argument, no resampling).
 * null when even [min, max] covers less than `level` (fewer than MIN_PASSES_TO_DECIDE values at 95%).
 */
export function medianInterval(values: readonly number[], level = 0.95): [number, number] | null {
  const n = values.length;
  if (n === 0 || orderIntervalCoverage(1, n) < level) return null;
  const sorted = [...values].sort((a, b) => a - b);
  let j = 1;
  while (orderIntervalCoverage(j + 1, n) >= level && j + 1 <= n + 1 - (j + 1)) j += 1;
  return [sorted[j - 1] as number, sorted[n - j] as number];
}
