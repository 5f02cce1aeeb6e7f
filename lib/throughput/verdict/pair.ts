/**
 * A over B from the rounds both ran, and what the verdict may say about it: a difference (the
 * interval excludes 1), an equivalence (the interval lies within the margin), or neither. The
 * sentences quote few pairs; those of one voice form a family whose intervals are widened together
 * (Bonferroni), so the chance that any of them claims a difference that is not there stays at 5%.
 */
import type { Archive, ArmRecord } from '../schema.js';
import { ratioInterval } from '../../measure/stats.js';
import { signedPercent } from './labels.js';

export type Pair = Archive['verdict']['comparaisons'][number]['paires'][number];

/** The default equivalence margin, in percent: "no difference larger than 6%". */
export const DEFAULT_MARGIN_PCT = 6;

/** A pair as the verdict works on it: the archived pair and its per-round log ratios. */
export interface ScoredPair {
  pair: Pair;
  logs: number[];
}

/** The per-round ratios of A over B, from the rounds both ran. */
export function roundRatios(
  a: Pick<ArmRecord, 'debit_agrege_manches'>,
  b: Pick<ArmRecord, 'debit_agrege_manches'>,
): number[] {
  return a.debit_agrege_manches.flatMap((va, i) => {
    const vb = b.debit_agrege_manches[i];
    return va !== null && vb !== null && vb !== undefined && va > 0 && vb > 0 ? [va / vb] : [];
  });
}

export { ratioInterval };

/** Within [1 - m, 1 / (1 - m)]: symmetric on the log scale, 6% gives [0.94, 1.064]. */
export function withinMargin(interval: [number, number] | null, marginPct: number): boolean {
  const m = marginPct / 100;
  return interval !== null && interval[0] >= 1 - m && interval[1] <= 1 / (1 - m);
}

const excludesOne = (interval: [number, number] | null): boolean =>
  interval !== null && (interval[0] > 1 || interval[1] < 1);

/** A over B, judged alone at 95% (the archive's raw figures). */
export function scorePair(a: ArmRecord, b: ArmRecord, labels: [string, string], marginPct: number): ScoredPair {
  const ratios = roundRatios(a, b);
  const logs = ratios.map(Math.log);
  const interval = ratioInterval(logs, 0.95);
  // One round: its ratio itself (exp(log(r)) need not give r back exactly).
  const centre = ratios.length <= 1 ? (ratios[0] ?? null) : Math.exp(logs.reduce((s, v) => s + v, 0) / logs.length);
  return {
    logs,
    pair: {
      a: labels[0],
      b: labels[1],
      rapport: centre,
      rapport_ic95: interval,
      tranche: excludesOne(interval),
      equivalent: withinMargin(interval, marginPct),
    },
  };
}

/** A pair judged at a family's confidence without being a member of its own: part of one claim ("best"). */
export function atConfidence(s: ScoredPair, family: { taille: number; confiance: number }, marginPct: number): Pair {
  const ic = ratioInterval(s.logs, family.confiance);
  return {
    ...s.pair,
    famille: { ...family, ic, tranche: excludesOne(ic), equivalent: withinMargin(ic, marginPct) },
  };
}

/**
 * Widen every quoted pair of one family together: each at 1 - 5%/size (Bonferroni), or, in a
 * sequential run, at the level of its looks (which already shares the voice's 5% between them).
 */
export function adjustFamily(family: readonly ScoredPair[], marginPct: number, sequentialConfidence?: number): void {
  const size = family.length;
  const confidence = sequentialConfidence ?? 1 - 0.05 / Math.max(1, size);
  for (const s of family) {
    const ic = ratioInterval(s.logs, confidence);
    s.pair.famille = {
      taille: size,
      confiance: confidence,
      ic,
      tranche: excludesOne(ic),
      equivalent: withinMargin(ic, marginPct),
    };
  }
}

const bounds = (ic: [number, number] | null): string =>
  ic ? ` [${signedPercent(ic[0])}, ${signedPercent(ic[1])}]` : ' [no interval]';

/**
 * What a quoted pair lets the verdict say, on its family interval (its own 95% one before any
 * family was formed): "A: +38% [+30%, +45%] over B", "A and B do not differ by more than 6%", or not resolved.
 */
export function pairPhrase(p: Pair, marginPct: number): string {
  if (p.rapport === null) return `${p.a} against ${p.b}: no common round to compare.`;
  const f = p.famille;
  const ic = f ? f.ic : p.rapport_ic95;
  const resolved = f ? f.tranche : p.tranche;
  const equivalent = f ? f.equivalent : (p.equivalent ?? false);
  if (resolved) return `${p.a}: ${signedPercent(p.rapport)}${bounds(ic)} over ${p.b}.`;
  if (equivalent)
    return `${p.a} and ${p.b} do not differ by more than ${marginPct}%: ${signedPercent(p.rapport)}${bounds(ic)}.`;
  const protects = nonInferior(ic, marginPct);
  if (protects)
    return (
      `${protects === 'a' ? p.a : p.b} is not slower than ${protects === 'a' ? p.b : p.a} by more than ${marginPct}%: ` +
      `${signedPercent(p.rapport)}${bounds(ic)} for ${p.a} over ${p.b}, no winner.`
    );
  return (
    `${p.a}: ${signedPercent(p.rapport)}${bounds(ic)} over ${p.b}, not resolved (the interval holds ` +
    `no difference, and differences larger than ${marginPct}%).`
  );
}

/**
 * Non-inferiority: the lower bound at or above 1 - m ('a' is not slower than 'b' by more than the
 * margin), or the upper bound at or below 1 / (1 - m) ('b' not slower than 'a'); undefined otherwise.
 */
export function nonInferior(ic: [number, number] | null, marginPct: number): 'a' | 'b' | undefined {
  const m = marginPct / 100;
  if (!ic) return undefined;
  if (ic[0] >= 1 - m) return 'a';
  if (ic[1] <= 1 / (1 - m)) return 'b';
  return undefined;
}

/** Whether the verdict answered the pair: a difference or an equivalence, on its family interval. */
export function answered(p: Pair): boolean {
  const f = p.famille;
  return f ? f.tranche || f.equivalent : p.tranche || (p.equivalent ?? false);
}
