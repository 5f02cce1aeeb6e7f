/**
 * Version 2 capacity archives, still read by compare and summary: whole trials stopped at their
 * first gap, every bound counted by listener, a "rerun may say" range (`plage_sans_trou`) with no
 * stated coverage, and no live speed.
 */
import { z } from 'zod';
import { CapacityArchiveSchema, CapacityEntrySchema, EvidenceSchema, StreamSchema, TrialSchema } from './schema.js';

export const StreamV2Schema = StreamSchema.omit({ trous_courts: true });

export const TrialV2Schema = TrialSchema.omit({
  debit_vivant: true,
  fenetre_vivante_ms: true,
  trous_courts: true,
  flux_detail: true,
}).extend({ flux_detail: z.array(StreamV2Schema.extend({ complet: z.boolean() })) });

export const EvidenceV2Schema = EvidenceSchema.omit({
  essais_entiers: true,
  essais_avec_trou: true,
  premier_son_essais: true,
  premier_son_essais_au_dela: true,
  debit_vivant: true,
});

export const CapacityEntryV2Schema = CapacityEntrySchema.omit({
  flux_tenu_essais: true,
  debit_vivant: true,
  debit_vivant_ic95: true,
  debit_vivant_essais: true,
  marge: true,
  marge_ic95: true,
  prevision: true,
  prevision_couverture: true,
  derive_entre_runs: true,
  par_tampon: true,
  preuves: true,
}).extend({
  plage_sans_trou: z.object({ min: z.number().int().nonnegative(), max: z.number().int().nonnegative() }),
  preuves: z.array(EvidenceV2Schema),
});

const V3 = CapacityArchiveSchema;

export const CapacityArchiveV2Schema = V3.omit({
  schema_version: true,
  protocole: true,
  essais: true,
  capacite: true,
}).extend({
  schema_version: z.literal(2),
  protocole: V3.shape.protocole
    .omit({ tampons_ms: true, tolerance_trou_ms: true })
    .extend({ sessions: z.number().int().positive() }),
  essais: z.array(TrialV2Schema),
  capacite: z.array(CapacityEntryV2Schema),
});

export type CapacityArchiveV2 = z.infer<typeof CapacityArchiveV2Schema>;
export type CapacityEntryV2 = z.infer<typeof CapacityEntryV2Schema>;
