/** A trial as the archive keeps it: its listeners, its figures, and its controls. */
import { arrivalsControl, memoryControl, outsideLoadControl, type Control } from '../measure/controls.js';
import { outsideCoresOver, type CpuSnapshot } from '../measure/system-cpu.js';
import type { TrialRecord } from './schema.js';
import type { TrialResult } from './trial.js';

export interface TrialContext {
  voice: string;
  layout: string;
  k: number;
  workers: number;
  round: number;
  firstAudioLimitMs: number;
  /** Machine CPU around the trial (none: no outside-load figure). */
  cpu?: { before: CpuSnapshot; after: CpuSnapshot };
  /** Pages swapped during the trial; null where unreadable. */
  swapPages: number | null;
}

/** K held: the trial finished (or stopped at a gap), no listener heard a gap, first audio p95 within the bound. */
export function trialHeld(r: TrialResult, firstAudioLimitMs: number): boolean {
  return r.state === 'done' && r.gaps === 0 && r.firstAudioP95Ms !== null && r.firstAudioP95Ms <= firstAudioLimitMs;
}

function speed(r: TrialResult): { aggregate: number | null; perStream: number | null } {
  if (r.jobs.length === 0) return { aggregate: null, perStream: null };
  const spanSeconds = (Math.max(...r.jobs.map((j) => j.endMs)) - Math.min(...r.jobs.map((j) => j.startMs))) / 1000;
  const audio = r.jobs.reduce((n, j) => n + j.audioSeconds, 0);
  const aggregate = spanSeconds > 0 ? audio / spanSeconds : null;
  return { aggregate, perStream: aggregate === null ? null : aggregate / r.streams.length };
}

const known = (x: number): number | null => (Number.isFinite(x) ? x : null);

export function trialRecord(r: TrialResult, c: TrialContext): TrialRecord {
  const controls: Control[] = [arrivalsControl(r.arrivals.every((a) => Number.isFinite(a.actualMs)) ? r.worstLatenessMs : null), memoryControl(c.swapPages, r.majorFaults)];
  if (c.cpu) controls.push(outsideLoadControl(outsideCoresOver([c.cpu])));
  const { aggregate, perStream } = speed(r);
  const finished = r.state === 'done' || r.state === 'stopped';
  return {
    voix: c.voice,
    disposition: c.layout,
    flux: c.k,
    travailleurs: c.workers,
    manche: c.round,
    etat: r.state,
    erreur: r.state === 'done' ? null : (r.message ?? null),
    debut_ms: r.startMs,
    tenu: trialHeld(r, c.firstAudioLimitMs),
    premier_son_p95_ms: r.firstAudioP95Ms,
    trous: r.gaps,
    flux_avec_trous: r.streamsWithGaps,
    retard_arrivee_max_ms: r.worstLatenessMs,
    debit_agrege: aggregate,
    debit_par_flux: perStream,
    rss_pic_octets: r.peakRssBytes,
    flux_detail: r.streams.map((s, i) => ({
      arrivee_prevue_ms: r.arrivals[i]?.plannedMs ?? r.startMs,
      // A listener that never arrived (the trial was stopped first) has no figures, not invented ones.
      arrivee_ms: known(s.arrivalMs),
      premier_son_ms: s.sentences.length > 0 ? known(s.firstAudioMs) : null,
      trous: s.gaps,
      trous_s: s.gapSeconds,
      pire_trou_s: s.worstGapSeconds,
      phrases: s.sentences.map((p) => ({ pret_ms: p.readyMs, joue_ms: p.playMs, fin_ms: p.endMs, audio_s: p.audioSeconds })),
    })),
    controles: controls,
    controle_tenu: finished && controls.every((x) => x.held),
  };
}
