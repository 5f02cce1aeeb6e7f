/**
 * Step 3 of a capacity run, in rounds. Round 1 searches each layout's edges; each later round runs
 * the edges again (the answer and the K above it, for both answers) until each has its quota of
 * trials, and where that moves an edge the search goes on from there. Voices and layouts run in a
 * new seeded order each round, so a layout's trials are spread over the run. Every trial has fresh
 * workers; a trial whose control failed is run again, up to twice, before its K is given up.
 */
import { roundOrder } from '../../core/schedule.js';
import { SERVER_VOICE } from '../setup/server.js';
import { predictStreams, type Calibration } from '../setup/calibrate.js';
import { layoutName } from '../trial/layouts.js';
import { layoutsFor, type CapacityPlan } from '../setup/plan.js';
import type { TrialRecord } from '../archive/schema.js';
import { CapacitySearch, type KOutcome, type Step } from '../answer/search.js';
import { poolFor, runOneTrial } from './run-trial.js';
import type { TrialBook, Turn } from './sweep-context.js';
import type { Sweep } from '../answer/sweep-state.js';
import type { SweepContext } from './sweep-context.js';

export type { Sweep, SweepContext };
import type { ServingPool } from '../worker/pool.js';
import { edgeSpeed } from '../answer/live.js';
import { runReference, type ReferenceAt } from './reference.js';

/** A search that takes more trials than this in one round is stopped (outcomes that never settle). */
const MAX_SEARCH_STEPS = 40;

/** More rounds than planned, at most, when edges keep moving. */
export const EXTRA_ROUNDS = 3;

/** With no --max-streams, a server's ceiling: its own speed under load cannot be read from one connection. */
export const SERVER_CEILING = 32;

/**
 * A voice's ceiling with no --max-streams: half again above what its fastest layout should carry (one worker's
 * speed alone times the cores), so a default run does not stop at its own cap on a fast machine; never past
 * --max-streams's limit. Memory caps each layout below it.
 */
export function calibratedCeiling(c: Calibration, cores: number, server: boolean, limit: number): number {
  if (server) return Math.min(limit, SERVER_CEILING);
  return Math.min(limit, Math.max(4, Math.ceil(1.5 * c.speed * cores) + 2));
}

/** One search per voice and layout, capped by the ceiling (--max-streams, or the calibration's) and by memory. */
export function planSweeps(plan: CapacityPlan, calibrations: Map<string, Calibration>): Sweep[] {
  return plan.voices.flatMap((v) => {
    const c = calibrations.get(v.name) as Calibration;
    const streams = plan.maxStreamsAsked
      ? plan.maxStreams
      : calibratedCeiling(c, plan.cores.length, v.name === SERVER_VOICE, plan.maxStreams);
    return layoutsFor(plan, v.name).map((layout) => {
      const memoryCap =
        c.memoryWorkers === null
          ? null
          : layout.workers === 'K'
            ? c.memoryWorkers
            : c.memoryWorkers >= layout.workers
              ? streams
              : 0;
      const cap = Math.min(streams, memoryCap ?? streams);
      const p = predictStreams(layout, c, plan.cores.length, plan.firstAudioMs);
      return {
        voice: v.name,
        layout,
        name: layoutName(layout),
        search: new CapacitySearch({
          predicted: p.streams,
          predictedInBound: p.inBound,
          cap,
          inBoundImpossible: p.inBoundImpossible,
        }),
        memoryCap,
        ceiling: { streams, asked: plan.maxStreamsAsked },
        givenUp: [],
      };
    });
  });
}

/**
 * Rounds a K needs a counted trial in: every planned round. The round is the independent unit: a layout's trials in
 * one turn share its workers, and the listeners of a trial share its moment.
 */
export function quotaOf(plan: CapacityPlan, _s: Sweep): (k: number) => number {
  return () => plan.rounds;
}

// A whole trial with no gap heard but behind pace counts as failed: a longer session would hear the gap.
export const outcomeOf = (t: TrialRecord): KOutcome => ({
  gapFree: t.sans_trou === null ? null : t.tenu,
  inBound: t.dans_la_borne,
});

/** One step: the trial, and up to two more when a control failed; the search learns what counted. */
async function runStep(turn: Turn, step: Step, pool: ServingPool): Promise<TrialRecord[]> {
  const { s } = turn;
  const out: TrialRecord[] = [];
  for (let retry = 0; retry <= 2; retry += 1) {
    const t = await runOneTrial(turn, step, retry, pool);
    if (!t) return out;
    out.push(t);
    if (t.etat === 'failed' || t.etat === 'timed-out') {
      s.error = `K=${step.k}: ${t.erreur ?? t.etat}`;
      return out;
    }
    if (t.controle_tenu) {
      s.search.record(step.k, outcomeOf(t), turn.round);
      return out;
    }
  }
  const failed = out.flatMap((t) =>
    t.controles.filter((x) => !x.held).map((x) => `${x.name} ${x.measured ?? '?'} ${x.unit}`),
  );
  s.givenUp.push({ k: step.k, purpose: step.purpose, why: [...new Set(failed)].join(', ') });
  // Never claimed: for (a) it counts as failed; a first-audio trial says nothing of gaps.
  s.search.record(step.k, { gapFree: step.purpose === 'sans_trou' ? false : null, inBound: false });
  return out;
}

/** The search of one sweep, from where it is, until both edges are found. */
async function search(turn: Turn, trials: TrialRecord[], pool: ServingPool): Promise<void> {
  const { s, round } = turn;
  let steps = 0;
  for (let step = s.search.next(); step && !s.error; step = s.search.next()) {
    // Bisection over 1..cap needs a few dozen steps at most: more means the outcomes never settle.
    if ((steps += 1) > MAX_SEARCH_STEPS) {
      s.error = `the search did not settle within ${MAX_SEARCH_STEPS} trials in round ${round}`;
      return;
    }
    trials.push(...(await runStep(turn, step, pool)));
  }
}

/** One layout's turn in a round: its edges again (later rounds), then the search wherever they moved. */
async function runTurn(turn: Turn, trials: TrialRecord[]): Promise<void> {
  const { plan, s, round, ctx } = turn;
  const pool = poolFor(plan, s, ctx);
  s.search.newRound();
  try {
    if (round > 1) {
      // Later rounds run each edge still short of rounds once: a second trial in the same turn, on the same
      // workers, would add no independent evidence.
      for (const step of s.search.missing(quotaOf(plan, s))) {
        if (s.error) break;
        trials.push(...(await runStep(turn, step, pool)));
      }
    }
    await search(turn, trials, pool);
  } finally {
    await pool.close();
  }
}

/** Trials the short sweeps' edges take in the next round: one per edge K still short of rounds. */
function missingTrials(plan: CapacityPlan, short: Sweep[]): number {
  return short.reduce((n, s) => n + s.search.missing(quotaOf(plan, s)).length, 0);
}

const still = (s: Sweep): boolean => s.search.cap > 0 && !s.error && !s.dropped;
const x1 = (e: { centre: number; low: number | null; high: number | null }): string =>
  `x${e.centre.toFixed(1)} [${e.low?.toFixed(1)}, ${e.high?.toFixed(1)}]`;

/**
 * Between rounds: a layout whose live speed's interval (one value a round: three rounds at least) lies wholly
 * below another layout's of the same voice cannot be that voice's best, so its turns come last, on what budget
 * the others leave: its answer is still published when that room holds its rounds (2026-12-07: dropping it
 * outright left 3 of 18 answers unpublished in three default runs with 20 to 60 s of budget unspent).
 */
export function dropDominated(
  sweeps: readonly Sweep[],
  trials: readonly TrialRecord[],
  round: number,
  wants: (s: Sweep) => boolean = () => true,
): void {
  const est = sweeps.filter(still).flatMap((s) => {
    const mine = trials.filter((t) => t.voix === s.voice && t.disposition === s.name);
    const e = edgeSpeed(mine, s.search.held());
    return e && e.n >= 3 && e.low !== null && e.high !== null ? [{ s, e }] : [];
  });
  for (const voice of new Set(est.map((x) => x.s.voice))) {
    const mine = est.filter((x) => x.s.voice === voice);
    const leader = mine.reduce((a, b) => ((b.e.low as number) > (a.e.low as number) ? b : a));
    for (const { s, e } of mine)
      // Only a layout that still wants trials stops; one whose edges are complete keeps its answer as it is.
      if (s !== leader.s && wants(s) && (e.high as number) < (leader.e.low as number))
        s.dropped =
          `after round ${round} its live speed ${x1(e)} lay wholly below ${leader.s.name}'s ${x1(leader.e)}: ` +
          'it cannot be the best, so its turns came last, where the budget left room';
  }
}

/** A layout's wall time in its turns so far, its workers' start included, and the trials they ran. */
export interface TurnCost {
  ms: number;
  trials: number;
}

/**
 * Whether a later round's turn fits in the budget: its missing trials at this layout's own time per trial in its
 * turns so far (the run's mean before it has one). A pool's turn, its workers kept, costs less a trial than one that
 * restarts K workers: at the run's mean, the cheap layouts lose their third round to the dear ones' cost.
 */
export function turnFits(p: {
  missingTrials: number;
  own: TurnCost | undefined;
  runMeanMs: number;
  spentMs: number;
  budgetMs: number;
}): boolean {
  const perTrialMs = p.own && p.own.trials > 0 ? p.own.ms / p.own.trials : p.runMeanMs;
  return p.spentMs + p.missingTrials * perTrialMs <= p.budgetMs;
}

/** Every round, between the reference's start, middle and end; returns every trial, in the order run (held ones from a resumed run included). */
export async function runSweeps(
  plan: CapacityPlan,
  sweeps: Sweep[],
  calibrations: Map<string, Calibration>,
  ctx: SweepContext,
): Promise<TrialRecord[]> {
  const trials: TrialRecord[] = [];
  const seen: TrialBook = { byStep: new Map(), index: 0 };
  const reference = (at: ReferenceAt, lastRound: number): Promise<TrialRecord[]> =>
    runReference({ plan, ctx, calibrations, book: seen, lastRound }, sweeps, at);
  const startMs = ctx.timers.now();
  trials.push(...(await reference('start', plan.rounds)));
  // The end's reference is kept room for: the budget the rounds see is the run's less what the start's took.
  const reserveMs = ctx.timers.now() - startMs;
  const last = await runRounds(plan, sweeps, calibrations, { ctx, trials, seen, reserveMs, reference });
  trials.push(...(await reference('end', last)));
  return trials;
}

interface Rounds {
  ctx: SweepContext;
  trials: TrialRecord[];
  seen: TrialBook;
  reserveMs: number;
  reference: (at: ReferenceAt, lastRound: number) => Promise<TrialRecord[]>;
}

/** The rounds: the search, then the edges again, the reference's middle after the first; returns the last round that ran a turn. */
async function runRounds(
  plan: CapacityPlan,
  sweeps: Sweep[],
  calibrations: Map<string, Calibration>,
  { ctx, trials, seen, reserveMs, reference }: Rounds,
): Promise<number> {
  const live = still;
  // A dominated layout still runs, after the others (dropDominated): only a broken or empty sweep is left out.
  const runnable = (s: Sweep): boolean => s.search.cap > 0 && !s.error;
  const t0 = ctx.timers.now();
  const budgetMs = plan.maxMinutes * 60_000 - reserveMs;
  const searched = (): number => trials.filter((t) => t.but !== 'reference').length;
  /** Each layout's wall time in its turns, its workers' start included, and the trials they ran. */
  const turnCost = new Map<Sweep, TurnCost>();
  let ran = 1;
  for (let round = 1; round <= plan.rounds + EXTRA_ROUNDS; round += 1) {
    if (round > 3) dropDominated(sweeps, trials, round - 1, (s) => s.search.missing(quotaOf(plan, s)).length > 0);
    const short = sweeps.filter((s) => runnable(s) && s.search.missing(quotaOf(plan, s)).length > 0);
    if (round > 1 && short.length === 0) return ran;
    // The whole round's cost is judged on the layouts that can still be best; the dominated take what is left.
    const leading = short.filter((s) => !s.dropped);
    // The reference's middle, where round 1 (the searches, most of a run) has ended; not where no budget is left.
    if (round === 2 && ctx.timers.now() - (ctx.startedMs ?? t0) < budgetMs)
      trials.push(...(await reference('middle', plan.rounds)));
    // Past the planned rounds, one more only if its missing trials, at the run's mean time per trial so far, fit in the budget.
    const nowMs = ctx.timers.now();
    const elapsedMs = nowMs - (ctx.startedMs ?? nowMs);
    const perTrialMs = (nowMs - t0) / Math.max(1, searched());
    const costed = leading.length > 0 ? leading : short;
    if (round > plan.rounds && elapsedMs + missingTrials(plan, costed) * perTrialMs > budgetMs) {
      for (const s of short) s.short = `another round would pass --max-minutes ${plan.maxMinutes}`;
      return ran;
    }
    const order = roundOrder(sweeps.length, plan.seed, round).map((i) => sweeps[i] as Sweep);
    for (const s of [...order.filter((x) => !x.dropped), ...order.filter((x) => x.dropped)]) {
      if (!runnable(s)) continue;
      // A later round's turn runs only if its missing trials, at this layout's own time per trial in its turns so far
      // (the run's mean before it has one), fit in the budget: the run ends within --max-minutes, its answers saying
      // which edges were left short. A pool's turn, its workers kept, costs less a trial than one that restarts K.
      const fits = turnFits({
        missingTrials: missingTrials(plan, [s]),
        own: turnCost.get(s),
        runMeanMs: (ctx.timers.now() - t0) / Math.max(1, searched()),
        spentMs: ctx.timers.now() - (ctx.startedMs ?? t0),
        budgetMs,
      });
      if (round > 1 && !fits) {
        // A dominated layout's reason stays its own: the budget went to the others first.
        if (!s.dropped) s.short = `no room left in --max-minutes ${plan.maxMinutes} for round ${round}`;
        continue;
      }
      const turnStart = { ms: ctx.timers.now(), trials: searched() };
      await runTurn({ plan, s, round, ctx, c: calibrations.get(s.voice) as Calibration, book: seen }, trials);
      const cost = turnCost.get(s) ?? { ms: 0, trials: 0 };
      turnCost.set(s, {
        ms: cost.ms + ctx.timers.now() - turnStart.ms,
        trials: cost.trials + searched() - turnStart.trials,
      });
      // Its edges complete after all: its answer stands as any other's.
      if (s.dropped && s.search.missing(quotaOf(plan, s)).length === 0) delete s.dropped;
      ran = round;
    }
  }
  for (const s of sweeps)
    if (live(s) && s.search.missing(quotaOf(plan, s)).length > 0)
      s.short = `its edge kept moving through ${plan.rounds + EXTRA_ROUNDS} rounds`;
  return ran;
}
