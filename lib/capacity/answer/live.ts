/**
 * The live speed S of a layout at its answer, with its interval, and what follows from it: the
 * answer (the most listeners confirmed without a gap whose pace at S's lower bound stays at x1),
 * the headroom there, and the answers a rerun may give. The independent unit is the round: a
 * layout's trials in one round's turn run back to back on the same workers (one pool a turn), so they
 * share those workers' speed and that moment of the machine; each round's turn has fresh workers at its
 * own moment. S's interval and the prediction rest on one value per round (its trials' mean log S),
 * with t on R - 1 degrees of freedom: counting the trials of one turn as independent narrows them by
 * 1.7 to 2.4 times and covers less than it says (test/capacity/answer/live.test.ts).
 */
import { stdev } from '../../measure/stats.js';
import { studentQuantile } from '../../measure/student.js';
import type { TrialRecord } from '../archive/schema.js';

/**
 * The spread of a run's mean log S around the machine's, from one run to the next on one machine
 * (a standard deviation of log S). Assumed 5% until `summary` measures it over three runs or more
 * (docs/capacity.md shows it against three default runs).
 */
export const DEFAULT_DRIFT_SD = 0.05;
/** The share of reruns whose answer the prediction is built to contain. */
export const PREDICTION_COVERAGE = 0.95;
/** The normal distribution's 0.975 quantile: PREDICTION_COVERAGE's two-sided quantile for the drift, assumed known. */
export const NORMAL_975 = 1.959964;

/** How far either way, in percent, a rerun's speed may sit from this run's at 95%, for a drift `sd` between runs. */
export const rerunSharePercent = (sd: number): number => Math.round((Math.exp(NORMAL_975 * Math.SQRT2 * sd) - 1) * 100);

export interface SpeedEstimate {
  /** Independent values it rests on: rounds (edgeSpeed). */
  n: number;
  logMean: number;
  /** Standard deviation of log S between those values (0 with one). */
  logSd: number;
  centre: number;
  /** The 95% interval of the mean (t on log S); null with fewer than 2 trials. */
  low: number | null;
  high: number | null;
}

/** Whole trials that ran to their planned end with their controls held, at K = `a` or `a` + 1, that have a live speed. */
export function edgeTrials(mine: readonly TrialRecord[], a: number): TrialRecord[] {
  return mine.filter(
    (t) =>
      t.controle_tenu &&
      t.but === 'sans_trou' &&
      t.etat === 'done' &&
      (t.flux === a || t.flux === a + 1) &&
      t.debit_vivant !== null &&
      t.debit_vivant > 0,
  );
}

export function speedEstimate(speeds: readonly number[], confidence = 0.95): SpeedEstimate | null {
  const logs = speeds.filter((s) => Number.isFinite(s) && s > 0).map(Math.log);
  const n = logs.length;
  if (n === 0) return null;
  const logMean = logs.reduce((x, y) => x + y, 0) / n;
  const logSd = stdev(logs) ?? 0;
  if (n < 2) return { n, logMean, logSd, centre: Math.exp(logMean), low: null, high: null };
  const half = (studentQuantile(1 - (1 - confidence) / 2, n - 1) * logSd) / Math.sqrt(n);
  return {
    n,
    logMean,
    logSd,
    centre: Math.exp(logMean),
    low: Math.exp(logMean - half),
    high: Math.exp(logMean + half),
  };
}

/** The answer: the largest K confirmed without a gap (`held`) whose pace per listener at S's lower bound is at least x1. */
export function liveAnswer(held: number, s: SpeedEstimate | null): number {
  if (held === 0 || s === null || s.low === null) return held;
  return Math.max(0, Math.min(held, Math.floor(s.low + 1e-9)));
}

/** Headroom at K: S/K - 1, with the interval S's gives. */
export function headroom(
  s: SpeedEstimate | null,
  k: number,
): { centre: number; low: number | null; high: number | null } | null {
  if (s === null || k <= 0) return null;
  return {
    centre: s.centre / k - 1,
    low: s.low === null ? null : s.low / k - 1,
    high: s.high === null ? null : s.high / k - 1,
  };
}

export interface PredictionInput {
  answer: number;
  /** The largest K every whole trial held (the staircase's answer, before the pace check). */
  held: number;
  speed: SpeedEstimate | null;
  cap: number;
  driftSd?: number;
  /**
   * The drift this run saw (drift.ts): log shifts from its mean to its slowest and fastest level, 0 and 0 when
   * none was seen beyond the trials' noise. A rerun may run wholly at either.
   */
  seen?: { lowLog: number; highLog: number };
  /** The sd of log S between the edge's single trials: how far one trial of a rerun may fall below its mean. */
  trialLogSd?: number;
  /** Two-sided coverage; PREDICTION_COVERAGE when absent (planCoverage for the number to plan on). */
  coverage?: number;
}

/**
 * The coverage at which each of a voice's `layouts` low ends is read so that all hold at once with PREDICTION_COVERAGE
 * (Bonferroni): the highest of them is then a number to plan on, the choice of layout accounted for.
 */
export const planCoverage = (layouts: number): number => 1 - (1 - PREDICTION_COVERAGE) / Math.max(1, layouts);

/** The normal distribution's quantile: Student's t with a million degrees of freedom agrees with it to 1e-5. */
const normalQuantile = (p: number): number => (Math.abs(p - 0.975) < 1e-12 ? NORMAL_975 : studentQuantile(p, 1e6));

/**
 * The answers a rerun of the same workload may give, at PREDICTION_COVERAGE: a rerun's mean log S
 * differs from this one's by the rounds' noise in both runs (s^2 (1/n + 1/n)) and the machine's
 * drift between them (2 drift^2); its answer is at most the floor of its own lower bound. Down, its
 * staircase may stop one below this one's, where one trial of a slow rerun may not make x1 a listener at this
 * K; where even such a trial clears it, the low end stays at the answer (so a board that serves 1 or 2
 * listeners with room can be planned on). Null with fewer than 2 rounds at the edge.
 */
export function prediction(p: PredictionInput): [number, number] | null {
  const s = p.speed;
  if (p.answer === 0 || s === null || s.low === null || s.n < 2) return null;
  const drift = p.driftSd ?? DEFAULT_DRIFT_SD;
  // The trials' part is estimated (t with n - 1 degrees of freedom), the drift assumed known (normal): each at the
  // coverage's quantile, added in quadrature.
  const tail = 1 - (1 - (p.coverage ?? PREDICTION_COVERAGE)) / 2;
  const z = normalQuantile(tail);
  const noise = studentQuantile(tail, s.n - 1) * s.logSd * Math.sqrt(2 / s.n);
  const between = z * Math.SQRT2 * drift;
  const spread = Math.sqrt(noise ** 2 + between ** 2);
  // A rerun's own lower bound sits this far below its mean, as this run's does.
  const own = s.logMean - Math.log(s.low);
  const at = (shift: number): number => Math.floor(Math.exp(s.logMean + shift - own) + 1e-9);
  const down = Math.min(0, p.seen?.lowLog ?? 0);
  const up = Math.max(0, p.seen?.highLog ?? 0);
  // A rerun's staircase stops below this K when one trial there fails: it is not taken one down only where even a
  // trial 1.96 sd below a slow rerun's mean still makes x1 for each of `held` listeners.
  const slowTrial = Math.exp(s.logMean - spread + down - z * (p.trialLogSd ?? s.logSd));
  const low = Math.max(0, Math.min(at(-spread + down), slowTrial >= p.held ? p.answer : p.held - 1, p.answer));
  // Up, S alone bounds it: a rerun's staircase may hold more than this one's did, never more than its pace allows; a
  // drift between runs measured beyond the assumed one moves the rerun's staircase too (history.ts).
  const extra = Math.max(0, between - z * Math.SQRT2 * DEFAULT_DRIFT_SD);
  const high = Math.min(
    p.cap,
    Math.max(p.answer, Math.min(at(spread + up), p.held + 2 + Math.floor(p.held * (noise + up + extra)))),
  );
  return [low, high];
}

/** S at the edge from one value per round: the geometric mean of each round's edge trials (edgeTrials). */
export function edgeSpeed(mine: readonly TrialRecord[], held: number): SpeedEstimate | null {
  return speedEstimate([...roundLogSpeeds(edgeTrials(mine, held)).values()].map(Math.exp));
}

/** One value per round: the mean log S of the trials given, by round (rounds with none are left out). */
export function roundLogSpeeds(trials: readonly TrialRecord[]): Map<number, number> {
  const by = new Map<number, number[]>();
  for (const t of trials)
    if (t.debit_vivant !== null && t.debit_vivant > 0)
      by.set(t.manche, [...(by.get(t.manche) ?? []), Math.log(t.debit_vivant)]);
  return new Map([...by].map(([r, logs]) => [r, logs.reduce((x, y) => x + y, 0) / logs.length]));
}
