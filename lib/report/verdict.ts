import type { Archive, ArmRecord } from '../archive/schema.js';
import { logMeanInterval, median, MIN_ROUNDS_TO_DECIDE } from '../measure/stats.js';
import { signedPercent } from './format.js';
import { armVoiceLabel } from './table.js';
import { ENGINE_NAMES } from '../run/conditions.js';

export type Verdict = Archive['verdict'];
type Comparison = Verdict['comparaisons'][number];
type Pair = Comparison['paires'][number];

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

/** A over B from the rounds both ran: the t interval of the mean log ratio of their round figures. */
export function pairRatio(a: ArmRecord, b: ArmRecord, labels: [string, string]): Pair {
  const ratios = a.debit_agrege_manches.flatMap((va, i) => {
    const vb = b.debit_agrege_manches[i];
    return va !== null && vb !== null && vb !== undefined && va > 0 && vb > 0 ? [va / vb] : [];
  });
  const interval = logMeanInterval(ratios);
  return {
    a: labels[0],
    b: labels[1],
    rapport: interval?.centre ?? (ratios.length === 1 ? (ratios[0] as number) : null),
    rapport_ic95: interval ? [interval.lo, interval.hi] : null,
    tranche: interval !== null && (interval.lo > 1 || interval.hi < 1),
  };
}

/** "A: +38% [+30%, +45%] over B", and whether that is resolved. */
export function pairPhrase(p: Pair): string {
  if (p.rapport === null) return `${p.a} against ${p.b}: no common round to compare.`;
  const interval = p.rapport_ic95 ? ` [${signedPercent(p.rapport_ic95[0])}, ${signedPercent(p.rapport_ic95[1])}]` : ' [no interval]';
  return `${p.a}: ${signedPercent(p.rapport)}${interval} over ${p.b}${p.tranche ? '.' : ', not resolved (the interval holds no difference).'}`;
}

function compare(voiceArms: ArmRecord[], k: number, cores: number, group: EngineGroup | undefined): Comparison | undefined {
  // Layouts that serve k streams: k simultaneous workers, or one worker taking the k requests in turn
  // (its aggregate is its single-stream throughput; each request waits for the ones before it).
  const candidates = voiceArms.filter((a) => a.flux_simultanes === k || a.flux_simultanes === 1);
  if (candidates.length === 0) return undefined;
  const failed = candidates.filter((a) => !a.controle_tenu);
  const kept = candidates.filter((a) => a.controle_tenu).sort((a, b) => (b.debit_agrege_passe_mediane ?? -1) - (a.debit_agrege_passe_mediane ?? -1));
  const voice = armVoiceLabel(voiceArms[0] as ArmRecord);
  const exclus = failed.map((a) => `${layoutLabel(a, k)} (${a.etat !== 'done' ? a.etat : `failed ${a.controles.filter((c) => !c.held).map((c) => c.name).join(', ')}`})`);
  const classement = kept.map((a) => ({ disposition: layoutLabel(a, k), debit_agrege: a.debit_agrege_passe_mediane, ic95: a.debit_agrege_ic95, debit_par_requete: perRequest(a) }));
  const paires = kept.flatMap((a, i) => kept.slice(i + 1).map((b) => pairRatio(a, b, [layoutLabel(a, k), layoutLabel(b, k)])));
  const parts: string[] = [classement.length === 0 ? 'no layout held its controls, so nothing can be concluded.' : `${classement.map((c) => `${c.disposition}: ${x(c.debit_agrege)} aggregate ${ci(c.ic95)}`).join('; ')}.`];
  const rounds = Math.min(...kept.map((a) => a.debit_agrege_manches.filter((v) => v !== null).length));
  const top = paires[0];
  if (top && rounds < MIN_ROUNDS_TO_DECIDE) {
    parts.push(`Too few rounds to decide: ${rounds} round${rounds === 1 ? '' : 's'}, and an interval that holds the drift between rounds needs at least ${MIN_ROUNDS_TO_DECIDE}; run again with --rounds ${MIN_ROUNDS_TO_DECIDE} or more.`);
  } else if (top) {
    parts.push(pairPhrase(top));
    // The deployment question itself: the best of K workers at once against the best single worker taking the K in turn.
    const parallel = kept.find((a) => a.flux_simultanes === k && k > 1);
    const single = kept.find((a) => a.flux_simultanes === 1 && a.fils_par_flux === k) ?? kept.find((a) => a.flux_simultanes === 1);
    const question = parallel && single ? paires.find((p) => [p.a, p.b].includes(layoutLabel(parallel, k)) && [p.a, p.b].includes(layoutLabel(single, k))) : undefined;
    if (question && question !== top) parts.push(pairPhrase(question));
  }
  const fastest = [...classement].sort((a, b) => (b.debit_par_requete ?? -1) - (a.debit_par_requete ?? -1))[0];
  if (fastest && classement.length > 1) {
    parts.push(`One request alone is fastest with ${fastest.disposition.replace(/, serving the \d+ one after another$/, '')} (${x(fastest.debit_par_requete)}).`);
  }
  if (k > 1 && kept.some((a) => a.flux_simultanes === 1)) parts.push(`Serving ${k} streams with one worker means request ${k} waits for ${k - 1} before it.`);
  if (exclus.length > 0) parts.push(`Left out, controls failed: ${exclus.join('; ')}.`);
  const head = `${k} stream${k > 1 ? 's' : ''} on ${cores} cores, ${voice}${group ? ` [${group.label}]` : ''}: `;
  return { voix: voiceArms[0]?.voix ?? '', flux: k, ...(group ? { moteur: group.moteur, portee: group.portee } : {}), resolu: classement.length === 1 || (top?.tranche ?? false), classement, paires, exclus, phrase: head + parts.join(' ') };
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
function scaling(voiceArms: ArmRecord[], cores: number, group: EngineGroup | undefined): string[] {
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
    const family = `${armVoiceLabel(first)}${group ? ` [${group.label}]` : ''}, ${first.isolation}, T=${first.fils_par_flux}, ${first.affinite_demandee ? 'pinned' : 'free'}`;
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

interface EngineGroup {
  moteur: 'onnxruntime' | 'sherpa';
  portee: 'model' | 'text';
  label: string;
}

const groupOf = (a: ArmRecord): EngineGroup => {
  const moteur = a.moteur ?? 'onnxruntime';
  const portee = a.portee ?? 'model';
  return { moteur, portee, label: `${ENGINE_NAMES[moteur]}, ${portee}` };
};

/**
 * The same layout under the two engines, at the same scope: sherpa-onnx over onnxruntime-node,
 * paired by round as layouts are. Only arms whose controls held are compared.
 */
function engineComparisons(voiceArms: ArmRecord[]): NonNullable<Verdict['moteurs']> {
  const out: NonNullable<Verdict['moteurs']> = [];
  const same = (a: ArmRecord, b: ArmRecord): boolean => a.flux_simultanes === b.flux_simultanes && a.fils_par_flux === b.fils_par_flux && a.affinite_demandee === b.affinite_demandee && a.isolation === b.isolation && (a.portee ?? 'model') === (b.portee ?? 'model');
  for (const s of voiceArms.filter((a) => a.moteur === 'sherpa')) {
    const o = voiceArms.find((a) => (a.moteur ?? 'onnxruntime') === 'onnxruntime' && same(a, s));
    if (!o) continue;
    const layout = `K=${s.flux_simultanes} ${layoutLabel(s, s.flux_simultanes)}`;
    const head = `${armVoiceLabel(s)}, ${layout} (${s.portee ?? 'model'} scope): `;
    const failed = [s, o].filter((a) => !a.controle_tenu).map((a) => ENGINE_NAMES[a.moteur ?? 'onnxruntime']);
    if (failed.length > 0) {
      out.push({ voix: s.voix, flux: s.flux_simultanes, disposition: layout, portee: s.portee ?? 'model', paire: null, phrase: `${head}not compared, the ${failed.join(' and ')} arm's controls failed.` });
      continue;
    }
    const paire = pairRatio(s, o, [ENGINE_NAMES.sherpa, ENGINE_NAMES.onnxruntime]);
    const rounds = Math.min(s.debit_agrege_manches.filter((v) => v !== null).length, o.debit_agrege_manches.filter((v) => v !== null).length);
    const phrase = rounds < MIN_ROUNDS_TO_DECIDE ? `${head}too few rounds to decide (${rounds}); run with --rounds ${MIN_ROUNDS_TO_DECIDE} or more.` : head + pairPhrase(paire);
    out.push({ voix: s.voix, flux: s.flux_simultanes, disposition: layout, portee: s.portee ?? 'model', paire, phrase });
  }
  return out;
}

/** For each voice, engine and stream count, rank the layouts; never name a winner the intervals do not support. */
export function buildVerdict(arms: readonly ArmRecord[], cores: number): Verdict {
  const comparaisons: Comparison[] = [];
  const passage: string[] = [];
  const moteurs: NonNullable<Verdict['moteurs']> = [];
  // Engines and scopes are compared with each other below, not ranked as layouts.
  const groups = [...new Map(arms.map((a) => [groupOf(a).label, groupOf(a)])).values()];
  const labelled = groups.length > 1 || groups.some((g) => g.moteur !== 'onnxruntime' || g.portee !== 'model');
  const voices = [...new Set(arms.map((a) => a.voix))];
  for (const v of voices) {
    for (const g of groups) {
      const voiceArms = arms.filter((a) => a.voix === v && groupOf(a).label === g.label);
      if (voiceArms.length === 0) continue;
      const ks = [...new Set(voiceArms.map((a) => a.flux_simultanes))].sort((a, b) => a - b);
      const wanted = ks.some((k) => k > 1) ? ks.filter((k) => k > 1) : ks;
      for (const k of wanted) {
        const c = compare(voiceArms, k, cores, labelled ? g : undefined);
        if (c) comparaisons.push(c);
      }
      passage.push(...scaling(voiceArms, cores, labelled ? g : undefined));
    }
    moteurs.push(...engineComparisons(arms.filter((a) => a.voix === v)));
  }
  const phrases = [...comparaisons.map((c) => c.phrase), ...moteurs.map((m) => m.phrase)];
  return { phrases, comparaisons, passage_a_l_echelle: passage, ...(moteurs.length > 0 ? { moteurs } : {}) };
}
