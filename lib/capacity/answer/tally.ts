/** What the trials of one layout at one K show, counted over the trials whose controls held. */
import { percentile } from '../trial/playback.js';
import { quantileUpperBound, rateUpperBound } from './evidence.js';
import type { Evidence, TrialRecord } from '../archive/schema.js';

const ended = (t: TrialRecord): boolean => t.etat === 'done' || t.etat === 'stopped';

/**
 * Each listener's first audio in the counted trials, ms. One still waiting when its trial ended is
 * counted only when it had already waited longer than the bound (then it is over for sure).
 */
function firstAudio(trials: TrialRecord[], limitMs: number): number[] {
  return trials.flatMap((t) =>
    t.flux_detail.flatMap((s) => {
      if (s.arrivee_ms === null) return [];
      if (s.premier_son_ms !== null) return [s.premier_son_ms];
      const waited = t.fin_ms - s.arrivee_ms;
      return waited > limitMs ? [waited] : [];
    }),
  );
}

export function tally(all: TrialRecord[], k: number, limitMs: number): Evidence {
  const at = all.filter((t) => t.flux === k && ended(t));
  const counted = at.filter((t) => t.controle_tenu);
  const sessions = counted.flatMap((t) => t.flux_detail.filter((s) => s.complet || s.trous > 0));
  const withGap = sessions.filter((s) => s.trous > 0).length;
  const waits = firstAudio(counted, limitMs);
  const over = waits.filter((w) => w > limitMs).length;
  const bound = quantileUpperBound(waits);
  return {
    flux: k,
    essais: counted.length,
    essais_tenus: counted.filter((t) => t.tenu).length,
    essais_en_retard: counted.filter((t) => t.sans_trou === true && t.au_rythme === false).length,
    essais_dans_la_borne: counted.filter((t) => t.dans_la_borne).length,
    essais_controles_echoues: at.length - counted.length,
    sessions: sessions.length,
    sessions_avec_trou: withGap,
    taux_trou_max: rateUpperBound(withGap, sessions.length),
    premier_son_sessions: waits.length,
    premier_son_au_dela: over,
    part_au_dela_max: rateUpperBound(over, waits.length),
    premier_son_p95_ms: percentile(waits, 95),
    premier_son_borne_ms: bound?.valueMs ?? null,
    premier_son_borne_centile: bound?.quantile ?? null,
    debit_par_flux: counted.map((t) => t.debit_par_flux),
  };
}

/** Every K tried by the layout's trials, each tallied, in order. */
export function tallies(trials: TrialRecord[], limitMs: number): Evidence[] {
  return [...new Set(trials.map((t) => t.flux))].sort((a, b) => a - b).map((k) => tally(trials, k, limitMs));
}
