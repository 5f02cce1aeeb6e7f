import type { ArmRecord, Condition } from '../schema.js';

/** Identifies an arm within a run: voice and condition. */
export function armKey(
  arm: Pick<
    ArmRecord,
    'voix' | 'flux_simultanes' | 'fils_par_flux' | 'affinite_demandee' | 'isolation' | 'moteur' | 'portee'
  >,
): string {
  // The engine and scope only where they are not the defaults, so that keys from before engines stay the same.
  const engine =
    (arm.moteur ?? 'onnxruntime') === 'onnxruntime' && (arm.portee ?? 'model') === 'model'
      ? ''
      : `|${arm.moteur ?? 'onnxruntime'}|${arm.portee ?? 'model'}`;
  return `${arm.voix}|K${arm.flux_simultanes}|T${arm.fils_par_flux}|${arm.affinite_demandee ? 'pinned' : 'free'}|${arm.isolation}${engine}`;
}

/** The same key from a voice name and a condition. */
export function conditionKey(voice: string, c: Condition): string {
  return armKey({
    voix: voice,
    flux_simultanes: c.flux,
    fils_par_flux: c.fils,
    affinite_demandee: c.affinite,
    isolation: c.isolation,
    moteur: c.moteur,
    portee: c.portee,
  });
}
