/** The layouts that serve K streams of one voice, ranked, and the pairs a sentence quotes. */
import type { Archive, ArmRecord } from '../schema.js';
import { median } from '../../measure/stats.js';
import { armCentre, armVoiceLabel, layoutLabel } from './labels.js';
import { atConfidence, nonInferior, pairPhrase, scorePair, type Pair, type ScoredPair } from './pair.js';
import { minOf } from '../../core/extremes.js';
import { bare, decisionLine, decisionParts, headline } from './decision.js';
import { presetQuestions } from '../sequential/rule.js';
import { recordShape } from '../sequential/shapes.js';
import { roundsToSettle } from '../sequential/answer.js';

/** A layout's one request alone, without the serving order. */
const alone = (c: { disposition: string; debit_par_requete: number | null }): string =>
  `${bare(c.disposition)} ${x(c.debit_par_requete)}`;

export type Comparison = Archive['verdict']['comparaisons'][number];

/** A comparison before its phrase: the phrase waits for the family's intervals. */
export interface RankedLayouts {
  comparison: Omit<Comparison, 'phrase' | 'resolu'>;
  scored: ScoredPair[];
  /** The pairs a sentence quotes: best against runner-up, and the deployment question. */
  quoted: ScoredPair[];
  kept: ArmRecord[];
  rounds: number;
  head: string;
  /** The decision line's head: the voice and K, shorter than the sentence's. */
  short: string;
  /** The deployment question's pair, and the best against the runner-up. */
  question: ScoredPair | undefined;
  /** A sequential run: its questions' pairs (set before it ran), quoted in place of the two above. */
  preset?: ScoredPair[];
  top: ScoredPair | undefined;
  tail: string[];
}

const x = (v: number | null): string => (v === null ? '-' : `x${v.toFixed(1)}`);
const ci = (c: [number, number] | null): string => (c ? `[${c[0].toFixed(1)}, ${c[1].toFixed(1)}]` : '[no interval]');

/** One request's own speed under a layout: a stream's median throughput. */
function perRequest(arm: ArmRecord): number | null {
  const v = arm.debit_par_flux_mediane.filter((d): d is number => d !== null);
  return v.length > 0 ? median(v) : null;
}

/** The deployment question: the best of K workers at once against the best single worker taking the K in turn. */
function questionPair(kept: ArmRecord[], scored: ScoredPair[], k: number): ScoredPair | undefined {
  const parallel = kept.find((a) => a.flux_simultanes === k && k > 1);
  const single =
    kept.find((a) => a.flux_simultanes === 1 && a.fils_par_flux === k) ?? kept.find((a) => a.flux_simultanes === 1);
  if (!parallel || !single) return undefined;
  const names = [layoutLabel(parallel, k), layoutLabel(single, k)];
  return scored.find((s) => names.includes(s.pair.a) && names.includes(s.pair.b));
}

export interface GroupTag {
  moteur: 'onnxruntime' | 'sherpa';
  portee: 'model' | 'text';
  label: string;
}

/** Rank the layouts serving k streams; which pairs to quote. Undefined when no layout serves k. */
export function rankLayouts(
  voiceArms: ArmRecord[],
  k: number,
  cores: number,
  group: GroupTag | undefined,
  o: { marginPct: number; sequential?: boolean },
): RankedLayouts | undefined {
  const { marginPct } = o;
  // k simultaneous workers, or one worker taking the k requests in turn (each waits for the ones before it).
  const candidates = voiceArms.filter((a) => a.flux_simultanes === k || a.flux_simultanes === 1);
  if (candidates.length === 0) return undefined;
  const kept = candidates.filter((a) => a.controle_tenu).sort((a, b) => (armCentre(b) ?? -1) - (armCentre(a) ?? -1));
  const exclus = candidates
    .filter((a) => !a.controle_tenu)
    .map(
      (a) =>
        `${layoutLabel(a, k)} (${
          a.etat !== 'done'
            ? a.etat
            : `failed ${a.controles
                .filter((c) => !c.held)
                .map((c) => c.name)
                .join(', ')}`
        })`,
    );
  const classement = kept.map((a) => ({
    disposition: layoutLabel(a, k),
    debit_agrege: armCentre(a),
    ic95: a.debit_agrege_ic95,
    debit_par_requete: perRequest(a),
  }));
  const arms = kept.flatMap((a, i) => kept.slice(i + 1).map((b) => [a, b] as const));
  const scored = arms.map(([a, b]) => scorePair(a, b, [layoutLabel(a, k), layoutLabel(b, k)], marginPct));
  const top = scored[0];
  const question = questionPair(kept, scored, k);
  // A sequential run quotes the questions it set before it ran: no pair picked from the data.
  // The deployment questions first, then pinned against free.
  const kinds = arms.map((pair) => presetQuestions(pair, recordShape).find((q) => q.k === k)?.kind);
  const preset = o.sequential
    ? [...scored.entries()]
        .filter(([i]) => kinds[i] !== undefined)
        .sort(([i], [j]) => (kinds[i] === 'pinning' ? 1 : 0) - (kinds[j] === 'pinning' ? 1 : 0))
        .map(([, s]) => s)
    : undefined;
  const quoted =
    preset ?? [top, question].filter((s, i, all): s is ScoredPair => s !== undefined && all.indexOf(s) === i);
  const rounds = minOf(kept.map((a) => a.debit_agrege_manches.filter((v) => v !== null).length));
  const tail: string[] = [];
  if (classement.length > 1)
    tail.push(
      `One request alone (a stream's median, no interval, not a ranking): ${classement.map(alone).join(', ')}.`,
    );
  if (k > 1 && kept.some((a) => a.flux_simultanes === 1))
    tail.push(`Serving ${k} streams with one worker means request ${k} waits for ${k - 1} before it.`);
  if (exclus.length > 0) tail.push(`Left out, controls failed: ${exclus.join('; ')}.`);
  const voice = `${armVoiceLabel(voiceArms[0] as ArmRecord)}${group ? ` [${group.label}]` : ''}`;
  const head = `${k} stream${k > 1 ? 's' : ''} on ${cores} cores, ${voice}: `;
  const short = `${voice}, ${k} stream${k > 1 ? 's' : ''}: `;
  const comparison = {
    voix: voiceArms[0]?.voix ?? '',
    flux: k,
    ...(group ? { moteur: group.moteur, portee: group.portee } : {}),
    classement,
    paires: scored.map((s) => s.pair),
    exclus,
  };
  const decided = rounds >= 2;
  return {
    comparison,
    scored,
    quoted: decided ? quoted : [],
    kept,
    rounds,
    head,
    short,
    question: decided ? question : undefined,
    top: decided ? top : undefined,
    ...(preset ? { preset: decided ? preset : [] } : {}),
    tail,
  };
}

/** The sentence, once the quoted pairs carry their family intervals. */
export function layoutsPhrase(r: RankedLayouts, marginPct: number, minRounds: number): Comparison {
  const { classement } = r.comparison;
  const parts: string[] = [
    classement.length === 0
      ? 'no layout held its controls, so nothing can be concluded.'
      : `${classement.map((c) => `${c.disposition}: ${x(c.debit_agrege)} aggregate ${ci(c.ic95)}`).join('; ')}.`,
  ];
  const top = r.scored[0];
  if (top && r.rounds < minRounds) {
    parts.push(
      `Too few rounds to decide: ${r.rounds} round${r.rounds === 1 ? '' : 's'}, and an interval that ` +
        `holds the drift between rounds needs at least ${minRounds}; run again with --rounds ${minRounds} or more.`,
    );
  } else if (top && r.preset) {
    const level = r.quoted[0]?.pair.famille?.confiance;
    if (level !== undefined)
      parts.push(
        `The questions set before the run, at its looks' level (${(100 * level).toFixed(2)}% each), so that this voice's hold together at 95% over every look:`,
      );
    for (const q of r.quoted) parts.push(pairPhrase(q.pair, marginPct));
  } else if (top) {
    const size = top.pair.famille?.taille ?? 1;
    if (size > 1)
      parts.push(
        `Intervals of the quoted comparisons: ${(100 * (1 - 0.05 / size)).toFixed(1)}% each, so that all ${size} of this voice hold together at 95%.`,
      );
    for (const q of r.quoted) parts.push(pairPhrase(q.pair, marginPct));
  }
  const rivals = r.rounds >= minRounds ? bestRivals(r, marginPct) : undefined;
  // The top pair's own sentence already says when the runner-up is not told apart; others are said here.
  if (rivals && rivals.some((p) => p !== top?.pair))
    parts.push(
      `No best layout: ${top?.pair.a} is not resolved above ${rivals.map((p) => p.b).join(', ')} at the family's confidence.`,
    );
  // The best layout is named only where it is resolved above every other layout.
  const resolu = classement.length === 1 || (rivals !== undefined && rivals.length === 0);
  return {
    ...r.comparison,
    resolu,
    phrase: r.head + [...parts, ...r.tail].join(' '),
    ...decisionOf(r, marginPct, minRounds),
  };
}

/**
 * The layouts the top one is not resolved above: every pair of it with another layout, judged at
 * the confidence of its quoted pair with the runner-up. "Best" is one claim that needs all of them
 * (an intersection-union test: each at the claim's level, no further widening). Undefined when
 * nothing was ranked.
 */
export function bestRivals(r: RankedLayouts, marginPct: number): Pair[] | undefined {
  const top = r.scored[0];
  if (!top) return undefined;
  // The family's level: the top pair's own when it is quoted, else any quoted pair's (a sequential run's).
  const f = top.pair.famille ?? r.quoted[0]?.pair.famille;
  const family = { taille: f?.taille ?? 1, confiance: f?.confiance ?? 0.95 };
  return r.scored
    .filter((s) => s.pair.a === top.pair.a)
    .map((s) => (s.pair.famille ? s.pair : atConfidence(s, family, marginPct)))
    .filter((p) => !(p.famille?.ic && p.famille.ic[0] > 1));
}

/** The comparison's lines in the terminal's decision block: the archived line, the one-line answer, its details. */
function decisionOf(
  r: RankedLayouts,
  marginPct: number,
  minRounds: number,
): { decision: string; ligne: string; details: string[] } {
  const { classement } = r.comparison;
  const alone = (line: string) => ({ decision: line, ligne: line, details: [] });
  if (classement.length === 0) return alone(`${r.short}no layout held its controls: nothing can be concluded`);
  if (classement.length === 1) return alone(`${r.short}only ${classement[0]?.disposition} held its controls`);
  if (r.rounds < minRounds)
    return alone(`${r.short}too few rounds to decide (${r.rounds}); run again with --rounds ${minRounds} or more`);
  const questions = r.preset?.map((s) => ({ pair: s.pair, more: moreRounds(s, marginPct) }));
  const input = { question: r.question?.pair, top: r.top?.pair, rivals: bestRivals(r, marginPct), questions };
  const one = headline(r.short, input, marginPct);
  return {
    decision: decisionLine(r.short, input, marginPct) ?? `${r.short}nothing to compare`,
    ligne: one.line,
    details: [...decisionParts(input, marginPct, one.used), ...stoppedRivals(r, input.rivals)],
  };
}

/**
 * A layout named beside the best that ran fewer rounds than the best (a sequential run stops an arm once no open
 * question needs it): "not told apart" on its fewer rounds is a wide interval, not a close layout, and is said so.
 */
function stoppedRivals(r: RankedLayouts, rivals: readonly Pair[] | undefined): string[] {
  if (!rivals || rivals.length === 0) return [];
  const roundsOf = (a: ArmRecord): number => a.debit_agrege_manches.filter((v) => v !== null).length;
  const top = r.kept[0];
  if (!top) return [];
  const k = r.kept.reduce((n, a) => Math.max(n, a.flux_simultanes), 1);
  const named = new Set(rivals.map((p) => p.b));
  return r.kept
    .filter((a) => named.has(layoutLabel(a, k)) && roundsOf(a) < roundsOf(top))
    .map(
      (a) =>
        `${bare(layoutLabel(a, k))} ran ${roundsOf(a)} of the best's ${roundsOf(top)} rounds (stopped once no open question ` +
        `needed it; centre ${x(armCentre(a))} against ${x(armCentre(top))}): not told apart on fewer rounds, not shown close`,
    );
}

/** For a question left open: about how many more rounds would settle it, at its spread and level. */
function moreRounds(s: ScoredPair, marginPct: number): string {
  const f = s.pair.famille;
  // A non-inferiority is an answer a deployer acts on: no "more rounds" after it.
  if (!f || f.tranche || f.equivalent || nonInferior(f.ic, marginPct)) return '';
  const n = roundsToSettle(s.logs, f.confiance, marginPct);
  return n === null ? '' : `: about ${Math.max(1, n - s.logs.length)} more round(s) would settle it`;
}
