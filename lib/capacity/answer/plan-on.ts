/**
 * The lines a deployer reads first: per voice, the number to plan on and the layout that gives it;
 * how far the machine moved during the run; how much of its CPU the hypervisor took.
 */
import type { CapacityEntry, TrialRecord } from '../archive/schema.js';
import type { DriftSeen } from './drift.js';
import { maxOf } from '../../core/extremes.js';
import { plural } from '../../report/words.js';

/** Steal above this share of the cores' time in a round is said on the terminal. */
export const STEAL_SAID = 0.03;

export interface PlanOn {
  voix: string;
  /** The number to plan on: the low end of what a rerun may answer (null: none to plan on). */
  flux: number | null;
  disposition: string | null;
  /** This run's answer with that layout. */
  ce_run: number | null;
  prevision: [number, number] | null;
  phrase: string;
  /** The phrase without this run's answer and the rerun range, which the voice's details below it give. */
  ligne: string;
}

/** Published: the answer rests on enough whole trials and has a rerun range. */
const published = (e: CapacityEntry): boolean => (e.essais_manquants ?? 0) === 0 && e.prevision !== null;

function noPlan(voiceLabel: string, entries: readonly CapacityEntry[]): string {
  const short = entries.filter((e) => (e.essais_manquants ?? 0) > 0);
  if (short.length > 0) {
    const e = short[0] as CapacityEntry;
    return (
      `${voiceLabel}: no number to plan on: not measured enough (${e.disposition} needs ` +
      `${plural(e.essais_manquants ?? 0, 'more round')} holding ${e.flux_tenu_essais}; --max-minutes or --rounds give them)`
    );
  }
  if (entries.some((e) => e.preuves.some((p) => p.essais_tenus > 0 && p.essais_entiers > 0)))
    return `${voiceLabel}: no number to plan on: some whole trials held without a gap, but not every one at any K`;
  return `${voiceLabel}: no number to plan on: no layout served one live listener without a gap`;
}

/**
 * What a voice's number depends on most, said with it: the session profile its workers ran (a server's own when
 * null), the reply, and a synthetic stand-in as such ("piper-tts, 2-sentence replies, SYNTHETIC").
 */
export interface PlanConditions {
  session: string | null;
  sentences: number;
  synthetic: boolean;
}

export function conditionWords(c: PlanConditions): string {
  return [
    ...(c.session ? [c.session] : []),
    `${c.sentences}-sentence ${c.sentences === 1 ? 'reply' : 'replies'}`,
    ...(c.synthetic ? ['SYNTHETIC'] : []),
  ].join(', ');
}

/** "synthetic-siwis-medium: plan on 8 live listeners with one process per stream x 1 thread, free (piper-tts, 2-sentence replies, SYNTHETIC)". */
export function planOn(
  voice: string,
  voiceLabel: string,
  entries: readonly CapacityEntry[],
  conditions?: PlanConditions,
  contenders?: readonly string[],
): PlanOn {
  const words = conditions ? conditionWords(conditions) : '';
  const said = words ? ` (${words})` : '';
  // A stand-in's figure is no voice's: the way to a real one, once, in the longer phrase.
  const yours = conditions?.synthetic ? "; a stand-in's figure: put your voice in voices/" : '';
  const within = `${words ? `; ${words}` : ''}${yours}`;
  const ok = entries.filter(published);
  // Each layout's low end read so that all of the voice's hold at once (plan_bas, planCoverage): the highest of them is
  // safe to plan on, the choice of layout accounted for, and a layout short of rounds (a wide range) is simply not it.
  // Archives before 2026-12-05 have no plan_bas: the least of the contenders' low ends, as they planned.
  const simultaneous = ok.filter((e) => e.plan_bas !== undefined && e.plan_bas !== null);
  const low = (e: CapacityEntry): number => e.plan_bas ?? (e.prevision as [number, number])[0];
  const among = contenders ? ok.filter((e) => contenders.includes(e.disposition)) : [];
  const pool = simultaneous.length > 0 ? simultaneous : among.length > 0 ? among : ok;
  const best = [...pool].sort(
    (a, b) =>
      (simultaneous.length > 0 ? low(b) - low(a) : low(a) - low(b)) || a.flux_max_sans_trou - b.flux_max_sans_trou,
  )[0];
  const others = simultaneous.length > 0 ? 0 : among.length > 1 ? among.length - 1 : 0;
  const or = others > 0 ? ` or ${plural(others, 'other')}` : '';
  const apart =
    simultaneous.length > 1
      ? `; the highest of ${simultaneous.length} layouts' low ends read to hold at once`
      : others > 0
        ? '; not told apart by live speed: the least of their low ends'
        : '';
  if (!best)
    return {
      voix: voice,
      flux: null,
      disposition: null,
      ce_run: null,
      prevision: null,
      phrase: noPlan(voiceLabel, entries) + said,
      ligne: noPlan(voiceLabel, entries) + said,
    };
  const high = (best.prevision as [number, number])[1];
  const planned = low(best);
  const range = `this run: ${best.flux_max_sans_trou}; a rerun may answer ${(best.prevision as [number, number])[0]} to ${high}`;
  const head =
    planned >= 1
      ? `${voiceLabel}: plan on ${plural(planned, 'live listener')} with ${best.disposition}${or}`
      : `${voiceLabel}: no number to plan on: with ${best.disposition}${or}, a rerun may not serve even one`;
  const line = `${head}${said}`;
  const phrase =
    planned >= 1
      ? `${head} (${range}${apart}${within})`
      : `${voiceLabel}: no number to plan on: ${best.disposition} served ${best.flux_max_sans_trou} here, ` +
        `but a rerun may not serve even one (${range}${within})`;
  return {
    voix: voice,
    flux: planned >= 1 ? planned : null,
    disposition: best.disposition,
    ce_run: best.flux_max_sans_trou,
    prevision: [planned, high],
    phrase,
    ligne: line,
  };
}

const level = (x: number | null): string => (x === null ? '-' : `x${x.toFixed(2)}`);
const pct = (x: number): string => `${(x * 100).toFixed(x < 0.1 ? 1 : 0)}%`;

/** "; the reference (pool of 2 processes x 1 thread, K=8, fresh workers) x17.1, x16.4, x15.9". */
function referenceWords(d: DriftSeen): string {
  const r = d.reference;
  if (!r || r.speeds.length === 0) return '';
  const [voice, layout, k] = r.group.split('|');
  const speeds = r.speeds.map((x) => `x${x.speed.toFixed(1)}`).join(', ');
  return `; the reference (${voice}, ${layout}, K=${k}, fresh workers) ${speeds}`;
}

/** "Drift: this machine's speed moved 27% during the run (start x1.08, ...)". */
export function driftLine(d: DriftSeen): string {
  if (d.range === null || d.thirds.length === 0)
    return `Drift: not measured (${plural(d.trials, 'whole trial')} in groups of two or more; 4 needed).`;
  const [a, b, c] = d.thirds.map((t) => level(t.level));
  const steals = d.thirds.map((t) => t.steal);
  const steal = steals.every((x) => x === null)
    ? ''
    : `; steal ${steals.map((x) => (x === null ? '-' : pct(x))).join(', ')}`;
  const where = `start ${a}, middle ${b}, end ${c} of its mean over ${plural(d.trials, 'whole trial')}${steal}${referenceWords(d)}`;
  const folded = `x${Math.exp(d.lowLog).toFixed(2)} to x${Math.exp(d.highLog).toFixed(2)}`;
  // Under half a percent either way: nothing a listener count shows.
  if (Math.max(-d.lowLog, d.highLog) < 0.005) return `Drift: none beyond the trials' noise (${where}).`;
  if (!d.seen)
    return (
      `Drift: within the trials' noise (${where}); what the thirds show beyond their noise is folded in ` +
      `(${pct(d.shrink)} of it): each "a rerun may answer" allows a rerun at ${folded} of this run.`
    );
  return (
    `Drift: this machine's speed moved ${pct(d.range)} during the run (${where}), beyond the trials' noise: ` +
    `each "a rerun may answer" allows a rerun wholly at ${folded} ` +
    'of this run; plan on its low end, and run again later to see where the machine settles.'
  );
}

export interface RoundSteal {
  manche: number;
  essais: number;
  vol_cpu: number | null;
}

/** Mean steal share per round, over the trials that read it. */
export function stealByRound(trials: readonly TrialRecord[]): RoundSteal[] {
  const by = new Map<number, number[]>();
  for (const t of trials)
    if (t.vol_cpu !== undefined && t.vol_cpu !== null) by.set(t.manche, [...(by.get(t.manche) ?? []), t.vol_cpu]);
  return [...by]
    .sort(([x], [y]) => x - y)
    .map(([manche, xs]) => ({ manche, essais: xs.length, vol_cpu: xs.reduce((s, v) => s + v, 0) / xs.length }));
}

/** Said when a round's steal passes STEAL_SAID; null otherwise. */
export function stealLine(rounds: readonly RoundSteal[]): string | null {
  const most = Math.max(0, maxOf(rounds.map((r) => r.vol_cpu ?? 0)));
  if (most <= STEAL_SAID) return null;
  const each = rounds.map((r) => `round ${r.manche} ${pct(r.vol_cpu ?? 0)}`).join(', ');
  return (
    `Steal: the hypervisor took up to ${pct(most)} of the cores' time (${each}); it is part of what this rented machine ` +
    'gives, so it stays in the live speed and in the drift above, not corrected for.'
  );
}
