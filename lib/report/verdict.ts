import type { Archive, ArmRecord } from '../archive/schema.js';
import { median, MIN_PASSES_TO_DECIDE } from '../measure/stats.js';
import { armVoiceLabel } from './table.js';

export type Verdict = Archive['verdict'];
type Comparison = Verdict['comparaisons'][number];
type Row = Comparison['classement'][number];

const x = (v: number | null): string => (v === null ? '-' : `x${v.toFixed(1)}`);
const ci = (c: [number, number] | null): string => (c ? `[${c[0].toFixed(1)}, ${c[1].toFixed(1)}]` : '[no interval]');

/** How a layout serves K streams, in words. */
export function layoutLabel(arm: ArmRecord, k: number): string {
  const unit = arm.isolation === 'thread' ? 'thread stream' : 'process';
  const pin = arm.affinite_demandee ? 'pinned' : 'free';
  if (arm.flux_simultanes === 1) {
    const base = `1 ${unit} x ${arm.fils_par_flux} thread${arm.fils_par_flux > 1 ? 's' : ''}${arm.affinite_demandee ? ', pinned' : ''}`;
    return k > 1 ? `${base}, serving the ${k} one after another` : base;
  }
  return `${arm.flux_simultanes} ${unit}${arm.isolation === 'thread' ? 's' : 'es'} x ${arm.fils_par_flux} thread${arm.fils_par_flux > 1 ? 's' : ''}, ${pin}`;
}

/** One request's own speed under a layout: a stream's median throughput. */
function perRequest(arm: ArmRecord): number | null {
  const v = arm.debit_par_flux_mediane.filter((d): d is number => d !== null);
  return v.length > 0 ? median(v) : null;
}

function overlaps(a: [number, number] | null, b: [number, number] | null): boolean {
  if (!a || !b) return true;
  return a[0] <= b[1] && b[0] <= a[1];
}

function compare(voiceArms: ArmRecord[], k: number, cores: number): Comparison | undefined {
  // Layouts that serve k streams: k simultaneous workers, or one worker taking the k requests in turn
  // (its aggregate is its single-stream throughput; each request waits for the ones before it).
  const candidates = voiceArms.filter((a) => a.flux_simultanes === k || a.flux_simultanes === 1);
  if (candidates.length === 0) return undefined;
  const failed = candidates.filter((a) => !a.controle_tenu);
  const kept = candidates.filter((a) => a.controle_tenu).sort((a, b) => (b.debit_agrege_passe_mediane ?? -1) - (a.debit_agrege_passe_mediane ?? -1));
  const voice = armVoiceLabel(voiceArms[0] as ArmRecord);
  const exclus = failed.map((a) => `${layoutLabel(a, k)} (${a.etat !== 'done' ? a.etat : `failed ${a.controles.filter((c) => !c.held).map((c) => c.name).join(', ')}`})`);
  const classement = kept.map((a) => ({ disposition: layoutLabel(a, k), debit_agrege: a.debit_agrege_passe_mediane, ic95: a.debit_agrege_ic95, debit_par_requete: perRequest(a) }));
  const head = `${k} stream${k > 1 ? 's' : ''} on ${cores} cores, ${voice}: `;
  const parts: string[] = [];
  if (classement.length === 0) {
    parts.push('no layout held its controls, so nothing can be concluded.');
  } else {
    parts.push(`${classement.map((c) => `${c.disposition}: ${x(c.debit_agrege)} aggregate ${ci(c.ic95)}`).join('; ')}.`);
  }
  const fewest = Math.min(...kept.map((a) => a.debit_agrege_par_passe.length));
  const tooFew = kept.length > 1 && (fewest < MIN_PASSES_TO_DECIDE || classement.some((c) => c.ic95 === null));
  const versus = (a: Row, b: Row): boolean => {
    if (tooFew) return false;
    if (overlaps(a.ic95, b.ic95)) {
      parts.push(`The difference between ${a.disposition} and ${b.disposition} is not resolved: their intervals overlap.`);
      return false;
    }
    const gain = a.debit_agrege !== null && b.debit_agrege ? ((a.debit_agrege / b.debit_agrege - 1) * 100).toFixed(0) : '?';
    parts.push(`${a.disposition} gives ${gain}% more speech per second than ${b.disposition}.`);
    return true;
  };
  let resolu = false;
  const [best, second] = classement;
  if (tooFew) {
    parts.push(`Too few passes to decide: ${fewest} timed pass${fewest === 1 ? '' : 'es'}, and a 95% interval of a median needs at least ${MIN_PASSES_TO_DECIDE}; run again with ${MIN_PASSES_TO_DECIDE} or more.`);
  }
  if (best && second) {
    resolu = versus(best, second);
    // The deployment question itself: K workers at once against one worker taking the K in turn.
    const bestIsParallel = kept[0]?.flux_simultanes === k && k > 1;
    const secondIsParallel = kept[1]?.flux_simultanes === k && k > 1;
    if (k > 1 && bestIsParallel === secondIsParallel) {
      const other = classement.find((_, i) => (kept[i]?.flux_simultanes === k) !== bestIsParallel);
      if (other) versus(best, other);
    }
  } else if (best) {
    resolu = true;
  }
  const fastest = [...classement].sort((a, b) => (b.debit_par_requete ?? -1) - (a.debit_par_requete ?? -1))[0];
  if (fastest && classement.length > 1) {
    parts.push(`One request alone is fastest with ${fastest.disposition.replace(/, serving the \d+ one after another$/, '')} (${x(fastest.debit_par_requete)}).`);
  }
  if (k > 1 && kept.some((a) => a.flux_simultanes === 1)) {
    parts.push(`Serving ${k} streams with one worker means request ${k} waits for ${k - 1} before it.`);
  }
  if (exclus.length > 0) parts.push(`Left out, controls failed: ${exclus.join('; ')}.`);
  return { voix: voiceArms[0]?.voix ?? '', flux: k, resolu, classement, exclus, phrase: head + parts.join(' ') };
}

/**
 * Cores K streams of a family can keep busy: each stream min(T, cores), or one core when pinned;
 * never more than the machine has. The ideal at K is the single stream's aggregate times
 * usable(K) / usable(1): a T=2 stream on 2 cores already uses both, so two of them cannot double it.
 */
export function usableCores(k: number, threads: number, pinned: boolean, cores: number): number {
  const perStream = pinned ? 1 : Math.min(threads, cores);
  return Math.min(k * perStream, cores);
}

/** Aggregate against K beside the ideal, per layout family (isolation, T, affinity). */
function scaling(voiceArms: ArmRecord[], cores: number): string[] {
  const lines: string[] = [];
  const families = new Map<string, ArmRecord[]>();
  for (const a of voiceArms) {
    const key = `${a.isolation}|${a.fils_par_flux}|${a.affinite_demandee}`;
    families.set(key, [...(families.get(key) ?? []), a]);
  }
  for (const arms of families.values()) {
    const ks = arms.map((a) => a.flux_simultanes);
    const baseline = arms.find((a) => a.flux_simultanes === 1);
    const single = baseline?.debit_agrege_passe_mediane ?? null;
    if (new Set(ks).size < 2 || !baseline || single === null) continue;
    const first = arms[0] as ArmRecord;
    const family = `${armVoiceLabel(first)}, ${first.isolation}, T=${first.fils_par_flux}, ${first.affinite_demandee ? 'pinned' : 'free'}`;
    // A K=1 arm whose controls failed measured something else: it cannot be what the others scale from.
    if (!baseline.controle_tenu) {
      lines.push(`${family}: no baseline, the K=1 arm's controls failed`);
      continue;
    }
    const unit = usableCores(1, first.fils_par_flux, first.affinite_demandee, cores);
    const cells = [...arms]
      .sort((a, b) => a.flux_simultanes - b.flux_simultanes)
      .map((a) => {
        const ideal = (usableCores(a.flux_simultanes, a.fils_par_flux, a.affinite_demandee, cores) / unit) * single;
        const got = a.debit_agrege_passe_mediane;
        return `K=${a.flux_simultanes} ${x(got)} (ideal ${x(ideal)}${got !== null ? `, ${((got / ideal) * 100).toFixed(0)}%` : ''}${a.controle_tenu ? '' : ', controls failed'})`;
      });
    lines.push(`${family}: ${cells.join('; ')}`);
  }
  return lines;
}

/** For each voice and each stream count, rank the layouts; never name a winner the intervals do not support. */
export function buildVerdict(arms: readonly ArmRecord[], cores: number): Verdict {
  const comparaisons: Comparison[] = [];
  const passage: string[] = [];
  const voices = [...new Set(arms.map((a) => a.voix))];
  for (const v of voices) {
    const voiceArms = arms.filter((a) => a.voix === v);
    const ks = [...new Set(voiceArms.map((a) => a.flux_simultanes))].sort((a, b) => a - b);
    const wanted = ks.some((k) => k > 1) ? ks.filter((k) => k > 1) : ks;
    for (const k of wanted) {
      const c = compare(voiceArms, k, cores);
      if (c) comparaisons.push(c);
    }
    passage.push(...scaling(voiceArms, cores));
  }
  return { phrases: comparaisons.map((c) => c.phrase), comparaisons, passage_a_l_echelle: passage };
}
