import { z } from 'zod';
import {
  ConditionSchema,
  ControlSchema,
  MachineSchema,
  SettleSchema,
  type Condition,
  type MachineBlock,
} from '../archive/common-schema.js';

export { ConditionSchema, ControlSchema, MachineSchema, SettleSchema, type Condition, type MachineBlock };
import { SESSION_PROFILES } from '../voice/session-profile.js';

/**
 * The archive: the single definition. Keys of the original Python script stay in French so its
 * archives stay readable; what this tool adds sits beside them.
 */
export const SCHEMA_VERSION = 2;

/** A derived figure: null where nothing was measured (a failed arm), never NaN. */
const figure = z.number().nullable();
const SummarySchema = z.object({ min: figure, max: figure, mediane: figure });

export const PassSchema = z.object({
  passe: z.number().int().nonnegative(),
  /** The round (1-based) this pass ran in. */
  manche: z.number().int().positive(),
  temps_calcul_s: z.number(),
  audio_s: z.number(),
  /** null where the pass measured no compute or no audio (the arm then fails, saying why). */
  ratio: figure,
  rtf: figure,
  /** null where the stream's CPU could not be read: unknown, not 0%. */
  cpu_pourcent: figure,
  /** Seconds inside session.run, the rest of temps_calcul_s being conversion and bookkeeping. */
  inference_s: z.number(),
  /** Seconds of the pass spent phonemizing (scope text); null where the engine does it inside its call. */
  phonemisation_s: figure.optional(),
  /** Start and end on the system monotonic clock, ms. */
  debut_ms: z.number(),
  fin_ms: z.number(),
});

const DistributionSchema = z.object({
  n: z.number().int(),
  mean: figure,
  stdev: figure,
  iqr: figure,
  p95: figure,
  p95_label: z.string(),
});

export const ChildSchema = z.object({
  rang: z.number().int().nonnegative(),
  pid: z.number().int().nullable(),
  coeur_demande: z.number().int().nullable(),
  affinite_effective: z.array(z.number().int()),
  chargement_s: z.number().nullable(),
  phonemisation_s: z.number().nullable(),
  phrases: z.number().int().nullable(),
  phonemes_manquants: z.record(z.string(), z.number()),
  /** Peak resident memory of the stream's process (for threads: the whole shared process). */
  rss_pic_octets: z.number().nullable(),
  echauffement: z.array(PassSchema),
  passes: z.array(PassSchema),
  resume: z.object({ ratio: SummarySchema, rtf: SummarySchema, cpu_pourcent: SummarySchema }),
  /** Beyond the original summary; warm-up passes never enter. */
  statistiques: z.object({
    ratio: DistributionSchema,
    rtf: DistributionSchema,
    cpu_pourcent: DistributionSchema,
    /** Real-time factor's upper control limit, mean + 3 sigma. */
    rtf_limite_controle: figure,
  }),
});

export const SyncSchema = z.object({
  passe: z.number().int().nonnegative(),
  manche: z.number().int().positive(),
  echauffement: z.boolean(),
  depart_prevu_ms: z.number(),
  departs_ms: z.array(z.number()),
  fins_ms: z.array(z.number()),
  skew_ms: z.number(),
  retard_ms: z.number(),
  /** Audio every stream produced in this pass, and the pass's span: first start to last end. */
  audio_total_s: z.number(),
  etendue_s: z.number(),
});

/**
 * A quoted pair's family: the pairs the verdict's sentences quote for one voice, widened together
 * (Bonferroni, each at 1 - 5%/taille); the verdict decides on this interval.
 */
const FamilySchema = z.object({
  taille: z.number().int().positive(),
  confiance: z.number(),
  ic: z.tuple([z.number(), z.number()]).nullable(),
  /** The family interval excludes 1. */
  tranche: z.boolean(),
  /** The family interval lies within the equivalence margin. */
  equivalent: z.boolean(),
});

/**
 * A over B from the rounds both ran: the ratio (geometric mean of the round ratios), its own 95%
 * interval, resolved when that interval excludes 1, equivalent when it lies within the margin
 * (protocole.marge_equivalence_pct); `famille` on the pairs a sentence quotes. Absent fields: older archives.
 */
const PairSchema = z.object({
  a: z.string(),
  b: z.string(),
  rapport: figure,
  rapport_ic95: z.tuple([z.number(), z.number()]).nullable(),
  tranche: z.boolean(),
  equivalent: z.boolean().optional(),
  famille: FamilySchema.optional(),
});

export const ArmSchema = z.object({
  voix: z.string(),
  voix_synthetique: z.boolean(),
  voix_sha256: z.string(),
  isolation: z.enum(['process', 'thread']),
  /** Absent in archives from before engines were a dimension: onnxruntime, model. */
  moteur: z.enum(['onnxruntime', 'sherpa']).optional(),
  portee: z.enum(['model', 'text']).optional(),
  /** Median share of a timed pass spent phonemizing (onnxruntime at scope text); null where it cannot be told apart (sherpa). */
  part_phonemisation: figure.optional(),
  flux_simultanes: z.number().int().positive(),
  fils_par_flux: z.number().int().positive(),
  affinite_demandee: z.boolean(),
  affinites_vues: z.array(z.array(z.number().int())),
  controle_affinite_tenu: z.boolean(),
  etat: z.enum(['done', 'failed', 'timed-out', 'aborted']),
  erreur: z.string().nullable(),
  mural_total_s: z.number(),
  enfants: z.array(ChildSchema),
  synchro: z.array(SyncSchema),
  debit_par_flux_mediane: z.array(figure),
  /** The original script's figure: the sum of the streams' median throughputs. */
  debit_agrege_mediane: figure,
  /**
   * Per timed pass, the speech the machine produced: every stream's audio over the pass's span
   * (first start to last end). Never more than the cores can do, unlike a sum of stream ratios.
   */
  debit_agrege_par_passe: z.array(z.number()),
  debit_agrege_passe_mediane: figure,
  /**
   * The arm's one centre: the geometric mean of its round figures (debit_agrege_manches), the figure
   * its interval, the table, the ranking and the charts all use. Absent in archives from before it
   * (readers then take debit_agrege_passe_mediane).
   */
  debit_agrege_centre: figure.optional(),
  /**
   * 95% interval that holds the drift between rounds: the t interval of the mean log of the round
   * figures (debit_agrege_manches), around debit_agrege_centre (around the pass median before it). null below 2 rounds.
   */
  debit_agrege_ic95: z.tuple([z.number(), z.number()]).nullable(),
  /** Per round (index = manche - 1): the median of that round's per-pass aggregates; null where the arm did not run. */
  debit_agrege_manches: z.array(figure),
  /** Per stream, the same interval for its median throughput; null below 2 rounds. */
  debit_par_flux_ic95: z.array(z.tuple([z.number(), z.number()]).nullable()),
  /** Interquartile range of debit_agrege_par_passe over its median; null with too few passes to tell (under 4). */
  dispersion_relative: figure,
  /** dispersion_relative > 10%, or unknown (too few passes). */
  bruyant: z.boolean(),
  /** Where this arm ran in each round: its place in the round's shuffled order (1-based), its state and wall time. */
  manches: z.array(
    z.object({
      manche: z.number().int().positive(),
      ordre: z.number().int().positive(),
      etat: z.enum(['done', 'failed', 'timed-out', 'aborted']),
      mural_s: z.number(),
    }),
  ),
  cpu_somme_medianes: figure,
  controles: z.array(ControlSchema),
  controle_tenu: z.boolean(),
});

export const ArchiveSchema = z.object({
  schema_version: z.literal(SCHEMA_VERSION),
  outil: z.string(),
  version_outil: z.string(),
  question: z.string(),
  origine: z.string(),
  version_piper: z.string(),
  version_onnxruntime: z.string(),
  version_node: z.string(),
  machine: z.string(),
  machine_detail: MachineSchema,
  /** A name for this machine in summaries (--label), else null; absent before it. */
  etiquette: z.string().nullable().optional(),
  coeurs: z.number().int().positive(),
  date_utc: z.string(),
  protocole: z.object({
    source_du_texte: z.string(),
    texte: z.object({ sha256: z.string(), caracteres: z.number().int(), phrases: z.number().int() }),
    passes_par_bras: z.number().int().positive(),
    passes_echauffement: z.number().int().nonnegative(),
    conditions: z.array(ConditionSchema),
    dimensions: z.object({ voix: z.array(z.string()), conditions: z.number().int() }),
    synchronisation: z.string(),
    pourquoi_barriere: z.string(),
    controle: z.array(z.string()),
    commande: z.string(),
    /** The onnxruntime session settings every stream used; absent in archives from before they were recorded. */
    session_onnxruntime: z.string().optional(),
    /** Whose session settings (piper-tts or libpiper); absent before profiles: libpiper's. */
    profil_session: z.enum(SESSION_PROFILES).optional(),
    /** Each engine the run used: its version, the onnxruntime it runs on, and its session settings. Absent before engines. */
    moteurs: z
      .object({
        onnxruntime: z.object({ version: z.string(), onnxruntime: z.string(), reglages: z.string() }).optional(),
        sherpa: z.object({ version: z.string(), onnxruntime: z.string(), reglages: z.string() }).optional(),
      })
      .optional(),
    /** Rounds planned: each runs every arm once, in an order shuffled by the seed; passes_par_bras is split between them. */
    manches_prevues: z.number().int().positive(),
    /** A sequential run's rule (absent in a fixed run, and before 2026-12-02). */
    sequentiel: z
      .object({
        /** The run's number: looks after two thirds of it, then every third. */
        nombre: z.number().int().positive(),
        regards_manches: z.array(z.number().int().positive()),
        questions_par_voix: z.number().int().nonnegative(),
        alpha_par_voix: z.number(),
        /** The level of every look's interval, for each question. */
        confiance_par_regard: z.number(),
        /** The chance of a false claim per voice spent by each look, cumulative (the last is alpha_par_voix). */
        alpha_depense_cumule: z.array(z.number()),
        budget_minutes: figure,
        regle: z.string(),
      })
      .optional(),
    graine: z.number().int(),
    /**
     * --precision (retired 2026-12-02; null since): after a pilot (the planned rounds, at least 6),
     * the rounds its spread called for to bring every layout ratio's interval within ±this %.
     */
    precision_pct: figure,
    /** --max-minutes: a sequential run's budget, settling included (default 10); null in a fixed run not given it. */
    minutes_max: figure,
    /** --margin: two layouts within ±this % of each other are called equivalent. Absent before it (6). */
    marge_equivalence_pct: z.number().positive().optional(),
  }),
  voix: z.array(
    z.object({
      nom: z.string(),
      synthetique: z.boolean(),
      sha256: z.string(),
      taille_octets: z.number().int(),
      frequence_hz: z.number().int(),
    }),
  ),
  bras: z.array(ArmSchema),
  verdict: z.object({
    phrases: z.array(z.string()),
    comparaisons: z.array(
      z.object({
        voix: z.string(),
        flux: z.number().int(),
        resolu: z.boolean(),
        classement: z.array(
          z.object({
            disposition: z.string(),
            debit_agrege: figure,
            ic95: z.tuple([z.number(), z.number()]).nullable(),
            debit_par_requete: figure,
          }),
        ),
        /** The engine and scope these layouts ran on, when the run had more than the default. */
        moteur: z.enum(['onnxruntime', 'sherpa']).optional(),
        portee: z.enum(['model', 'text']).optional(),
        /** Every pair of layouts: A over B from the same rounds, its 95% interval, resolved when it excludes 1. */
        paires: z.array(PairSchema),
        exclus: z.array(z.string()),
        phrase: z.string(),
        /** The terminal's decision line for this voice and K (absent in older archives). */
        decision: z.string().optional(),
        /** The answer in one line (the layout to run and its figure, or "no layout shown better"), and its details. */
        ligne: z.string().optional(),
        details: z.array(z.string()).optional(),
      }),
    ),
    passage_a_l_echelle: z.array(z.string()),
    /** A sequential run's questions, each with its answer and the look that gave it (absent in a fixed run). */
    questions: z
      .array(
        z.object({
          voix: z.string(),
          flux: z.number().int(),
          genre: z.enum(['deployment', 'pinning']),
          /** A over B. */
          a: z.string(),
          b: z.string(),
          reponse: z.enum(['winner', 'equivalent', 'non-inferior', 'not-resolved', 'controls-failed']),
          /** For non-inferior: the layout that is not slower than the other by more than the margin. */
          protege: z.string().optional(),
          rapport: figure,
          ic: z.tuple([z.number(), z.number()]).nullable(),
          confiance: z.number(),
          manches: z.number().int().nonnegative(),
          /** The look (1-based) at which it closed; null when the budget or the last look ended it. */
          regard: z.number().int().positive().nullable(),
          fin: z.enum(['settled', 'futile', 'budget', 'looks', 'controls']),
          manches_en_plus: z.number().int().nullable().optional(),
          phrase: z.string(),
        }),
      )
      .optional(),
    /**
     * Engines side by side, one entry per voice and layout both ran at the same scope: sherpa-onnx
     * over onnxruntime-node, paired by round; null where either arm's controls failed. Absent before engines.
     */
    moteurs: z
      .array(
        z.object({
          voix: z.string(),
          flux: z.number().int(),
          disposition: z.string(),
          portee: z.enum(['model', 'text']),
          paire: PairSchema.nullable(),
          phrase: z.string(),
        }),
      )
      .optional(),
  }),
  controle_tenu: z.boolean(),
  interrompu: z.boolean(),
  /** Every round as it ran: the arms in the order they ran (voice and condition). */
  manches: z.array(z.object({ manche: z.number().int().positive(), ordre: z.array(z.string()) })),
  /** Why the run stopped adding rounds. */
  arret: z.object({
    /**
     * planned: a fixed run's rounds ran; answered: every question answered; futile: none open, some
     * closed unsettled (the looks left could not settle them); looks: the last look; time: the
     * budget; precise: --precision (retired).
     */
    raison: z.enum(['planned', 'precise', 'time', 'answered', 'futile', 'looks']),
    manches: z.number().int().nonnegative(),
    detail: z.string(),
  }),
});

export type Archive = z.infer<typeof ArchiveSchema>;
export type ArmRecord = z.infer<typeof ArmSchema>;
export type ChildRecordOut = z.infer<typeof ChildSchema>;
export type PassRecord = z.infer<typeof PassSchema>;

/** The archive's JSON Schema, for `piper-parallel schema`. */
export function archiveJsonSchema(): unknown {
  return z.toJSONSchema(ArchiveSchema);
}
