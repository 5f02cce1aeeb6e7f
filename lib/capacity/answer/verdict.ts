/**
 * The answers, per voice and layout and then per voice: (a) the most live streams with no gap,
 * (b) the most with every first audio within the bound too, each with the evidence it rests on
 * (trials, listener-sessions, an upper bound on the gap rate or on the share over the bound), and
 * what happened one step beyond.
 */
import { percentUp } from './evidence.js';
import type { CapacityEntry, Evidence, TrialRecord } from '../archive/schema.js';
import type { Sweep } from './sweep-state.js';
import { tallies } from './tally.js';
import { maxOf, minOf } from '../../core/extremes.js';

const ms = (x: number | null): string => (x === null ? '-' : `${Math.round(x)} ms`);
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** "18 listener-sessions, 0 gaps: gap rate below 16% (95% confidence)". */
export function gapEvidence(e: Evidence): string {
  const rate = e.taux_trou_max === null ? '' : `: gap rate below ${percentUp(e.taux_trou_max)}% (95% confidence)`;
  return (
    `${e.essais_tenus} of ${plural(e.essais, 'trial')}, ${plural(e.sessions, 'listener-session')}, ` +
    `${plural(e.sessions_avec_trou, 'with a gap', 'with a gap')}${rate}`
  );
}

/** "first audio at most 430 ms in 24 sessions: over 500 ms for fewer than 12% of listeners (95%)". */
export function firstAudioEvidence(e: Evidence, limitMs: number): string {
  const worst =
    e.premier_son_borne_centile !== null && e.premier_son_borne_ms !== null
      ? `; ${ms(e.premier_son_borne_ms)} bounds the ${Math.floor(e.premier_son_borne_centile * 100)}th percentile (95%)`
      : '';
  const share =
    e.part_au_dela_max === null
      ? ''
      : `: over ${limitMs} ms for fewer than ${percentUp(e.part_au_dela_max)}% of listeners (95%)`;
  return `${plural(e.premier_son_sessions, 'session')}, ${e.premier_son_au_dela} over the bound${share}${worst}`;
}

/** The K above (a), in words: how many of its trials failed, or why the sweep stopped. */
function beyondA(s: Sweep, a: number, proofs: Evidence[], borne: CapacityEntry['borne'], maxStreams: number): string {
  const next = proofs.find((p) => p.flux === a + 1);
  if (borne === 'erreur') return `the sweep broke: ${s.error}`;
  if (borne === 'controles')
    return `at ${a + 1}, a control failed in every try (${s.givenUp.find((g) => g.k === a + 1)?.why}), so it was not counted`;
  if (borne === 'memoire') return `memory holds no more workers (${s.memoryCap})`;
  if (borne === 'flux_max') return `--max-streams ${maxStreams} reached`;
  if (!next) return 'nothing above it was tried';
  const gaps = next.essais - next.essais_tenus - next.essais_en_retard;
  if (next.essais_en_retard === 0) return `at ${a + 1}, gaps in ${gaps} of ${plural(next.essais, 'trial')}`;
  const slowest = minOf(next.debit_par_flux.filter((x): x is number => x !== null));
  return (
    `at ${a + 1}, of ${plural(next.essais, 'trial')}: ${gaps} with gaps, ${next.essais_en_retard} ` +
    `with no gap heard but behind real time (x${slowest.toFixed(2)} per listener at worst: a longer ` +
    `session would hear a gap)`
  );
}

/** Where trials above (a) disagreed: "8 held in 2 of 3 trials". */
function unsettled(proofs: Evidence[], a: number): string {
  const mixed = proofs.filter((p) => p.flux > a && p.essais_tenus > 0);
  return mixed.map((p) => `${p.flux} held in ${p.essais_tenus} of ${plural(p.essais, 'trial')}`).join(', ');
}

function answerB(
  s: Sweep,
  { a, b }: { a: number; b: number },
  proofs: Evidence[],
  x: { limitMs: number; aloneMs: number | null },
): string {
  const { limitMs, aloneMs } = x;
  const t = s.layout.threads;
  if (s.search.inBoundImpossible)
    return `none: the first sentence alone takes ${ms(aloneMs)} at ${plural(t, 'thread')}, so no K meets ${limitMs} ms; without the bound: ${a}`;
  const at = proofs.find((p) => p.flux === b);
  const next = proofs.find((p) => p.flux === b + 1);
  const over =
    next && next.premier_son_au_dela > 0
      ? `; at ${b + 1}, ${next.premier_son_au_dela} of ${plural(next.premier_son_sessions, 'listener')} waited longer`
      : '';
  if (b === 0) return `none${over}; without the bound: ${a}`;
  return `${b === a ? 'the same, ' : ''}${b} (${at ? firstAudioEvidence(at, limitMs) : 'no evidence'})${b === a ? '' : over}`;
}

/**
 * What a rerun may answer, from the machine's own swings as the run saw them in the whole trials at
 * the edge run to their end (at the answer or the K above; one stopped at a gap leaves its sentences
 * in flight uncounted, so its speed reads low). Down: what the slowest made at x1 per listener, were
 * a rerun slower again by the same ratio (slowest over fastest); never above the answer. Up: what
 * the fastest made, or the largest K any trial held.
 */
export function rerunRange(
  mine: TrialRecord[],
  a: number,
  proofs: Evidence[],
  cap: number,
): { min: number; max: number } {
  const heldUpTo = Math.max(a, ...proofs.filter((p) => p.essais_tenus > 0).map((p) => p.flux));
  const speeds = mine
    .filter((t) => t.controle_tenu && t.but === 'sans_trou' && t.etat === 'done' && (t.flux === a || t.flux === a + 1))
    .flatMap((t) => (t.debit_agrege === null ? [] : [t.debit_agrege]));
  if (a === 0 || speeds.length === 0) return { min: a, max: heldUpTo };
  const slow = minOf(speeds);
  const fast = maxOf(speeds);
  return {
    min: Math.min(a, Math.floor((slow * slow) / fast)),
    max: Math.min(cap, Math.max(heldUpTo, Math.floor(fast))),
  };
}

export interface EntryContext {
  voiceLabel: string;
  maxStreams: number;
  limitMs: number;
  /** The first sentence alone at the layout's threads, ms. */
  aloneMs: number | null;
}

export function capacityEntry(s: Sweep, trials: TrialRecord[], x: EntryContext): CapacityEntry {
  const mine = trials.filter((t) => t.voix === s.voice && t.disposition === s.name);
  const proofs = tallies(mine, x.limitMs);
  const a = s.search.held();
  const b = s.search.heldInBound();
  const atA = proofs.find((p) => p.flux === a);
  const atB = proofs.find((p) => p.flux === b);
  const above = s.search.failedAbove();
  const borne: CapacityEntry['borne'] = s.error
    ? 'erreur'
    : s.givenUp.some((g) => g.k === above && g.purpose === 'sans_trou')
      ? 'controles'
      : above !== undefined
        ? 'cpu'
        : s.search.cap < x.maxStreams && s.memoryCap !== null && s.memoryCap < x.maxStreams
          ? 'memoire'
          : 'flux_max';
  const range = rerunRange(mine, a, proofs, s.search.cap);
  const next = proofs.find((p) => p.flux === a + 1);
  const served =
    a === 0
      ? 'not even 1 live stream with no gap'
      : `${plural(a, 'live stream')} with no gap (${atA ? gapEvidence(atA) : 'no evidence'})`;
  const disagree = unsettled(proofs, a);
  const short = s.short ? ` Fewer trials than asked at its edges: ${s.short}.` : '';
  const rerun = range.min < range.max ? `, a rerun may say ${range.min} to ${range.max}` : '';
  const phrase =
    `${x.voiceLabel}, ${s.name}: ${served}${rerun}; ${beyondA(s, a, proofs, borne, x.maxStreams)}${disagree ? ` (${disagree})` : ''}.${short} ` +
    `Within ${x.limitMs} ms of first audio: ${answerB(s, { a, b }, proofs, x)}.`;
  return {
    voix: s.voice,
    disposition: s.name,
    flux_max_sans_trou: a,
    flux_max_dans_la_borne: b,
    plage_sans_trou: range,
    sessions: atA?.sessions ?? 0,
    sessions_avec_trou: atA?.sessions_avec_trou ?? 0,
    taux_trou_max: atA?.taux_trou_max ?? null,
    essais: atA?.essais ?? 0,
    essais_tenus: atA?.essais_tenus ?? 0,
    premier_son_p95_ms: b > 0 ? (atB?.premier_son_p95_ms ?? null) : null,
    premier_son_seul_ms: x.aloneMs,
    preuves: proofs,
    trous_au_dela: next
      ? Math.max(0, ...mine.filter((t) => t.flux === a + 1 && t.controle_tenu).map((t) => t.trous))
      : null,
    borne,
    prediction: s.search.predicted,
    prediction_dans_la_borne: s.search.inBoundImpossible ? 0 : s.search.predictedInBound,
    controle_tenu: s.givenUp.length === 0 && s.error === undefined,
    phrase,
  };
}

/** One line per voice: the best layout for each answer, then every layout's two answers. */
export function voiceVerdict(voiceLabel: string, entries: CapacityEntry[], limitMs: number, memory: string): string {
  if (entries.length === 0) return `${voiceLabel}: no layout was measured.`;
  const best = (key: 'flux_max_sans_trou' | 'flux_max_dans_la_borne'): CapacityEntry =>
    [...entries].sort((x, y) => y[key] - x[key])[0] as CapacityEntry;
  const a = best('flux_max_sans_trou');
  const b = best('flux_max_dans_la_borne');
  const range =
    a.plage_sans_trou.max > a.plage_sans_trou.min
      ? ` (a rerun may say ${a.plage_sans_trou.min} to ${a.plage_sans_trou.max})`
      : '';
  const capped = a.borne === 'flux_max' ? ' (the --max-streams cap: it may serve more)' : '';
  const headA =
    a.flux_max_sans_trou === 0
      ? 'no layout served one live stream without a gap'
      : `${plural(a.flux_max_sans_trou, 'live stream')} with no gap, with ${a.disposition}${capped}${range}`;
  const headB =
    b.flux_max_dans_la_borne === 0
      ? `no layout kept every first audio within ${limitMs} ms`
      : `${b.flux_max_dans_la_borne} with first audio within ${limitMs} ms too, with ${b.disposition}`;
  const each = entries.map((e) => `${e.disposition} ${e.flux_max_sans_trou} / ${e.flux_max_dans_la_borne}`).join('; ');
  return `${voiceLabel} on this machine: ${headA}; ${headB}. Each layout (no gap / within the bound): ${each}. ${memory}`;
}
