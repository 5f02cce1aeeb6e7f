/**
 * When a run stops adding rounds. Without --precision, after the planned rounds. With it, a
 * two-stage rule: the first rounds (the planned ones, at least 6) are a pilot; from the pilot's
 * intervals, once, the rounds every layout ratio needs for a 95% interval within ±PCT; the run goes
 * to that many rounds (or the budget) and stops, looking at no interval on the way. Stopping as soon
 * as every interval looks narrow selects runs whose spread came out small; a pilot of 3 does too
 * (its small spreads stop the run at once): both cover too little (test/verdict/coverage.test.ts).
 */
import type { Archive } from '../schema.js';
import { buildVerdict } from '../verdict/index.js';
import type { Plan } from './plan.js';
import { recordArms, type RoundRun } from './rounds.js';

/** No run goes on adding rounds forever, whatever the budget. */
export const MAX_ROUNDS = 100;

/** The smallest pilot whose intervals kept 95% in the simulation (3 did not). */
export const MIN_PILOT_ROUNDS = 6;

/**
 * Rounds a ratio needs, from a pilot of `pilotRounds` whose 95% interval had log half-width
 * `halfWidthLog`: the half-width shrinks as 1 / sqrt(rounds) at the pilot's spread and t quantile
 * (t s / sqrt(n) = h gives (t s / target)^2 = n (h / target)^2). Never fewer than the pilot.
 */
export function roundsNeeded(pilotRounds: number, halfWidthLog: number, pct: number): number {
  const target = Math.log(1 + pct / 100);
  return Math.max(pilotRounds, Math.ceil(pilotRounds * (halfWidthLog / target) ** 2));
}

/** What the rule decided after the pilot: how many rounds, for how many ratios. */
export interface PrecisionTarget {
  rounds: number;
  ratios: number;
}

/** From the pilot rounds only (a resumed run may hold later ones): the rounds to reach. */
function targetFromPilot(
  plan: Plan,
  runs: ReadonlyMap<string, RoundRun[]>,
  pct: number,
  pilotRounds: number,
): PrecisionTarget {
  const pilot = new Map([...runs].map(([k, r]) => [k, r.filter((x) => x.round <= pilotRounds)]));
  const verdict = buildVerdict(recordArms(plan.arms, pilot, plan.cores), plan.cores.length, {
    marginPct: plan.marginPct,
    engines: plan.protocole.moteurs,
  });
  const pairs = [
    ...verdict.comparaisons.flatMap((c) => c.paires),
    ...(verdict.moteurs ?? []).flatMap((m) => (m.paire ? [m.paire] : [])),
  ];
  const needs = pairs.flatMap((p) =>
    p.rapport && p.rapport_ic95 ? [roundsNeeded(pilotRounds, Math.log(p.rapport_ic95[1] / p.rapport), pct)] : [],
  );
  return { rounds: Math.min(MAX_ROUNDS, Math.max(pilotRounds, ...needs)), ratios: needs.length };
}

/** Past the planned rounds: stop, and why, or undefined to run one more. `state` keeps the target once set. */
export function stopReason(
  plan: Plan,
  runs: ReadonlyMap<string, RoundRun[]>,
  { done, elapsedMs, roundMs }: { done: number; elapsedMs: number; roundMs: readonly number[] },
  state: { target?: PrecisionTarget },
): Archive['arret'] | undefined {
  if (plan.precisionPct === null)
    return { raison: 'planned', manches: done, detail: `the ${done} planned round(s) ran` };
  const pct = plan.precisionPct;
  const pilotRounds = Math.max(plan.rounds, MIN_PILOT_ROUNDS);
  const nextMs = roundMs.reduce((a, b) => a + b, 0) / Math.max(1, roundMs.length);
  const budgetMs = (plan.maxMinutes ?? 30) * 60_000;
  const overBudget = elapsedMs + nextMs > budgetMs;
  const budgetText = `another round (about ${Math.round(nextMs / 1000)} s) would pass the ${plan.maxMinutes ?? 30}-minute budget after ${done}`;
  if (done < pilotRounds)
    return overBudget
      ? { raison: 'time', manches: done, detail: `the --precision pilot needs ${pilotRounds} rounds; ${budgetText}` }
      : undefined;
  state.target ??= targetFromPilot(plan, runs, pct, pilotRounds);
  const { target } = state;
  // Nothing to refine is no precision reached: say so rather than call it precise.
  if (target.ratios === 0)
    return {
      raison: 'planned',
      manches: done,
      detail: `${done} round(s) ran; no layout ratio to refine (fewer than two layouts held their controls for any voice and K)`,
    };
  const rule =
    `the ${pilotRounds}-round pilot's spread called for ${target.rounds} round(s) to bring every ` +
    `layout ratio's 95% interval within ±${pct}% (two-stage rule: no interval looked at after the pilot)`;
  if (done >= target.rounds)
    return {
      raison: 'precise',
      manches: done,
      detail: `${done} round(s): ${rule}${target.rounds >= MAX_ROUNDS ? `, capped at ${MAX_ROUNDS}` : ''}`,
    };
  if (overBudget) return { raison: 'time', manches: done, detail: `${rule}; ${budgetText}` };
  return undefined;
}
