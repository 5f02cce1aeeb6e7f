/**
 * Seeded simulation of whole capacity runs: the real search (CapacitySearch, rounds as the sweep
 * runs them), the real drift fit and the real prediction, on a machine whose level may move during
 * a run. A trial at K on a layout of speed s0 at level L draws S = s0 * L * exp(noise * z) and holds
 * when S >= K (every listener at x1). Each run is paired with an independent rerun on the same
 * machine; coverage is how often the rerun's answer falls inside the run's prediction.
 */
import { Prng } from '../../../lib/core/prng.js';
import { CapacitySearch } from '../../../lib/capacity/answer/search.js';
import { driftOf, type DriftPoint } from '../../../lib/capacity/answer/drift.js';
import {
  edgeSpeed,
  liveAnswer,
  planCoverage,
  prediction,
  roundLogSpeeds,
  speedEstimate,
} from '../../../lib/capacity/answer/live.js';
import { bestLayout, contenders } from '../../../lib/capacity/answer/layouts.js';
import { planOn } from '../../../lib/capacity/answer/plan-on.js';
import type { CapacityEntry } from '../../../lib/capacity/archive/schema.js';
import type { TrialRecord } from '../../../lib/capacity/archive/schema.js';
import { MIN_ROUNDS } from '../../../lib/capacity/answer/verdict.js';
import { stdev } from '../../../lib/measure/stats.js';

export interface SimMachine {
  /** Each layout's live speed at level 1. */
  layouts: readonly number[];
  /** Log sd of a trial's S around the machine's level. */
  noise: number;
  /** Log sd of a run's level around the machine's (between runs). */
  between: number;
  /**
   * A drifting machine: the run's level falls to `dropTo` at a uniform moment of its middle half, and the rerun,
   * run after it, stays at that level or (with chance `recovers`) is back at 1. 1: a steady machine.
   */
  dropTo: number;
  recovers: number;
  /**
   * Steal in episodes (a noisy neighbour): about `chance` of the run's trials fall in one; an episode lasts `trials`
   * trials on average (geometric) and takes a share of the CPU uniform in [0.05, max] from every trial in it, and their
   * S by as much. `trials` 1: each trial on its own.
   */
  steal?: { chance: number; max: number; trials?: number };
  /**
   * Log sd shared by a layout's trials in one round's turn (they run on one pool of workers at one moment), on top of
   * `noise`; 0: every trial independent.
   */
  turn?: number;
  /**
   * A machine whose noise itself moves from run to run (a quiet hour, a noisy one): each run, and each rerun, draws
   * its turn effect's log sd log-uniform in [low, high] in place of `turn`. Absent: every run alike.
   */
  turnPerRun?: [number, number];
}

export interface SimVariant {
  /** Fold the drift the run saw into the prediction (the rule); false: the broken variant that ignores it. */
  foldDrift: boolean;
  /**
   * What the answer does with a trial's steal: keep it in S (the rule), drop trials over 3% as a control would, or
   * correct S for it as a covariate would (S / (1 - steal): the speed of a machine with no steal).
   */
  steal?: 'keep' | 'control' | 'covariate';
  /**
   * The independent unit S's interval counts: the round (the rule: one value per round, each edge tried once a round),
   * or the trial (the broken variant: every trial counted, a later round trying an edge as many times as its quota
   * lacks, as the sweep did before 2026-12-04).
   */
  unit?: 'round' | 'trial';
}

function normal(p: Prng): number {
  const u = Math.max(p.next(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * p.next());
}

interface SimRun {
  answers: number[];
  /** Per layout, whether S's interval held the layout's true speed at the run's level (a steady run's only). */
  speedCovered: Array<boolean | null>;
  predictions: Array<[number, number] | null>;
  /** Each layout's low end read so that all of them hold at once (planCoverage). */
  planLows: Array<number | null>;
  seen: boolean;
  /** Answers resting on fewer than 3 rounds at their K or above. */
  thin: number;
  /** Per layout, its S by round at its edge (mean log), as the best layout is chosen from. */
  byRound: Array<Map<number, number>>;
}

/** One run: 3 rounds, layouts in a new random order each round, one time unit per trial. */
export function simulateRun(p: Prng, m: SimMachine, v: SimVariant, phase: 'run' | 'rerun'): SimRun {
  const runLevel = Math.exp(m.between * normal(p));
  const [quiet, noisy] = m.turnPerRun ?? [0, 0];
  const turnSd = m.turnPerRun
    ? Math.exp(Math.log(quiet) + (Math.log(noisy) - Math.log(quiet)) * p.next())
    : (m.turn ?? 0);
  const dropAt = 0.25 + 0.5 * p.next();
  const rerunLevel = p.next() < m.recovers ? 1 : m.dropTo;
  const n = m.layouts.length;
  const searches = m.layouts.map(
    (s0) =>
      new CapacitySearch({
        predicted: Math.max(1, Math.floor(s0 * 0.85)),
        predictedInBound: 1,
        cap: 64,
        inBoundImpossible: true,
      }),
  );
  const trials: Array<{ layout: number; k: number; t: number; s: number; steal: number; round: number }> = [];
  // About 12 trials a layout: time is counted in trials and normalised to the run's span afterwards.
  const span = n * 12;
  const levelAt = (t: number): number => runLevel * (phase === 'rerun' ? rerunLevel : t / span < dropAt ? 1 : m.dropTo);
  const byRound = v.unit !== 'trial';
  let episode = { left: 0, share: 0 };
  const stealNow = (): number => {
    if (!m.steal) return 0;
    const length = m.steal.trials ?? 1;
    if (episode.left <= 0 && p.next() < m.steal.chance / length)
      episode = { left: 1 + Math.floor(Math.log(1 - p.next()) / Math.log(1 - 1 / (length + 1))), share: 0 };
    if (episode.left <= 0) return 0;
    if (episode.share === 0) episode.share = 0.05 + (m.steal.max - 0.05) * p.next();
    episode.left -= 1;
    return episode.share;
  };
  const trial = (i: number, k: number, round: number, turn: number): void => {
    const t = trials.length;
    const steal = stealNow();
    const s = (m.layouts[i] as number) * levelAt(t) * (1 - steal) * Math.exp(turn + m.noise * normal(p));
    trials.push({ layout: i, k, t, s, steal, round });
    (searches[i] as CapacitySearch).record(k, { gapFree: s >= k, inBound: false }, byRound ? round : undefined);
  };
  // Three rounds, then up to three more while an edge lacks its rounds (as the sweep adds them).
  for (let round = 1; round <= 6; round += 1) {
    if (round > 3 && searches.every((x) => x.missing(() => 3).length === 0)) break;
    const order = Array.from({ length: n }, (_, i) => i).sort(() => p.next() - 0.5);
    for (const i of order) {
      const search = searches[i] as CapacitySearch;
      search.newRound();
      // One pool of workers for the layout's turn: its trials share this draw.
      const turn = turnSd * normal(p);
      if (round > 1)
        for (const step of search.missing(() => 3)) {
          const times = byRound ? 1 : Math.ceil((3 - search.count(step.k, step.purpose)) / Math.max(1, 3 - round + 1));
          for (let x = 0; x < times; x += 1) trial(i, step.k, round, turn);
        }
      for (let step = search.next(), guard = 0; step && guard < 40; step = search.next(), guard += 1)
        trial(i, step.k, round, turn);
    }
  }
  const points: DriftPoint[] = trials.map((x) => ({
    group: `${x.layout}|${x.k}`,
    atMs: x.t,
    logS: Math.log(x.s),
    steal: null,
  }));
  const drift = driftOf(points);
  const out: SimRun = {
    answers: [],
    predictions: [],
    planLows: [],
    speedCovered: [],
    seen: drift.seen,
    thin: 0,
    byRound: [],
  };
  searches.forEach((search, i) => {
    const held = search.held();
    const mine = trials.filter((x) => x.layout === i && (x.k === held || x.k === held + 1));
    const kept =
      v.steal === 'control' && mine.filter((x) => x.steal <= 0.03).length >= 2
        ? mine.filter((x) => x.steal <= 0.03)
        : mine;
    const edge = kept.map((x) => ({ round: x.round, k: x.k, s: v.steal === 'covariate' ? x.s / (1 - x.steal) : x.s }));
    // The rule is the run's own (live.ts edgeSpeed: one value a round); the broken variant counts every trial.
    const records = edge.map(
      (x) =>
        ({
          controle_tenu: true,
          but: 'sans_trou',
          etat: 'done',
          flux: x.k,
          manche: x.round,
          debit_vivant: x.s,
        }) as TrialRecord,
    );
    const speed = byRound ? edgeSpeed(records, held) : speedEstimate(edge.map((x) => x.s));
    const answer = liveAnswer(held, speed);
    // The truth S's interval estimates: the layout's speed at this run's level, where nothing else moved it.
    const truth = (m.layouts[i] as number) * runLevel;
    const steady = m.dropTo === 1 && !m.steal;
    out.speedCovered.push(
      steady && speed?.low != null && speed.high !== null ? speed.low <= truth && truth <= speed.high : null,
    );
    const support = new Set(trials.filter((x) => x.layout === i && x.k >= held && x.s >= x.k).map((x) => x.round));
    if (held > 0 && support.size < MIN_ROUNDS) out.thin += 1;
    out.answers.push(answer);
    out.byRound.push(roundLogSpeeds(records));
    const input = {
      answer,
      held,
      speed,
      cap: 64,
      ...(v.foldDrift ? { seen: { lowLog: drift.lowLog, highLog: drift.highLog } } : {}),
      ...(edge.length >= 2 ? { trialLogSd: stdev(edge.map((x) => Math.log(x.s))) ?? 0 } : {}),
    };
    out.predictions.push(prediction(input));
    out.planLows.push(prediction({ ...input, coverage: planCoverage(m.layouts.length) })?.[0] ?? null);
  });
  return out;
}

export interface SimCoverage {
  /** Reruns' answers inside the run's prediction, over (run, layout) pairs with a prediction. */
  covered: number;
  /** Those pairs. */
  pairs: number;
  /** S's 95% intervals that held the layout's true speed (steady machines only; NaN otherwise), and how many. */
  speedCovered: number;
  speedIntervals: number;
  /** Runs whose drift fit said "seen". */
  seenShare: number;
  /** Mean width of the predictions (high - low). */
  meanWidth: number;
  /** Answers on fewer than 3 rounds, per answer. */
  thinShare: number;
  /** Misses below the prediction's low end and above its high end, per pair. */
  below: number;
  above: number;
}

export function simulateCoverage(seed: number, m: SimMachine, v: SimVariant, runs: number): SimCoverage {
  const p = new Prng(seed);
  let inside = 0;
  let pairs = 0;
  let seen = 0;
  let width = 0;
  let thin = 0;
  let answers = 0;
  let below = 0;
  let above = 0;
  const speeds: boolean[] = [];
  for (let r = 0; r < runs; r += 1) {
    const a = simulateRun(p, m, v, 'run');
    const b = simulateRun(p, m, v, 'rerun');
    speeds.push(...a.speedCovered.filter((x): x is boolean => x !== null));
    if (a.seen) seen += 1;
    thin += a.thin;
    answers += a.answers.length;
    a.predictions.forEach((pr, i) => {
      if (!pr) return;
      pairs += 1;
      width += pr[1] - pr[0];
      const other = b.answers[i] as number;
      if (other >= pr[0] && other <= pr[1]) inside += 1;
      else if (other < pr[0]) below += 1;
      else above += 1;
    });
  }
  return {
    covered: inside / pairs,
    pairs,
    speedCovered: speeds.filter(Boolean).length / speeds.length,
    speedIntervals: speeds.length,
    seenShare: seen / runs,
    meanWidth: width / pairs,
    thinShare: thin / answers,
    below: below / pairs,
    above: above / pairs,
  };
}

/** The 95% Wilson interval of a share seen in `n` draws: what a simulated rate is asserted on, not its point. */
export function wilson(share: number, n: number, z = 1.959964): [number, number] {
  const centre = (share + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((share * (1 - share)) / n + (z * z) / (4 * n * n));
  return [centre - half, centre + half];
}

/**
 * The number to plan on, chosen among a run's layouts: the run's rule (planOn: the highest of the layouts' low ends read
 * so that all hold at once, planCoverage), the rule before 2026-12-05 (the least low end of the layouts not told apart
 * by live speed), or the broken one (the highest 95% low end: the luckiest of several noisy bounds). Safe when a rerun
 * of the layout named answers at least the number.
 */
export function simulatePlanning(
  seed: number,
  m: SimMachine,
  runs: number,
): {
  safe: number;
  brokenSafe: number;
  leastSafe: number;
  plans: number;
  meanPlan: number;
  brokenMeanPlan: number;
  leastMeanPlan: number;
} {
  const p = new Prng(seed);
  const v: SimVariant = { foldDrift: true };
  const n = { plans: 0, safe: 0, brokenSafe: 0, leastSafe: 0, sum: 0, brokenSum: 0, leastSum: 0 };
  for (let r = 0; r < runs; r += 1) {
    const a = simulateRun(p, m, v, 'run');
    const b = simulateRun(p, m, v, 'rerun');
    const name = (i: number): string => `layout ${i}`;
    const entryOf = (pr: [number, number], i: number, planLow?: number | null): CapacityEntry =>
      ({
        disposition: name(i),
        prevision: pr,
        essais_manquants: 0,
        flux_max_sans_trou: a.answers[i] as number,
        preuves: [],
        ...(planLow === undefined ? {} : { plan_bas: planLow }),
      }) as unknown as CapacityEntry;
    const entries = a.predictions.flatMap((pr, i) => (pr ? [entryOf(pr, i, a.planLows[i] ?? null)] : []));
    const older = a.predictions.flatMap((pr, i) => (pr ? [entryOf(pr, i)] : []));
    if (entries.length === 0) continue;
    const best = bestLayout(a.byRound.map((byRound, i) => ({ layout: name(i), byRound })));
    const plan = planOn('v', 'v', entries);
    const least = planOn('v', 'v', older, undefined, contenders(best));
    const greedy = [...entries].sort((x, y) => (y.prevision as number[])[0]! - (x.prevision as number[])[0]!)[0]!;
    const rerunOf = (layout: string | null): number => b.answers[Number((layout ?? '').split(' ')[1])] as number;
    const planned = plan.prevision?.[0] ?? 0;
    const leastPlan = least.prevision?.[0] ?? 0;
    const greedyPlan = (greedy.prevision as [number, number])[0];
    n.plans += 1;
    n.sum += planned;
    n.leastSum += leastPlan;
    n.brokenSum += greedyPlan;
    if (rerunOf(plan.disposition) >= planned) n.safe += 1;
    if (rerunOf(least.disposition) >= leastPlan) n.leastSafe += 1;
    if (rerunOf(greedy.disposition) >= greedyPlan) n.brokenSafe += 1;
  }
  return {
    safe: n.safe / n.plans,
    brokenSafe: n.brokenSafe / n.plans,
    leastSafe: n.leastSafe / n.plans,
    plans: n.plans,
    meanPlan: n.sum / n.plans,
    brokenMeanPlan: n.brokenSum / n.plans,
    leastMeanPlan: n.leastSum / n.plans,
  };
}
