/**
 * The verdict of a run: for each voice, engine and stream count, the layouts ranked and the pairs a
 * sentence quotes; engines side by side; scaling. A voice's quoted pairs (layouts at every K, and
 * engines) form one family: their intervals are widened together before any sentence is written.
 */
import type { Archive, ArmRecord } from '../schema.js';
import { MIN_ROUNDS_TO_DECIDE } from '../../measure/stats.js';
import { enginePhrase, pairEngines, type EngineVersions } from './engines.js';
import { layoutsPhrase, rankLayouts, type GroupTag, type RankedLayouts } from './layouts.js';
import { adjustFamily, DEFAULT_MARGIN_PCT } from './pair.js';
import { ENGINE_NAMES } from './labels.js';
import { scaling } from './scaling.js';

export type Verdict = Archive['verdict'];
export { MIN_ROUNDS_TO_DECIDE };

export interface VerdictOptions {
  /** Within ±this % the verdict calls two layouts equivalent (default 6). */
  marginPct?: number;
  /** The engines' versions, named in engine sentences. */
  engines?: EngineVersions;
  /** A sequential run: each voice's interval level (that of its looks); its questions are the pairs quoted. */
  sequential?: { confidence: (voice: string) => number };
}

const groupOf = (a: ArmRecord): GroupTag => {
  const moteur = a.moteur ?? 'onnxruntime';
  const portee = a.portee ?? 'model';
  return { moteur, portee, label: `${ENGINE_NAMES[moteur]}, ${portee}` };
};

/** Never name a winner the family intervals do not support. */
export function buildVerdict(arms: readonly ArmRecord[], cores: number, options: VerdictOptions = {}): Verdict {
  const marginPct = options.marginPct ?? DEFAULT_MARGIN_PCT;
  const ranked: RankedLayouts[] = [];
  const passage: string[] = [];
  const engines: ReturnType<typeof pairEngines> = [];
  // Engines and scopes are compared with each other below, not ranked as layouts.
  const groups = [...new Map(arms.map((a) => [groupOf(a).label, groupOf(a)])).values()];
  const labelled = groups.length > 1 || groups.some((g) => g.moteur !== 'onnxruntime' || g.portee !== 'model');
  for (const v of new Set(arms.map((a) => a.voix))) {
    const family: RankedLayouts[] = [];
    for (const g of groups) {
      const voiceArms = arms.filter((a) => a.voix === v && groupOf(a).label === g.label);
      if (voiceArms.length === 0) continue;
      const ks = [...new Set(voiceArms.map((a) => a.flux_simultanes))].sort((a, b) => a - b);
      for (const k of ks.some((k) => k > 1) ? ks.filter((k) => k > 1) : ks) {
        const r = rankLayouts(voiceArms, k, cores, labelled ? g : undefined, {
          marginPct,
          sequential: options.sequential !== undefined,
        });
        if (r) family.push(r);
      }
      passage.push(...scaling(voiceArms, cores, labelled ? g.label : undefined));
    }
    const paired = pairEngines(
      arms.filter((a) => a.voix === v),
      marginPct,
      MIN_ROUNDS_TO_DECIDE,
      options.engines,
    );
    adjustFamily(
      [...family.flatMap((r) => r.quoted), ...paired.flatMap((p) => (p.scored ? [p.scored] : []))],
      marginPct,
      options.sequential?.confidence(v),
    );
    ranked.push(...family);
    engines.push(...paired);
  }
  const comparaisons = ranked.map((r) => layoutsPhrase(r, marginPct, MIN_ROUNDS_TO_DECIDE));
  const moteurs = engines.map((p) => enginePhrase(p, marginPct));
  const phrases = [...comparaisons.map((c) => c.phrase), ...moteurs.map((m) => m.phrase)];
  return { phrases, comparaisons, passage_a_l_echelle: passage, ...(moteurs.length > 0 ? { moteurs } : {}) };
}
