/**
 * Version 1 capacity archives, still read by compare and summary. Their one answer,
 * `flux_max_sans_trou`, required first audio within the bound too: it is the second answer of
 * version 2 (`flux_max_dans_la_borne`), and the first answer is unknown. Their "one process per
 * stream" was K processes sharing one queue, not a worker per listener.
 */
import { z } from 'zod';
import { CapacityArchiveV2Schema, StreamV2Schema, TrialV2Schema } from './schema-v2.js';

export const TrialV1Schema = TrialV2Schema.omit({
  but: true,
  reprise: true,
  fin_ms: true,
  sans_trou: true,
  dans_la_borne: true,
  premier_son_max_ms: true,
  // Came with schema 2's later releases: a schema 1 file (the tool's own, 2026-11-30) has no pace.
  au_rythme: true,
  flux_detail: true,
}).extend({
  flux_detail: z.array(StreamV2Schema),
});

export const CapacityEntryV1Schema = z.object({
  voix: z.string(),
  disposition: z.string(),
  flux_max_sans_trou: z.number().int().nonnegative(),
  premier_son_p95_ms: z.number().nullable(),
  trous_au_dela: z.number().int().nonnegative().nullable(),
  borne: z.enum(['cpu', 'memoire', 'flux_max', 'erreur']),
  prediction: z.number().int().nonnegative(),
  phrase: z.string(),
});

const V2 = CapacityArchiveV2Schema;

export const CapacityArchiveV1Schema = V2.omit({
  schema_version: true,
  protocole: true,
  voix: true,
  essais: true,
  capacite: true,
  duree_prevue_s: true,
  duree_s: true,
  etiquette: true,
}).extend({
  schema_version: z.literal(1),
  protocole: V2.shape.protocole.omit({ sessions: true, priorite_parent: true }),
  voix: z.array(V2.shape.voix.element.omit({ premier_son_seul_ms: true })),
  essais: z.array(TrialV1Schema),
  capacite: z.array(CapacityEntryV1Schema),
});

export type CapacityArchiveV1 = z.infer<typeof CapacityArchiveV1Schema>;
