/**
 * Several runs of one machine into one figure. A run's rounds share that run's moment of the
 * machine (rented VMs move 10-30% between runs, 2x between days), so rounds of different runs are
 * not exchangeable: the independent unit across runs is the run. Each run's geometric mean is one
 * draw; the interval on the machine's figure is a t interval over those draws, and the spread
 * between runs is estimated apart from the spread inside them (a random-effects split), to give what
 * a rerun may show. Pooling rounds while the runs' intervals overlapped (the earlier rule) hid a
 * between-run spread that two or three runs cannot show by overlap alone.
 */
import { logMeanInterval, stdev } from '../measure/stats.js';
import type { Combined } from './types.js';
import { betweenRuns } from '../measure/between-runs.js';

export { betweenRuns };

const geometricMean = (xs: number[]): number => Math.exp(xs.reduce((n, x) => n + Math.log(x), 0) / xs.length);

/** Each run's figures (round figures, or one aggregate for archives without rounds). */
export interface RunFigures {
  rounds: number[];
  point: number | null;
}

const overlap = (a: [number, number], b: [number, number]): boolean => a[0] <= b[1] && b[0] <= a[1];

/** The variance of a run's mean log from its own rounds (s^2 / n); null below two rounds. */
function withinVariance(rounds: readonly number[]): number | null {
  const sd = stdev(rounds.map(Math.log));
  return sd === null || rounds.length < 2 ? null : sd ** 2 / rounds.length;
}

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
        rerun: null,
        betweenPct: null,
      };
    }
    const intervals = own.map((i) => (i ? ([i.lo, i.hi] as [number, number]) : null));
    // Said, not acted on: overlap is how far apart two runs look, not a test that they agree.
    const disagree = intervals.some((a, i) =>
      intervals.some((b, j) => j > i && a !== null && b !== null && !overlap(a, b)),
    );
    const draws = logMeanInterval(perRun);
    const spread = betweenRuns(
      perRun,
      withRounds.map((r) => withinVariance(r.rounds)),
    );
    return {
      centre: geometricMean(perRun),
      interval: draws ? [draws.lo, draws.hi] : null,
      method: 'runs as draws',
      perRun,
      disagree,
      rerun: spread?.rerun ?? null,
      betweenPct: spread?.betweenPct ?? null,
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
    // Without rounds a run's own spread is unknown: the rerun range stands, the split does not.
    rerun:
      betweenRuns(
        points,
        points.map(() => null),
      )?.rerun ?? null,
    betweenPct: null,
  };
}

/** Round by round, a over b within each run (rounds where either did not run are left out). */
export function pairedRounds(a: Array<number | null>, b: Array<number | null>): number[] {
  return a.flatMap((x, i) => {
    const y = b[i];
    return x !== null && x > 0 && y !== null && y !== undefined && y > 0 ? [x / y] : [];
  });
}
