/** The same layout under the two engines, at the same scope: sherpa-onnx over onnxruntime-node, paired by round. */
import type { Archive, ArmRecord } from '../schema.js';
import { armVoiceLabel, layoutLabel } from './labels.js';
import { pairPhrase, scorePair, type ScoredPair } from './pair.js';

export type EngineComparison = NonNullable<Archive['verdict']['moteurs']>[number];
export type EngineVersions = Archive['protocole']['moteurs'];

export interface PairedEngines {
  entry: Omit<EngineComparison, 'phrase'>;
  scored: ScoredPair | undefined;
  head: string;
  /** Set when the pair cannot be judged: the whole phrase after the head. */
  instead?: string;
}

/**
 * Each engine named with the onnxruntime it runs on: a difference between the engines is also a
 * difference between those builds, and the sentence must not credit one engine with it.
 */
export function engineNames(versions: EngineVersions): [string, string] {
  const sherpa = versions?.sherpa
    ? `${versions.sherpa.version} (onnxruntime ${versions.sherpa.onnxruntime})`
    : 'sherpa-onnx';
  const ort = versions?.onnxruntime ? `${versions.onnxruntime.version}` : 'onnxruntime-node';
  return [sherpa, ort];
}

/** Only arms whose controls held are compared. */
export function pairEngines(
  voiceArms: ArmRecord[],
  marginPct: number,
  minRounds: number,
  versions: EngineVersions,
): PairedEngines[] {
  const out: PairedEngines[] = [];
  const same = (a: ArmRecord, b: ArmRecord): boolean =>
    a.flux_simultanes === b.flux_simultanes &&
    a.fils_par_flux === b.fils_par_flux &&
    a.affinite_demandee === b.affinite_demandee &&
    a.isolation === b.isolation &&
    (a.portee ?? 'model') === (b.portee ?? 'model');
  const names = engineNames(versions);
  for (const s of voiceArms.filter((a) => a.moteur === 'sherpa')) {
    const o = voiceArms.find((a) => (a.moteur ?? 'onnxruntime') === 'onnxruntime' && same(a, s));
    if (!o) continue;
    const layout = `K=${s.flux_simultanes} ${layoutLabel(s, s.flux_simultanes)}`;
    const head = `${armVoiceLabel(s)}, ${layout} (${s.portee ?? 'model'} scope): `;
    const base = { voix: s.voix, flux: s.flux_simultanes, disposition: layout, portee: s.portee ?? 'model' } as const;
    const failed = [s, o].filter((a) => !a.controle_tenu).map((a) => (a === s ? 'sherpa-onnx' : 'onnxruntime-node'));
    if (failed.length > 0) {
      out.push({
        entry: { ...base, paire: null },
        scored: undefined,
        head,
        instead: `not compared, the ${failed.join(' and ')} arm's controls failed.`,
      });
      continue;
    }
    const scored = scorePair(s, o, names, marginPct);
    const rounds = scored.logs.length;
    out.push({
      entry: { ...base, paire: scored.pair },
      scored: rounds >= minRounds ? scored : undefined,
      head,
      ...(rounds < minRounds
        ? { instead: `too few rounds to decide (${rounds}); run with --rounds ${minRounds} or more.` }
        : {}),
    });
  }
  return out;
}

export function enginePhrase(p: PairedEngines, marginPct: number): EngineComparison {
  return {
    ...p.entry,
    phrase:
      p.head +
      (p.instead ?? pairPhrase(p.scored?.pair ?? (p.entry.paire as NonNullable<typeof p.entry.paire>), marginPct)),
  };
}
