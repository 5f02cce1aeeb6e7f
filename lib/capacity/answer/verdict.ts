/**
 * The answers, per voice and layout and then per voice: (a) the most live listeners confirmed with
 * no gap whose pace at the live speed's lower bound is at least x1, with S, the headroom, what a
 * rerun may answer, and (a) at each pre-buffer; (b) the most with every first audio within the
 * bound too. Gaps are counted by trial, S and publication by round (the independent unit: a round's
 * trials of a layout share its workers); listener-sessions are described.
 */
import { percentUp } from './evidence.js';
import type { CapacityEntry, Evidence, TrialRecord } from '../archive/schema.js';
import type { Sweep } from './sweep-state.js';
import { tallies } from './tally.js';
import { minOf } from '../../core/extremes.js';
import { stdev } from '../../measure/stats.js';
import { heldAtBuffer } from './buffers.js';
import { bestLayout, contenders, type LayoutSpeeds } from './layouts.js';
import {
  DEFAULT_DRIFT_SD,
  rerunSharePercent,
  PREDICTION_COVERAGE,
  edgeSpeed,
  edgeTrials,
  headroom,
  liveAnswer,
  planCoverage,
  prediction,
  type SpeedEstimate,
} from './live.js';
import { plural } from '../../report/words.js';

/** 1st, 22nd, 36th, 11th. */
const ordinal = (n: number): string =>
  `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
const ms = (x: number | null): string => (x === null ? '-' : `${Math.round(x)} ms`);

/** "3 of 3 whole trials held: a trial's chance of a gap below 63% (95%); 36 listener-sessions, 0 with a gap". */
export function gapEvidence(e: Evidence): string {
  const rate =
    e.taux_trou_max === null
      ? ''
      : `: with 95% confidence, fewer than ${percentUp(e.taux_trou_max)}% of such trials would have a gap`;
  return (
    `${e.essais_tenus} of ${plural(e.essais_entiers, 'whole trial')} held${rate}; ` +
    `${plural(e.sessions, 'listener-session')} described, ${e.sessions_avec_trou} with a gap`
  );
}

/** "3 trials, 0 with a listener over 500 ms: that chance below 63% (95%); 430 ms bounds the 36th percentile of a trial's worst". */
export function firstAudioEvidence(e: Evidence, limitMs: number): string {
  const worst =
    e.premier_son_borne_centile !== null && e.premier_son_borne_ms !== null
      ? `; ${ms(e.premier_son_borne_ms)} bounds the ${ordinal(Math.floor(e.premier_son_borne_centile * 100))} percentile of a trial's worst first audio (95%)`
      : '';
  const share = e.part_au_dela_max === null ? '' : `: that chance below ${percentUp(e.part_au_dela_max)}% (95%)`;
  return (
    `${plural(e.premier_son_essais, 'trial')}, ${e.premier_son_essais_au_dela} with a listener over ${limitMs} ms${share}${worst}; ` +
    `${plural(e.premier_son_sessions, 'listener')} described, ${e.premier_son_au_dela} over`
  );
}

/** The K above (a), in words: how many of its trials failed, or why the sweep stopped. */
/** "--max-streams 16 reached", or the calibrated ceiling's own words. */
function ceilingWords(s: Sweep): string {
  return s.ceiling.asked
    ? `--max-streams ${s.ceiling.streams} reached`
    : `the sweep's ceiling ${s.ceiling.streams} reached (half again above the calibrated speed; --max-streams sets it)`;
}

function beyondA(s: Sweep, a: number, proofs: Evidence[], borne: CapacityEntry['borne']): string {
  const next = proofs.find((p) => p.flux === a + 1);
  if (borne === 'erreur') return `the sweep broke: ${s.error}`;
  if (borne === 'controles')
    return `at ${a + 1}, a control failed in every try (${s.givenUp.find((g) => g.k === a + 1)?.why}), so it was not counted`;
  if (borne === 'memoire') return `memory holds no more workers (${s.memoryCap})`;
  if (borne === 'flux_max') return ceilingWords(s);
  if (!next) return 'nothing above it was tried';
  const gaps = next.essais - next.essais_tenus - next.essais_en_retard;
  if (next.essais_en_retard === 0) return `at ${a + 1}, gaps in ${gaps} of ${plural(next.essais, 'trial')}`;
  const speeds = next.debit_vivant.filter((x): x is number => x !== null && x > 0);
  const slowest =
    speeds.length > 0 ? `x${(minOf(speeds) / (a + 1)).toFixed(2)} per listener at worst under load: ` : '';
  return (
    `at ${a + 1}, of ${plural(next.essais, 'trial')}: ${gaps} with gaps, ${next.essais_en_retard} ` +
    `with no gap heard but behind real time (${slowest}a longer session would hear a gap)`
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

export interface EntryContext {
  voiceLabel: string;
  maxStreams: number;
  limitMs: number;
  /** The first sentence alone at the layout's threads, ms. */
  aloneMs: number | null;
  /** Pre-buffers to replay the answer at, ms. */
  prebuffersMs: readonly number[];
  /** The drift of log S between runs the prediction allows. */
  driftSd?: number;
  /** Earlier runs of this machine whose spread gave driftSd (absent: the drift between runs is assumed). */
  driftRuns?: number;
  /** The drift this run saw (drift.ts), folded into what a rerun may answer. */
  seen?: { lowLog: number; highLog: number };
  /** How many layouts of this voice the number to plan on is chosen among (planCoverage). */
  layouts?: number;
}

/** Rounds an answer needs, each with a whole trial held at its K or above, before it is published. */
export const MIN_ROUNDS = 3;

const x2 = (v: number): string => `x${v.toFixed(1)}`;
const pct = (v: number): string => `${Math.round(v * 100)}%`;

/** What limits the answer, from the sweep. */
function borneOf(s: Sweep): CapacityEntry['borne'] {
  const above = s.search.failedAbove();
  if (s.error) return 'erreur';
  if (s.givenUp.some((g) => g.k === above && g.purpose === 'sans_trou')) return 'controles';
  if (above !== undefined) return 'cpu';
  const ceiling = s.ceiling.streams;
  return s.search.cap < ceiling && s.memoryCap !== null && s.memoryCap < ceiling ? 'memoire' : 'flux_max';
}

/** The live figures of an entry: S at the edge, the answer it confirms, the headroom, the prediction. */
function liveFigures(
  s: Sweep,
  mine: TrialRecord[],
  x: { driftSd: number; seen?: EntryContext['seen']; layouts?: number },
) {
  const held = s.search.held();
  const speed = edgeSpeed(mine, held);
  const a = liveAnswer(held, speed);
  const edge = edgeTrials(mine, held);
  const trialLogSd = stdev(edge.map((t) => Math.log(t.debit_vivant as number)));
  const input = {
    answer: a,
    held,
    speed,
    cap: s.search.cap,
    driftSd: x.driftSd,
    ...(x.seen ? { seen: x.seen } : {}),
    ...(trialLogSd === null ? {} : { trialLogSd }),
  };
  return {
    held,
    a,
    speed,
    edgeTrials: edge.length,
    room: headroom(speed, a),
    forecast: prediction(input),
    planLow: prediction({ ...input, coverage: planCoverage(x.layouts ?? 1) })?.[0] ?? null,
  };
}

/**
 * Rounds still missing before an answer at `held` is published (0: enough). Support counts every round with a whole
 * trial, its controls held, at `held` or above that served its listeners with no gap and at pace: one that served
 * more shows `held` too (the staircase's own assumption), so an edge that moves down late keeps the rounds above it.
 * Several trials in one round's turn share its workers: they count once. S at the edge (`speedRounds`, its rounds)
 * must rest on as many: the answer's pace and its rerun range rest on it.
 */
export function roundsShort(mine: readonly TrialRecord[], held: number, speedRounds: number | null = null): number {
  if (held === 0) return 0;
  const rounds = new Set(
    mine.filter((t) => t.controle_tenu && t.but === 'sans_trou' && t.tenu && t.flux >= held).map((t) => t.manche),
  );
  return Math.max(0, MIN_ROUNDS - rounds.size, speedRounds === null ? 0 : MIN_ROUNDS - speedRounds);
}

/** Held is 0, yet some whole trial at K >= 1 served every listener without a gap: never said as "0". */
function someHeld(proofs: readonly Evidence[]): Evidence | undefined {
  return proofs.find((p) => p.essais_tenus > 0 && p.essais_entiers > 0);
}

/**
 * Trials held but S's lower bound is under x1: the trials are not denied, the promise is. With 2 rounds the t
 * interval on log S is 3 times as wide as with 3 (12.7 against 4.3 on one spread), so this is what few rounds say.
 */
function unpromised(held: number, speed: SpeedEstimate | null): string {
  const s =
    speed && speed.low !== null && speed.high !== null
      ? `x${speed.centre.toFixed(1)} [${speed.low.toFixed(1)}, ${speed.high.toFixed(1)}] over ${plural(speed.n, 'round')}`
      : 'unknown';
  return (
    `no live listener promised: every whole trial at ${held} held without a gap, but the live speed under this load ` +
    `(${s}) may be below x1 (more --rounds narrow it)`
  );
}

/** "12 live listeners: this machine makes x14.1 [13.2, 15.0] of speech under this load, 17% [10%, 25%] headroom at 12". */
function liveSentence(f: ReturnType<typeof liveFigures>, proofs: readonly Evidence[], short: number): string {
  const { a, held, speed, room } = f;
  const some = someHeld(proofs);
  if (held === 0 && some)
    return (
      `no number promised: ${some.flux} held in ${some.essais_tenus} of ${plural(some.essais_entiers, 'whole trial')}, ` +
      'but not in every one'
    );
  if (held === 0) return 'not even 1 live listener with no gap';
  if (short > 0)
    return `not measured enough: ${plural(short, 'more round')} holding ${held} before a number is published (${held} held so far)`;
  if (a === 0) return unpromised(held, speed);
  if (!speed || speed.low === null || speed.high === null || !room || room.low === null || room.high === null)
    return `${plural(a, 'live listener')} (no interval on the live speed: fewer than 2 rounds at the edge)`;
  const capped = a < held ? ` (${held} held without a gap, but the pace at S's lower bound stops at ${a})` : '';
  return (
    `${plural(a, 'live listener')}: this machine makes ${x2(speed.centre)} [${speed.low.toFixed(1)}, ${speed.high.toFixed(1)}] of speech ` +
    `under this load over ${plural(speed.n, 'round')}, ${pct(room.centre)} [${pct(room.low)}, ${pct(room.high)}] headroom at ${a}${capped}`
  );
}

const bufferWords = (xs: CapacityEntry['par_tampon']): string =>
  xs.map((b) => `${b.tampon_ms} ms ${b.au_moins ? 'at least ' : ''}${b.flux_max_sans_trou}`).join(', ');

export function capacityEntry(s: Sweep, trials: TrialRecord[], x: EntryContext): CapacityEntry {
  const mine = trials.filter((t) => t.voix === s.voice && t.disposition === s.name);
  const proofs = tallies(mine, x.limitMs);
  const driftSd = x.driftSd ?? DEFAULT_DRIFT_SD;
  const f = liveFigures(s, mine, {
    driftSd,
    ...(x.seen ? { seen: x.seen } : {}),
    ...(x.layouts ? { layouts: x.layouts } : {}),
  });
  // A default run on the slow VM published an answer on 2 rounds of S: S [8.5, 112.7], "plan on 1".
  const short = roundsShort(mine, f.held, f.speed?.n ?? null);
  const { a, held } = f;
  const b = Math.min(a, s.search.heldInBound());
  // The no-gap evidence is that of the K every whole trial held: where the pace lowers the answer below it, the
  // trials at that heavier load are what shows no gap at the answer (a lighter K may not have been tried).
  const atA = proofs.find((p) => p.flux === held);
  const atB = proofs.find((p) => p.flux === b);
  const borne = borneOf(s);
  const buffers = x.prebuffersMs.map((ms) => {
    const r = heldAtBuffer(mine, ms);
    return { tampon_ms: ms, flux_max_sans_trou: liveAnswer(r.held, f.speed), au_moins: r.atLeast };
  });
  const disagree = unsettled(proofs, held);
  const why = s.dropped ?? s.short;
  const shortWords = why ? ` Fewer trials than asked at its edges: ${why}.` : '';
  const between = x.driftRuns ? `, with the spread between ${x.driftRuns} earlier runs here and this one` : '';
  const rerun =
    f.forecast && short === 0 ? `; a rerun may answer ${f.forecast[0]} to ${f.forecast[1]} (95%${between})` : '';
  const evidence = atA && held > 0 ? ` Evidence at ${held}: ${gapEvidence(atA)}.` : '';
  const phrase =
    `${x.voiceLabel}, ${s.name}: ${liveSentence(f, proofs, short)}${rerun}; ${beyondA(s, held, proofs, borne)}` +
    `${disagree ? ` (${disagree})` : ''}.${evidence}${shortWords} By pre-buffer: ${bufferWords(buffers)}. ` +
    `Within ${x.limitMs} ms of first audio: ${answerB(s, { a, b }, proofs, x)}.`;
  return {
    voix: s.voice,
    disposition: s.name,
    flux_max_sans_trou: a,
    flux_max_dans_la_borne: b,
    flux_tenu_essais: held,
    debit_vivant: f.speed?.centre ?? null,
    debit_vivant_ic95: f.speed?.low != null && f.speed.high != null ? [f.speed.low, f.speed.high] : null,
    debit_vivant_essais: f.edgeTrials,
    debit_vivant_manches: f.speed?.n ?? 0,
    marge: f.room?.centre ?? null,
    marge_ic95: f.room?.low != null && f.room.high != null ? [f.room.low, f.room.high] : null,
    prevision: f.forecast && short === 0 ? [f.forecast[0], f.forecast[1]] : null,
    prevision_couverture: PREDICTION_COVERAGE,
    plan_bas: f.forecast && short === 0 ? f.planLow : null,
    derive_entre_runs: driftSd,
    derive_vue:
      x.seen && (x.seen.lowLog !== 0 || x.seen.highLog !== 0)
        ? [Math.exp(x.seen.lowLog), Math.exp(x.seen.highLog)]
        : null,
    essais_manquants: short,
    par_tampon: buffers,
    taux_trou_max: atA?.taux_trou_max ?? null,
    essais: atA?.essais ?? 0,
    essais_tenus: atA?.essais_tenus ?? 0,
    sessions: atA?.sessions ?? 0,
    sessions_avec_trou: atA?.sessions_avec_trou ?? 0,
    premier_son_p95_ms: b > 0 ? (atB?.premier_son_p95_ms ?? null) : null,
    premier_son_seul_ms: x.aloneMs,
    preuves: proofs,
    trous_au_dela: proofs.some((p) => p.flux === held + 1)
      ? Math.max(0, ...mine.filter((t) => t.flux === held + 1 && t.controle_tenu).map((t) => t.trous))
      : null,
    borne,
    plafond: s.ceiling.streams,
    prediction: s.search.predicted,
    prediction_dans_la_borne: s.search.inBoundImpossible ? 0 : s.search.predictedInBound,
    controle_tenu: s.givenUp.length === 0 && s.error === undefined,
    phrase,
  };
}

/**
 * What "a rerun may answer" assumes of the machine between runs, said: the drift between runs it allowed, as the
 * share either way a rerun's speed may sit from this run's (95%), and whether it was measured or assumed.
 */
export function betweenRunsWords(entries: readonly CapacityEntry[]): string {
  const sd = Math.max(DEFAULT_DRIFT_SD, ...entries.map((e) => e.derive_entre_runs).filter(Number.isFinite));
  const runs = Math.max(0, ...entries.map((e) => e.derive_entre_runs_runs ?? 0));
  const share = rerunSharePercent(sd);
  const measured = entries.some(
    (e) =>
      e.derive_entre_runs_mesuree !== undefined &&
      e.derive_entre_runs_mesuree !== null &&
      e.derive_entre_runs > DEFAULT_DRIFT_SD,
  );
  return measured
    ? `Reruns: a rerun's speed within ${share}% of this run's either way, at the upper bound (80%) of what ` +
        `${plural(runs, 'earlier run')} here and this one measured.`
    : `Reruns: a rerun's speed assumed within ${share}% of this run's either way (not measured here: two earlier runs ` +
        'of this workload in --out-dir measure it; this VM has moved more between runs minutes apart).';
}

/** One line per voice: the best layout by live speed (or the ones not told apart), then every layout's answers. */
export function voiceVerdict(
  voiceLabel: string,
  entries: CapacityEntry[],
  x: { limitMs: number; memory: string; speeds: LayoutSpeeds[]; conditions?: string },
): string {
  if (entries.length === 0) return `${voiceLabel}: no layout was measured.`;
  const best = bestLayout(x.speeds);
  // An answer short of rounds is not published, so it heads nothing. "At most" follows the number to plan on: among
  // the layouts the best may be (plan-on.ts), the most a rerun may answer, never the highest of this run's answers.
  const shown = entries.filter((e) => (e.essais_manquants ?? 0) === 0);
  const named = contenders(best);
  const among = shown.filter((e) => named.includes(e.disposition));
  const most = (e: CapacityEntry): number => e.prevision?.[1] ?? e.flux_max_sans_trou;
  const top = ([...(among.length > 0 ? among : shown)].sort((p, q) => most(q) - most(p))[0] ?? {
    ...(entries[0] as CapacityEntry),
    flux_max_sans_trou: 0,
    prevision: null,
  }) as CapacityEntry;
  const b = [...entries].sort((p, q) => q.flux_max_dans_la_borne - p.flux_max_dans_la_borne)[0] as CapacityEntry;
  const capped = top.borne === 'flux_max' ? " (the sweep's ceiling: it may serve more)" : '';
  const forecast = (e: CapacityEntry): string => (e.prevision ? ` [rerun ${e.prevision[0]}-${e.prevision[1]}]` : '');
  const heldMost = Math.max(...entries.map((e) => e.flux_tenu_essais));
  const anyHeld = entries.some((e) => e.preuves.some((p) => p.essais_tenus > 0 && p.essais_entiers > 0));
  const anyShort = entries.some((e) => (e.essais_manquants ?? 0) > 0);
  const headA =
    top.flux_max_sans_trou === 0
      ? heldMost > 0 && !anyShort
        ? `no layout promised one live listener (whole trials held up to ${heldMost} without a gap, ` +
          "but the live speed's interval reaches below x1: more --rounds narrow it)"
        : anyShort
          ? 'no answer measured enough to publish (each layout says what it lacks)'
          : anyHeld
            ? 'no layout promised one live listener (some whole trials held without a gap, but not every one at any K)'
            : 'no layout served one live listener without a gap'
      : `at most ${plural(most(top), 'live listener')} with no gap on a rerun (${top.disposition}${capped})`;
  const headB =
    b.flux_max_dans_la_borne === 0
      ? `no layout kept every first audio within ${x.limitMs} ms`
      : `${b.flux_max_dans_la_borne} with first audio within ${x.limitMs} ms too (${b.disposition})`;
  const each = entries
    .map((e) =>
      (e.essais_manquants ?? 0) > 0
        ? `${e.disposition} not measured enough (${e.essais_manquants} more round(s) holding ${e.flux_tenu_essais})`
        : `${e.disposition} ${e.flux_max_sans_trou}${forecast(e)} / ${e.flux_max_dans_la_borne}`,
    )
    .join('; ');
  const where = `${voiceLabel} on this machine${x.conditions ? ` (${x.conditions})` : ''}`;
  return (
    `${where}: ${headA}; ${headB}${entries.length > 1 || !best.phrase.startsWith('only ') ? `; ${best.phrase}` : ''}. ` +
    `Each layout (no gap [a rerun may answer] / within the bound): ${each}. ${betweenRunsWords(entries)} ${x.memory}`
  );
}
