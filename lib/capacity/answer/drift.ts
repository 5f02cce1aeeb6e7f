/**
 * How far the machine itself moved during a run. Layouts and rounds are interleaved, so every third
 * of the run's span (start, middle, end) holds trials of many (voice, layout, K) groups: an additive
 * fit of log S on the group and the third separates the machine's level in each third from what the
 * groups are. Drift is "seen" when the slowest and fastest thirds differ beyond the trials' own
 * noise (a t test between them, Bonferroni over the pairs of thirds, 5%). Only then is it folded into
 * what a rerun may answer: a rerun may run wholly at the slowest (or fastest) level this run saw.
 */
import { maxOf, minOf } from '../../core/extremes.js';
import { studentQuantile } from '../../measure/student.js';
import type { TrialRecord } from '../archive/schema.js';

/** One whole trial as the drift sees it. */
export interface DriftPoint {
  /** What the trial measured: trials of one group differ only by the machine's state and noise. */
  group: string;
  atMs: number;
  logS: number;
  /** The share of the cores' time stolen during it (null: unread). */
  steal: number | null;
}

export interface DriftThird {
  fromMs: number;
  toMs: number;
  trials: number;
  /** The machine's speed in this third over its mean over the run (1.0 = the mean; 0.8 = 20% slower). */
  level: number | null;
  /** Mean steal share of its trials, null where none was read. */
  steal: number | null;
}

export interface DriftSeen {
  thirds: DriftThird[];
  /** Trials in the fit (groups with at least two whole trials). */
  trials: number;
  /** Fastest third's level over the slowest's, less 1 (0.25: the machine ran 25% faster at its best). */
  range: number | null;
  /** The difference is beyond the trials' noise. */
  seen: boolean;
  /** Log shifts of a rerun's level the prediction allows: the slowest and fastest third's, 0 when not seen. */
  lowLog: number;
  highLog: number;
}

/** The family error rate of the test between thirds. */
export const DRIFT_ALPHA = 0.05;

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The whole trials a drift reads: controls held, run to their end, with a live speed. */
export function driftPoints(trials: readonly TrialRecord[]): DriftPoint[] {
  return trials
    .filter((t) => t.controle_tenu && t.but === 'sans_trou' && t.etat === 'done' && (t.debit_vivant ?? 0) > 0)
    .map((t) => ({
      group: `${t.voix}|${t.disposition}|${t.flux}`,
      atMs: t.debut_ms,
      logS: Math.log(t.debit_vivant as number),
      steal: t.vol_cpu ?? null,
    }));
}

/** Group and third effects by alternating means (backfitting); the thirds' effects centred on the trials' mean. */
function fit(points: readonly DriftPoint[], third: readonly number[]): { g: Map<string, number>; h: number[] } {
  const names = [...new Set(points.map((p) => p.group))];
  const index = new Map(names.map((n, i) => [n, i]));
  const gi = points.map((p) => index.get(p.group) as number);
  const gCount = names.map((_, i) => gi.filter((x) => x === i).length);
  const hCount = [0, 1, 2].map((j) => third.filter((t) => t === j).length);
  const g = names.map(() => 0);
  const h = [0, 0, 0];
  for (let iter = 0; iter < 60; iter += 1) {
    g.fill(0);
    points.forEach(
      (p, i) => (g[gi[i] as number] = (g[gi[i] as number] as number) + p.logS - (h[third[i] as number] as number)),
    );
    for (let k = 0; k < g.length; k += 1) g[k] = (g[k] as number) / (gCount[k] as number);
    h.fill(0);
    points.forEach(
      (p, i) => (h[third[i] as number] = (h[third[i] as number] as number) + p.logS - (g[gi[i] as number] as number)),
    );
    for (let j = 0; j < 3; j += 1) h[j] = (hCount[j] as number) > 0 ? (h[j] as number) / (hCount[j] as number) : 0;
    const centre = h.reduce((s, v, j) => s + v * (hCount[j] as number), 0) / points.length;
    for (let j = 0; j < 3; j += 1) h[j] = (h[j] as number) - centre;
  }
  return { g: new Map(names.map((n, i) => [n, g[i] as number])), h };
}

export function driftOf(all: readonly DriftPoint[]): DriftSeen {
  const sizes = new Map<string, number>();
  for (const p of all) sizes.set(p.group, (sizes.get(p.group) ?? 0) + 1);
  const points = all.filter((p) => (sizes.get(p.group) ?? 0) >= 2);
  const none: DriftSeen = { thirds: [], trials: points.length, range: null, seen: false, lowLog: 0, highLog: 0 };
  if (points.length < 4) return none;
  const t0 = minOf(points.map((p) => p.atMs));
  const t1 = maxOf(points.map((p) => p.atMs));
  const width = (t1 - t0) / 3;
  const third = points.map((p) => (width > 0 ? Math.min(2, Math.floor((p.atMs - t0) / width)) : 0));
  const { g, h } = fit(points, third);
  const counts = [0, 1, 2].map((j) => third.filter((t) => t === j).length);
  const filled = [0, 1, 2].filter((j) => (counts[j] as number) > 0);
  const groups = new Set(points.map((p) => p.group)).size;
  const df = points.length - groups - (filled.length - 1);
  const residuals = points.map((p, i) => p.logS - (g.get(p.group) ?? 0) - (h[third[i] as number] ?? 0));
  const sp = df > 0 ? Math.sqrt(residuals.reduce((s, r) => s + r * r, 0) / df) : Number.NaN;
  const thirds: DriftThird[] = [0, 1, 2].map((j) => {
    const steals = points.flatMap((p, i) => (third[i] === j && p.steal !== null ? [p.steal] : []));
    return {
      fromMs: t0 + j * width,
      toMs: t0 + (j + 1) * width,
      trials: counts[j] as number,
      level: (counts[j] as number) > 0 ? Math.exp(h[j] as number) : null,
      steal: steals.length > 0 ? mean(steals) : null,
    };
  });
  if (filled.length < 2) return { ...none, thirds };
  const lo = filled.reduce((a, b) => ((h[b] as number) < (h[a] as number) ? b : a));
  const hi = filled.reduce((a, b) => ((h[b] as number) > (h[a] as number) ? b : a));
  const d = (h[hi] as number) - (h[lo] as number);
  const pairs = (filled.length * (filled.length - 1)) / 2;
  let seen: boolean;
  if (!(df >= 2) || !Number.isFinite(sp)) seen = false;
  else if (sp < 1e-9) seen = d > 1e-6;
  else {
    const se = sp * Math.sqrt(1 / (counts[hi] as number) + 1 / (counts[lo] as number));
    seen = d / se > studentQuantile(1 - DRIFT_ALPHA / (2 * pairs), df);
  }
  // A third's level is itself estimated, and the third where the machine moved mixes both levels: the fold reaches one
  // standard error past the slowest and the fastest (seeded simulation: 94.9% covered without it, docs/statistics.md).
  const past = (j: number): number => (Number.isFinite(sp) ? sp / Math.sqrt(counts[j] as number) : 0);
  return {
    thirds,
    trials: points.length,
    range: Math.exp(d) - 1,
    seen,
    lowLog: seen ? Math.min(0, (h[lo] as number) - past(lo)) : 0,
    highLog: seen ? Math.max(0, (h[hi] as number) + past(hi)) : 0,
  };
}
