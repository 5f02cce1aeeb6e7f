/**
 * How far the machine itself moved during a run. Layouts and rounds are interleaved, and a fixed reference (one
 * layout, one K, fresh workers: run/reference.ts) runs at the start, middle and end, so every third of the run's span
 * holds trials of several (voice, layout, K) groups: an additive fit of log S on the group and the third separates the
 * machine's level in each third from what the groups are. Only groups seen in two thirds or more inform it (a group
 * seen in one third only says nothing of the thirds; in the seeded simulation, counting it made false drift 5.75%, not 5.1%).
 *
 * The levels are always folded into what a rerun may answer, shrunk toward none by their own noise (empirical Bayes:
 * a third's shift is kept in the share tau^2 / (tau^2 + se^2) that the spread between thirds shows beyond their
 * standard errors), so there is no switch that makes a published number jump between runs either side of it.
 * "Seen" (a t test between the slowest and fastest thirds, Bonferroni, 5%) only chooses the words.
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

/** The reference's own speeds, in order: what the machine gave one fixed load at the start, middle and end. */
export interface DriftReference {
  group: string;
  speeds: Array<{ atMs: number; speed: number }>;
}

export interface DriftSeen {
  thirds: DriftThird[];
  /** Trials in the fit (groups with at least two whole trials). */
  trials: number;
  /** Fastest third's level over the slowest's, less 1 (0.25: the machine ran 25% faster at its best). */
  range: number | null;
  /** The difference is beyond the trials' noise. */
  seen: boolean;
  /** Log shifts of a rerun's level the prediction allows: the slowest and fastest third's, shrunk by their noise. */
  lowLog: number;
  highLog: number;
  /** The share of the thirds' shifts kept (0: all noise, 1: none of it): tau^2 / (tau^2 + se^2) at the slowest third. */
  shrink: number;
  reference: DriftReference | null;
}

/** The family error rate of the test between thirds. */
export const DRIFT_ALPHA = 0.05;

/**
 * tau^2 counts the thirds' spread beyond this many times their squared standard errors: at 1 (the unbiased moment) a
 * steady machine's chance spread widened its ranges by 0.18 listener on average, at 2 by 0.07, for the same coverage
 * under a 25% drop (seeded simulation, test/capacity/answer/drift.test.ts; docs/contributing/statistics.md).
 */
export const NOISE_SHARE = 2;

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Group of the run's reference trials (run/reference.ts): apart from the search's trials at the same K. */
export const REFERENCE_GROUP = 'reference|';

/** The whole trials a drift reads: controls held, run to their end, with a live speed; the reference's among them. */
export function driftPoints(trials: readonly TrialRecord[]): DriftPoint[] {
  return trials
    .filter(
      (t) =>
        t.controle_tenu &&
        (t.but === 'sans_trou' || t.but === 'reference') &&
        t.etat === 'done' &&
        (t.debit_vivant ?? 0) > 0,
    )
    .map((t) => ({
      group: `${t.but === 'reference' ? REFERENCE_GROUP : ''}${t.voix}|${t.disposition}|${t.flux}`,
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

function referenceOf(points: readonly DriftPoint[]): DriftReference | null {
  const mine = points.filter((p) => p.group.startsWith(REFERENCE_GROUP));
  if (mine.length === 0) return null;
  return {
    group: (mine[0] as DriftPoint).group.slice(REFERENCE_GROUP.length),
    speeds: mine.map((p) => ({ atMs: p.atMs, speed: Math.exp(p.logS) })),
  };
}

/** Which third of [t0, t1] each point's start falls in (0, 1, 2). */
function thirdsOf(points: readonly DriftPoint[]): { third: number[]; t0: number; width: number } {
  const t0 = minOf(points.map((p) => p.atMs));
  const width = (maxOf(points.map((p) => p.atMs)) - t0) / 3;
  return { third: points.map((p) => (width > 0 ? Math.min(2, Math.floor((p.atMs - t0) / width)) : 0)), t0, width };
}

/** Points of groups with two trials or more, seen in two thirds or more: what the fit reads. */
function informative(all: readonly DriftPoint[]): DriftPoint[] {
  const sizes = new Map<string, number>();
  for (const p of all) sizes.set(p.group, (sizes.get(p.group) ?? 0) + 1);
  const multi = all.filter((p) => (sizes.get(p.group) ?? 0) >= 2);
  if (multi.length === 0) return [];
  const { third } = thirdsOf(multi);
  const spans = new Map<string, Set<number>>();
  multi.forEach((p, i) => spans.set(p.group, (spans.get(p.group) ?? new Set()).add(third[i] as number)));
  return multi.filter((p) => (spans.get(p.group)?.size ?? 0) >= 2);
}

export function driftOf(all: readonly DriftPoint[]): DriftSeen {
  const points = informative(all);
  const reference = referenceOf(all);
  const none: DriftSeen = {
    thirds: [],
    trials: points.length,
    range: null,
    seen: false,
    lowLog: 0,
    highLog: 0,
    shrink: 0,
    reference,
  };
  if (points.length < 4) return none;
  const { third, t0, width } = thirdsOf(points);
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
  if (filled.length < 2 || !(df >= 2) || !Number.isFinite(sp)) return { ...none, thirds };
  const lo = filled.reduce((a, b) => ((h[b] as number) < (h[a] as number) ? b : a));
  const hi = filled.reduce((a, b) => ((h[b] as number) > (h[a] as number) ? b : a));
  const d = (h[hi] as number) - (h[lo] as number);
  const pairs = (filled.length * (filled.length - 1)) / 2;
  const se = (j: number): number => sp / Math.sqrt(counts[j] as number);
  const seen =
    sp < 1e-9
      ? d > 1e-6
      : d / (sp * Math.sqrt(1 / (counts[hi] as number) + 1 / (counts[lo] as number))) >
        studentQuantile(1 - DRIFT_ALPHA / (2 * pairs), df);
  // The spread between thirds beyond what their standard errors make: tau^2, the machine's own (0 on a steady one).
  const tau2 = Math.max(0, mean(filled.map((j) => (h[j] as number) ** 2 - NOISE_SHARE * se(j) ** 2)));
  const keep = (j: number): number => (tau2 + se(j) ** 2 > 0 ? tau2 / (tau2 + se(j) ** 2) : 1);
  // A third's level is itself estimated, and the third where the machine moved mixes both levels: the fold reaches one
  // standard error past the slowest and the fastest, in the share kept (docs/contributing/statistics.md).
  return {
    thirds,
    trials: points.length,
    range: Math.exp(d) - 1,
    seen,
    lowLog: Math.min(0, keep(lo) * (h[lo] as number) - keep(lo) ** 2 * se(lo)),
    highLog: Math.max(0, keep(hi) * (h[hi] as number) + keep(hi) ** 2 * se(hi)),
    shrink: keep(lo),
    reference,
  };
}
