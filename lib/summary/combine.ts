/**
 * Several runs of one machine into one figure, the honest way: while every run's own interval
 * overlaps every other's, the runs agree and their rounds pool into one sample; once two do not
 * overlap, the machine moved between them (it does, by 2x on rented VMs) and each run counts as one
 * draw, so the interval carries the disagreement instead of hiding it.
 */
import { logMeanInterval } from '../measure/stats.js';
import type { Combined } from './types.js';

const geometricMean = (xs: number[]): number => Math.exp(xs.reduce((n, x) => n + Math.log(x), 0) / xs.length);

/** Each run's figures (round figures, or one aggregate for archives without rounds). */
export interface RunFigures {
  rounds: number[];
  point: number | null;
}

const overlap = (a: [number, number], b: [number, number]): boolean => a[0] <= b[1] && b[0] <= a[1];

export function combineRuns(runs: RunFigures[]): Combined | null {
  const withRounds = runs.filter((r) => r.rounds.length > 0 && r.rounds.every((x) => x > 0));
  if (withRounds.length === runs.length && runs.length > 0) {
    const own = withRounds.map((r) => logMeanInterval(r.rounds));
    const perRun = withRounds.map((r) => geometricMean(r.rounds));
    if (runs.length === 1) {
      const i = own[0] ?? null;
      return {
        centre: perRun[0] as number,
        interval: i ? [i.lo, i.hi] : null,
        method: 'one run',
        perRun,
        disagree: false,
      };
    }
    const intervals = own.map((i) => (i ? ([i.lo, i.hi] as [number, number]) : null));
    const disagree = intervals.some((a, i) =>
      intervals.some((b, j) => j > i && a !== null && b !== null && !overlap(a, b)),
    );
    const pooled = disagree ? logMeanInterval(perRun) : logMeanInterval(withRounds.flatMap((r) => r.rounds));
    const centre = disagree ? geometricMean(perRun) : geometricMean(withRounds.flatMap((r) => r.rounds));
    return {
      centre,
      interval: pooled ? [pooled.lo, pooled.hi] : null,
      method: disagree ? 'runs as draws' : 'pooled rounds',
      perRun,
      disagree,
    };
  }
  // Some run has no rounds: nothing but one figure per run.
  const points = runs
    .map((r) => (r.rounds.length > 0 ? geometricMean(r.rounds.filter((x) => x > 0)) : r.point))
    .filter((x): x is number => x !== null && x > 0);
  if (points.length === 0) return null;
  const draws = points.length >= 2 ? logMeanInterval(points) : null;
  return {
    centre: geometricMean(points),
    interval: draws ? [draws.lo, draws.hi] : null,
    method: points.length >= 2 ? 'runs as draws' : 'no rounds',
    perRun: points,
    disagree: false,
  };
}

/** Round by round, a over b within each run (rounds where either did not run are left out). */
export function pairedRounds(a: Array<number | null>, b: Array<number | null>): number[] {
  return a.flatMap((x, i) => {
    const y = b[i];
    return x !== null && x > 0 && y !== null && y !== undefined && y > 0 ? [x / y] : [];
  });
}
