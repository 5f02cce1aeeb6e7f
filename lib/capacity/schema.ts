import { z } from 'zod';
import { ControlSchema, MachineSchema } from '../archive/schema.js';

/** The capacity archive: its own kind (`type: 'capacite'`), beside the throughput archive. */
export const CAPACITY_SCHEMA_VERSION = 1;

const figure = z.number().nullable();

export const LayoutSchema = z.object({
  travailleurs: z.union([z.literal('K'), z.number().int().positive()]),
  fils: z.number().int().positive(),
  affinite: z.boolean(),
  isolation: z.enum(['process', 'thread']),
  nom: z.string(),
});

export const StreamSchema = z.object({
  arrivee_prevue_ms: z.number(),
  arrivee_ms: figure,
  premier_son_ms: figure,
  trous: z.number().int().nonnegative(),
  trous_s: z.number().nonnegative(),
  pire_trou_s: z.number().nonnegative(),
  /** Every sentence: when its audio was ready, when it played, when it ended (ms, monotonic clock), and its length. */
  phrases: z.array(z.object({ pret_ms: z.number(), joue_ms: z.number(), fin_ms: z.number(), audio_s: z.number() })),
});

export const TrialSchema = z.object({
  voix: z.string(),
  disposition: z.string(),
  flux: z.number().int().positive(),
  travailleurs: z.number().int().positive(),
  manche: z.number().int().positive(),
  /** `stopped`: a search step ended at its first gap, its answer known. */
  etat: z.enum(['done', 'failed', 'timed-out', 'aborted', 'stopped']),
  erreur: z.string().nullable(),
  debut_ms: z.number(),
  /** No gap, and first audio p95 within the bound: K held. */
  tenu: z.boolean(),
  premier_son_p95_ms: figure,
  trous: z.number().int().nonnegative(),
  flux_avec_trous: z.number().int().nonnegative(),
  retard_arrivee_max_ms: z.number(),
  /** Audio made over the trial's span (first job start to last job end), and per stream. */
  debit_agrege: figure,
  debit_par_flux: figure,
  rss_pic_octets: z.array(figure),
  flux_detail: z.array(StreamSchema),
  controles: z.array(ControlSchema),
  controle_tenu: z.boolean(),
});

export const CapacityEntrySchema = z.object({
  voix: z.string(),
  disposition: z.string(),
  /** The largest K that held in every trial of it; 0 when even one listener failed. */
  flux_max_sans_trou: z.number().int().nonnegative(),
  premier_son_p95_ms: figure,
  /** Gaps seen at the next K (null when the sweep stopped at --max-streams or at the memory bound). */
  trous_au_dela: z.number().int().nonnegative().nullable(),
  /** What stopped the sweep: gaps or first audio (cpu), the memory bound, or --max-streams. */
  borne: z.enum(['cpu', 'memoire', 'flux_max', 'erreur']),
  /** K predicted from the voice's single-stream speed before any trial. */
  prediction: z.number().int().nonnegative(),
  phrase: z.string(),
});

export const CapacityArchiveSchema = z.object({
  schema_version: z.literal(CAPACITY_SCHEMA_VERSION),
  type: z.literal('capacite'),
  outil: z.string(),
  version_outil: z.string(),
  question: z.string(),
  version_onnxruntime: z.string(),
  version_node: z.string(),
  machine: z.string(),
  machine_detail: MachineSchema,
  coeurs: z.number().int().positive(),
  date_utc: z.string(),
  protocole: z.object({
    source_du_texte: z.string(),
    texte: z.object({ sha256: z.string(), caracteres: z.number().int(), phrases: z.number().int() }),
    arrivees: z.enum(['together', 'staggered', 'poisson']),
    ordre_file: z.enum(['fifo', 'deadline']),
    premier_son_max_ms: z.number().positive(),
    flux_max: z.number().int().positive(),
    manches: z.number().int().positive(),
    graine: z.number().int(),
    dispositions: z.array(LayoutSchema),
    commande: z.string(),
    session_onnxruntime: z.string(),
    controle: z.array(z.string()),
  }),
  voix: z.array(
    z.object({
      nom: z.string(),
      synthetique: z.boolean(),
      sha256: z.string(),
      taille_octets: z.number().int(),
      frequence_hz: z.number().int(),
      /** One worker alone, before any trial: each sentence's audio and compute seconds, and its speed. */
      phrases_audio_s: z.array(z.number()),
      phrases_calcul_s: z.array(z.number()),
      debit_seul: z.number(),
      /** Peak RSS of that worker, and how many such workers MemAvailable holds. */
      rss_travailleur_octets: figure,
      travailleurs_max_memoire: z.number().int().nullable(),
    }),
  ),
  memoire_disponible_octets: figure,
  essais: z.array(TrialSchema),
  capacite: z.array(CapacityEntrySchema),
  phrases: z.array(z.string()),
  controle_tenu: z.boolean(),
  interrompu: z.boolean(),
});

export type CapacityArchive = z.infer<typeof CapacityArchiveSchema>;
export type TrialRecord = z.infer<typeof TrialSchema>;
export type CapacityEntry = z.infer<typeof CapacityEntrySchema>;
