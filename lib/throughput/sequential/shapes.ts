/** What the questions need of a condition, a planned arm and an archived arm. */
import type { ArmRecord, Condition } from '../schema.js';
import type { ArmShape } from './rule.js';

/** Isolation, engine and scope (the defaults as run/conditions.ts reads them: onnxruntime, model). */
const group = (isolation: string, moteur: string | undefined, portee: string | undefined): string =>
  `${isolation}|${moteur ?? 'onnxruntime'}|${portee ?? 'model'}`;

export const conditionShape = (c: Condition, voice = ''): ArmShape => ({
  voice,
  streams: c.flux,
  threads: c.fils,
  pinned: c.affinite,
  group: group(c.isolation, c.moteur, c.portee),
});

export const recordShape = (a: ArmRecord): ArmShape => ({
  voice: a.voix,
  streams: a.flux_simultanes,
  threads: a.fils_par_flux,
  pinned: a.affinite_demandee,
  group: group(a.isolation, a.moteur, a.portee),
});
