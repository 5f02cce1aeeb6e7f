/**
 * What the trials of one layout at one K show, counted over the trials whose controls held. Every
 * bound is counted by trial, the independent unit: the listeners of one trial share its machine
 * state (a slow moment slows all of them), so they are described, never counted as evidence.
 */
import { percentile } from '../trial/playback.js';
import { quantileUpperBound, rateUpperBound } from './evidence.js';
import type { Evidence, TrialRecord } from '../archive/schema.js';
import { maxOf } from '../../core/extremes.js';

const ended = (t: TrialRecord): boolean => t.etat === 'done' || t.etat === 'stopped';

/**
 * Each listener's first audio in a trial, ms. One still waiting when its trial ended is counted only
 * when it had already waited longer than the bound (then it is over for sure).
 */
function firstAudio(t: TrialRecord, limitMs: number): number[] {
  return t.flux_detail.flatMap((s) => {
    if (s.arrivee_ms === null) return [];
    if (s.premier_son_ms !== null) return [s.premier_son_ms];
    const waited = t.fin_ms - s.arrivee_ms;
    return waited > limitMs ? [waited] : [];
  });
}

export function tally(all: TrialRecord[], k: number, limitMs: number): Evidence {
  const at = all.filter((t) => t.flux === k && ended(t));
  const counted = at.filter((t) => t.controle_tenu);
  const whole = counted.filter((t) => t.sans_trou !== null);
  const sessions = counted.flatMap((t) => t.flux_detail.filter((s) => s.complet || s.trous > 0));
  // Per trial: its listeners' first audio (described), and its worst one (the trial's figure).
  const perTrial = counted.map((t) => firstAudio(t, limitMs)).filter((w) => w.length > 0);
  const waits = perTrial.flat();
  const worst = perTrial.map((w) => maxOf(w));
  const trialsOver = worst.filter((w) => w > limitMs).length;
  const withGap = whole.filter((t) => t.sans_trou === false).length;
  const bound = quantileUpperBound(worst);
  return {
    flux: k,
    essais: counted.length,
    essais_tenus: counted.filter((t) => t.tenu).length,
    essais_en_retard: counted.filter((t) => t.sans_trou === true && t.au_rythme === false).length,
    essais_dans_la_borne: counted.filter((t) => t.dans_la_borne).length,
    essais_controles_echoues: at.length - counted.length,
    essais_entiers: whole.length,
    essais_avec_trou: withGap,
    taux_trou_max: rateUpperBound(withGap, whole.length),
    sessions: sessions.length,
    sessions_avec_trou: sessions.filter((s) => s.trous > 0).length,
    premier_son_essais: worst.length,
    premier_son_essais_au_dela: trialsOver,
    part_au_dela_max: rateUpperBound(trialsOver, worst.length),
    premier_son_sessions: waits.length,
    premier_son_au_dela: waits.filter((w) => w > limitMs).length,
    premier_son_p95_ms: percentile(waits, 95),
    premier_son_borne_ms: bound?.valueMs ?? null,
    premier_son_borne_centile: bound?.quantile ?? null,
    debit_par_flux: counted.map((t) => t.debit_par_flux),
    debit_vivant: counted.filter((t) => t.but === 'sans_trou').map((t) => t.debit_vivant),
  };
}

/** Every K tried by the layout's trials, each tallied, in order. */
export function tallies(trials: TrialRecord[], limitMs: number): Evidence[] {
  return [...new Set(trials.map((t) => t.flux))].sort((a, b) => a - b).map((k) => tally(trials, k, limitMs));
}
