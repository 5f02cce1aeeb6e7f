/**
 * The answer, per voice and layout and then per voice: the most live streams served without a
 * gap, the wait for the first word at that K, and what happened one step beyond.
 */
import { layoutName } from './layouts.js';
import type { CapacityEntry, TrialRecord } from './schema.js';
import type { Sweep } from './sweep.js';

const ms = (x: number | null): string => (x === null ? '-' : `${Math.round(x)} ms`);

/** What the next K looked like: gaps in how many streams, or a first audio over the bound. */
function beyond(trials: TrialRecord[], limitMs: number): string {
  // A full trial (a later round) counts every gap; a search step stopped at the first one.
  const t = trials.find((x) => x.etat === 'done' && !x.tenu) ?? trials.find((x) => !x.tenu) ?? trials[0];
  if (!t) return '';
  if (t.trous > 0) return `at ${t.flux}, ${t.etat === 'stopped' ? 'at least ' : ''}${t.trous} gap${t.trous > 1 ? 's' : ''} in ${t.flux_avec_trous} of ${t.flux} streams`;
  return `at ${t.flux}, first audio p95 ${ms(t.premier_son_p95_ms)}, over the ${limitMs} ms bound`;
}

export function capacityEntry(s: Sweep, trials: TrialRecord[], voiceLabel: string, maxStreams: number, limitMs: number): CapacityEntry {
  const name = layoutName(s.layout);
  const mine = trials.filter((t) => t.voix === s.voice && t.disposition === name);
  const k = s.search.held();
  const at = mine.filter((t) => t.flux === k);
  const p95 = at.length > 0 ? Math.max(...at.map((t) => t.premier_son_p95_ms ?? Number.POSITIVE_INFINITY)) : null;
  const next = s.search.failedAbove();
  const nextTrials = mine.filter((t) => t.flux === next);
  const gapsBeyond = next === undefined ? null : Math.max(0, ...nextTrials.map((t) => t.trous));
  const borne: CapacityEntry['borne'] = s.error ? 'erreur' : next !== undefined ? 'cpu' : s.search.cap < maxStreams && s.memoryCap !== null && s.memoryCap < maxStreams ? 'memoire' : 'flux_max';
  const head = `${voiceLabel}, ${name}: `;
  const served = k === 0 ? 'not even 1 live stream' : `${k} live stream${k > 1 ? 's' : ''} with no gap (first audio p95 ${ms(p95)})`;
  const tail =
    borne === 'erreur' ? `; the sweep broke: ${s.error}` :
    borne === 'cpu' ? `; ${beyond(nextTrials, limitMs)}` :
    borne === 'memoire' ? `; memory holds no more workers (${s.memoryCap})` :
    `; --max-streams ${maxStreams} reached`;
  return { voix: s.voice, disposition: name, flux_max_sans_trou: k, premier_son_p95_ms: k === 0 || p95 === null || !Number.isFinite(p95) ? null : p95, trous_au_dela: gapsBeyond, borne, prediction: s.search.predicted, phrase: `${head}${served}${tail}.` };
}

/** One line per voice: the best layout's answer, then every layout's K. */
export function voiceVerdict(voiceLabel: string, entries: CapacityEntry[], memory: string): string {
  const best = [...entries].sort((a, b) => b.flux_max_sans_trou - a.flux_max_sans_trou || (a.premier_son_p95_ms ?? Infinity) - (b.premier_son_p95_ms ?? Infinity))[0];
  if (!best) return `${voiceLabel}: no layout was measured.`;
  const rest = best.phrase.slice(best.phrase.indexOf(': ') + 2).replace(/\.$/, '');
  const head = best.flux_max_sans_trou === 0 ? `${voiceLabel} on this machine: no layout served one live stream without a gap and within the first-audio bound` : `${voiceLabel} on this machine: ${rest.split(';')[0]}, with ${best.disposition}${rest.includes(';') ? `;${rest.slice(rest.indexOf(';') + 1)}` : ''}`;
  return `${head}. Each layout: ${entries.map((e) => `${e.disposition} ${e.flux_max_sans_trou}`).join('; ')}. ${memory}`;
}
