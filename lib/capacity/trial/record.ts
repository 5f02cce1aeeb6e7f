/** A trial as the archive keeps it: its listeners, its figures, its controls, and what it shows. */
import {
  arrivalsControl,
  clientCpuControl,
  memoryControl,
  outsideLoadControl,
  type Control,
} from '../../measure/controls.js';
import { outsideCoresOver, stealShare, type CpuSnapshot } from '../../measure/system-cpu.js';
import type { TrialRecord } from '../archive/schema.js';
import type { TrialResult } from './trial.js';
import { maxOf, minOf } from '../../core/extremes.js';
import { deliveredSpeed, liveSpeed, type LiveSpeed } from './live-speed.js';

/**
 * `sans_trou`: a whole trial of the search; `premier_son`: stopped once every first audio is known; `reference`: a
 * whole trial of the run's fixed reference (one layout, one K, fresh workers) at its start, middle and end, which
 * measures the machine's drift and is no step of any search.
 */
export type TrialPurpose = 'sans_trou' | 'premier_son' | 'reference';

export interface TrialContext {
  voice: string;
  layout: string;
  k: number;
  workers: number;
  round: number;
  /** A whole trial (stopped only at a gap), or a first-audio trial (stopped once every first audio is known). */
  purpose: TrialPurpose;
  /** 0 for the first try at this K in this round, 1 and 2 for the runs again after a failed control. */
  retry?: number;
  firstAudioLimitMs: number;
  /** Cores the run may use: the live speed counts the span where at least min(cores, workers) sentences were in synthesis. */
  cores: number;
  /** Machine CPU around the trial (none: no outside-load figure). */
  cpu?: { before: CpuSnapshot; after: CpuSnapshot };
  /** Pages swapped during the trial; null where unreadable. */
  swapPages: number | null;
  /**
   * A server's trial: the measuring process's own CPU over the trial, in cores (null: unreadable). The server's CPU
   * is the work measured, so other programs' load is not a control there, and its workers' page faults are its own:
   * the memory control keeps to this machine's swap.
   */
  server?: { clientCores: number | null };
}

export interface TrialOutcome {
  /** No listener heard a gap in a whole trial; false on a gap; null when the trial was not run to the end (nothing known). */
  gapFree: boolean | null;
  /**
   * The machine kept pace: while it was loaded (the live speed's span, after the last arrival), it made x1 or more
   * per listener. With a short reply a machine that falls behind can hide it in the listeners' first wait; a longer
   * session would hear the gap. The arrival stagger is left out, as S leaves it out: listeners arriving over a few
   * seconds are no slowness of the machine. A trial never fully loaded after its last arrival had no backlog: it kept
   * pace. Null when the trial was not run to the end.
   */
  keptPace: boolean | null;
  /** Held for the first answer: no gap and kept pace. */
  held: boolean | null;
  /** No gap so far and every listener's first audio within the bound. */
  inBound: boolean;
}

/** Audio made over the trial's span (first job start to last job end), and that per listener: described, not judged. */
export function trialSpeed(r: TrialResult): { aggregate: number | null; perStream: number | null } {
  if (r.jobs.length === 0) return { aggregate: null, perStream: null };
  const spanSeconds = (maxOf(r.jobs.map((j) => j.endMs)) - minOf(r.jobs.map((j) => j.startMs))) / 1000;
  const audio = r.jobs.reduce((n, j) => n + j.audioSeconds, 0);
  const aggregate = spanSeconds > 0 ? audio / spanSeconds : null;
  return { aggregate, perStream: aggregate === null ? null : aggregate / r.streams.length };
}

/**
 * A trial's live speed S, with `busy` sentences in synthesis counted as loaded (min(cores, workers)); a server's by
 * delivery. Only a trial run to its planned end has one: one stopped early was not loaded as planned.
 */
export function trialLiveSpeed(r: TrialResult, busy: number, server = false): LiveSpeed {
  if (r.state !== 'done') return { speed: null, spanMs: 0 };
  return (server ? deliveredSpeed : liveSpeed)(
    r.jobs,
    r.arrivals.map((a) => a.actualMs),
    busy,
  );
}

/** What a trial shows, its controls aside; `speed` is its S (null: never fully loaded after the last arrival). */
export function trialOutcome(
  r: TrialResult,
  purpose: TrialPurpose,
  firstAudioLimitMs: number,
  speed: number | null,
): TrialOutcome {
  const ended = r.state === 'done' || r.state === 'stopped';
  if (!ended) return { gapFree: null, keptPace: null, held: null, inBound: false };
  const gapFree = r.gaps > 0 ? false : r.state === 'done' ? true : purpose === 'premier_son' ? null : false;
  const keptPace = r.state === 'done' ? speed === null || speed / r.streams.length >= 1 : null;
  const held = gapFree === true ? keptPace === true : gapFree;
  const allFirst = r.streams.every((s) => s.sentences.length > 0);
  const inBound = r.gaps === 0 && allFirst && r.streams.every((s) => s.firstAudioMs <= firstAudioLimitMs);
  return { gapFree, keptPace, held, inBound };
}

/** K held: a whole trial that ended with no gap, the machine keeping pace while loaded (`busy` as trialLiveSpeed). */
export function trialHeld(r: TrialResult, busy = 1): boolean {
  return trialOutcome(r, 'sans_trou', Number.POSITIVE_INFINITY, trialLiveSpeed(r, busy).speed).held === true;
}

const known = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** A server's replies: how many audio pairs each came in (by count), and the silence it added after speech, s. */
function serverPairs(r: TrialResult): { paires_par_reponse: Record<string, number>; silence_serveur_s: number } {
  const byCount: Record<string, number> = {};
  let silence = 0;
  for (const j of r.jobs) {
    const n = String(j.pairs?.length ?? 1);
    byCount[n] = (byCount[n] ?? 0) + 1;
    silence += (j.pairs ?? []).reduce((s, p) => s + p.silenceSeconds, 0);
  }
  return { paires_par_reponse: byCount, silence_serveur_s: silence };
}

/** The most of one arrival's lateness that was the whole machine stopped, ms. */
const machineStopped = (r: TrialResult): number => Math.max(0, ...r.arrivals.map((a) => a.machineStoppedMs));

export function trialRecord(r: TrialResult, c: TrialContext): TrialRecord {
  // Only listeners due before the trial ended are judged: one not due yet did not arrive late.
  const controls: Control[] = [
    arrivalsControl(r.worstLatenessMs, machineStopped(r)),
    memoryControl(c.swapPages, c.server ? [] : r.majorFaults),
  ];
  if (c.server) controls.push(clientCpuControl(c.server.clientCores));
  else if (c.cpu) controls.push(outsideLoadControl(outsideCoresOver([c.cpu])));
  const { aggregate, perStream } = trialSpeed(r);
  const ended = r.state === 'done' || r.state === 'stopped';
  const firstAudio = r.streams.filter((s) => s.sentences.length > 0).map((s) => s.firstAudioMs);
  const live = trialLiveSpeed(r, Math.min(c.cores, c.workers), c.server !== undefined);
  const outcome = trialOutcome(r, c.purpose, c.firstAudioLimitMs, live.speed);
  return {
    voix: c.voice,
    disposition: c.layout,
    flux: c.k,
    travailleurs: c.workers,
    manche: c.round,
    but: c.purpose,
    reprise: c.retry ?? 0,
    etat: r.state,
    erreur: r.state === 'done' ? null : (r.message ?? null),
    debut_ms: r.startMs,
    fin_ms: r.endMs,
    sans_trou: outcome.gapFree,
    dans_la_borne: outcome.inBound,
    au_rythme: outcome.keptPace,
    tenu: outcome.held === true,
    premier_son_p95_ms: r.firstAudioP95Ms,
    premier_son_max_ms: firstAudio.length > 0 ? maxOf(firstAudio) : null,
    trous: r.gaps,
    flux_avec_trous: r.streamsWithGaps,
    retard_arrivee_max_ms: r.worstLatenessMs,
    retard_arrivee_brut_max_ms: r.worstRawLatenessMs,
    arret_machine_ms: machineStopped(r),
    debit_agrege: aggregate,
    debit_par_flux: perStream,
    debit_vivant: live.speed,
    fenetre_vivante_ms: live.spanMs,
    trous_courts: r.streams.reduce((n, x) => n + x.shortGaps, 0),
    rss_pic_octets: r.peakRssBytes,
    vol_cpu: c.cpu ? stealShare(c.cpu.before, c.cpu.after, c.cores) : null,
    ...(c.server ? serverPairs(r) : {}),
    flux_detail: r.streams.map((s, i) => ({
      arrivee_prevue_ms: r.arrivals[i]?.plannedMs ?? r.startMs,
      // A listener that never arrived (the trial ended first) has no figures, not invented ones.
      arrivee_ms: known(s.arrivalMs),
      premier_son_ms: s.sentences.length > 0 ? known(s.firstAudioMs) : null,
      // Every sentence ready: the listener heard the whole session (with or without a gap).
      complet: r.jobs.filter((j) => j.stream === i).length === r.textSentences,
      trous: s.gaps,
      trous_courts: s.shortGaps,
      trous_s: s.gapSeconds,
      pire_trou_s: s.worstGapSeconds,
      phrases: s.sentences.map((p) => ({
        pret_ms: p.readyMs,
        joue_ms: p.playMs,
        fin_ms: p.endMs,
        audio_s: p.audioSeconds,
      })),
    })),
    controles: controls,
    controle_tenu: ended && controls.every((x) => x.held),
  };
}
