/** The blocks both kinds of archive share: a control, a condition, the machine and how calm it was. */
import { z } from 'zod';

/** A derived figure: null where nothing was measured, never NaN. */
const figure = z.number().nullable();

export const ControlSchema = z.object({
  name: z.enum([
    'cpu_max',
    'cpu_sum',
    'affinity',
    'start_skew',
    'overlap',
    'outside_load',
    'memory',
    'arrivals',
    'client_cpu',
  ]),
  threshold: z.number(),
  /** null: the figure could not be read, and the control does not hold. */
  measured: figure,
  unit: z.string(),
  held: z.boolean(),
  message: z.string(),
});

export const ConditionSchema = z.object({
  flux: z.number().int().positive(),
  fils: z.number().int().positive(),
  affinite: z.boolean(),
  isolation: z.enum(['process', 'thread']),
  /** Who runs the voice; absent means onnxruntime-node (every archive before engines were a dimension). */
  moteur: z.enum(['onnxruntime', 'sherpa']).optional(),
  /** What a timed pass covers: phoneme ids to audio (model) or text to audio (text); absent means model. */
  portee: z.enum(['model', 'text']).optional(),
});

export const SettleSchema = z.object({
  /** Seconds waited before the first arm. */
  attendu_s: z.number(),
  limite_s: z.number(),
  calme: z.boolean(),
  /** What was seen at each look: 1-minute load and outside CPU (share of one core). */
  vu: z.array(z.object({ charge_1min: z.number(), autre_cpu_coeurs: z.number().nullable() })),
});

export const MachineSchema = z.object({
  architecture: z.string(),
  plateforme: z.string(),
  noyau: z.string(),
  systeme: z.string().nullable(),
  cpu: z.string(),
  coeurs_logiques: z.number().int(),
  coeurs_physiques: z.number().int().nullable(),
  coeurs_autorises: z.array(z.number().int()),
  gouverneur: z.string().nullable(),
  frequences_mhz: z.array(z.number()).nullable(),
  virtualisation: z.string().nullable(),
  temperature_c: z.number().nullable(),
  memoire_octets: z.number(),
  charge_avant: z.array(z.number()),
  charge_apres: z.array(z.number()).nullable(),
  /** The governor and temperature again at the end (absent: older archives), and the warning when they moved. */
  gouverneur_apres: z.string().nullable().optional(),
  temperature_apres_c: z.number().nullable().optional(),
  avertissement_chaleur: z.string().nullable().optional(),
  hote: z.string(),
  version_node: z.string(),
  version_onnxruntime: z.string(),
  attente: SettleSchema.nullable(),
});

export type Condition = z.infer<typeof ConditionSchema>;
export type MachineBlock = z.infer<typeof MachineSchema>;
