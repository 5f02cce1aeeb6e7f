import { Prng } from '../prng.js';

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

/**
 * 95% percentile-bootstrap interval of the median, seeded so the same values always give the
 * same interval.
 */
export function bootstrapMedianCi(values: readonly number[], seed = 1, resamples = 2000): [number, number] | null {
  if (values.length === 0) return null;
  const rng = new Prng(seed);
  const medians = new Float64Array(resamples);
  const sample = new Array<number>(values.length);
  for (let r = 0; r < resamples; r += 1) {
    for (let i = 0; i < values.length; i += 1) sample[i] = values[Math.floor(rng.next() * values.length)] as number;
    medians[r] = median(sample);
  }
  medians.sort();
  return [quantile(Array.from(medians), 0.025), quantile(Array.from(medians), 0.975)];
}
