import { z } from 'zod';
import { SESSION_PROFILES } from '../../voice/session-profile.js';
import { ControlSchema, MachineSchema } from '../../archive/common-schema.js';

/**
 * The capacity archive: its own kind (`type: 'capacite'`), beside the throughput archive.
 * Version 3: whole trials run to their planned end; per layout the live speed S with its interval,
 * the headroom, a prediction of a rerun's answer with its coverage, the answer at each pre-buffer,
 * and every bound counted by trial. Versions 2 (schema-v2.ts) and 1 (schema-v1.ts) are still read.
 */
export const CAPACITY_SCHEMA_VERSION = 3;

const figure = z.number().nullable();
const count = z.number().int().nonnegative();
/** A share (0-1), null when nothing was measured. */
const share = z.number().min(0).max(1).nullable();
/** [low, high], null when it cannot be computed. */
const interval = z.tuple([z.number(), z.number()]).nullable();

/** The running server a run measured (`--server`): what it said of itself and how it held up. */
export const ServerSchema = z.object({
  adresse: z.string(),
  protocole: z.enum(['wyoming', 'http']),
  /** The HTTP path sentences were posted to; null for Wyoming. */
  point: z.string().nullable(),
  /** How the HTTP server took a sentence, as the probe found it (a release's way); null for Wyoming; absent: older. */
  requete: z.enum(['synthesize-json', 'root-json', 'root-text', 'get-query']).nullable().optional(),
  /** It advertised streaming text in. */
  flux_texte: z.boolean(),
  /** How the text was sent: a request per sentence, or each listener's whole text in one stream (at a rate or at once). */
  envoi: z.enum(['phrase', 'flux']).optional(),
  /** --text-rate: characters a second the stream's text was written at; null: all at once. */
  debit_texte_cps: z.number().nullable().optional(),
  /** What it said of itself (Wyoming `info`, HTTP `/info` and `/voices`), in words, and its voice names. */
  dit: z.string(),
  voix: z.array(z.string()),
  /** --server-voice: the voice every request asked for; null: the server's default voice; absent: older archives. */
  voix_demandee: z.string().nullable().optional(),
  /** The audio format every sentence came in (a change fails the trial); null when no sentence came. */
  format_audio: z.object({ rate: z.number(), width: z.number(), channels: z.number() }).nullable(),
  /** It still answered a sentence after the last trial; false fails the run's control. */
  repond_apres: z.boolean(),
});
export type ServerRecord = z.infer<typeof ServerSchema>;

export const LayoutSchema = z.object({
  travailleurs: z.union([z.literal('K'), z.number().int().positive()]),
  fils: z.number().int().positive(),
  affinite: z.boolean(),
  isolation: z.enum(['process', 'thread', 'server']),
  nom: z.string(),
});

export const StreamSchema = z.object({
  arrivee_prevue_ms: z.number(),
  arrivee_ms: figure,
  premier_son_ms: figure,
  /** Gaps of at least 20 ms (heard), and the shorter ones reported apart. */
  trous: count,
  trous_courts: count,
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
  /** `sans_trou`: a whole trial, stopped only at a gap; `premier_son`: stopped once every listener's first audio is known. */
  but: z.enum(['sans_trou', 'premier_son', 'reference']),
  /** 0: the first try at this K in this round; 1, 2: run again because a control failed. */
  reprise: count,
  /** `stopped`: ended early by its stop rule (a gap, or first audio known or over the bound). */
  etat: z.enum(['done', 'failed', 'timed-out', 'aborted', 'stopped']),
  erreur: z.string().nullable(),
  debut_ms: z.number(),
  fin_ms: z.number(),
  /** No gap in a whole trial; false on a gap; null when it was not run to the end. */
  sans_trou: z.boolean().nullable(),
  /** No gap and every listener's first audio within the bound. */
  dans_la_borne: z.boolean(),
  /** Run to the end, the audio made over its span at x1 or more per listener (null: not run to the end). */
  au_rythme: z.boolean().nullable(),
  /** Whole, without a gap, and at pace (sans_trou and au_rythme true): what the first answer counts. */
  tenu: z.boolean(),
  /** Nearest rank over the listeners who arrived (one still waiting counts its wait so far). */
  premier_son_p95_ms: figure,
  premier_son_max_ms: figure,
  trous: count,
  flux_avec_trous: count,
  /** The latest due arrival behind its plan, ms, less what the machine stopped (what the arrivals control judges). */
  retard_arrivee_max_ms: z.number(),
  /** The same with the machine's stops left in (absent in older archives, where nothing was left out). */
  retard_arrivee_brut_max_ms: z.number().nonnegative().optional(),
  /** The most of one arrival's lateness that was the whole machine stopped, ms (its parent asleep, not waiting for a core). */
  arret_machine_ms: z.number().nonnegative().optional(),
  /** Audio made over the trial's span (first job start to last job end), and per stream. */
  debit_agrege: figure,
  debit_par_flux: figure,
  /**
   * The live speed S (x real time): speech made per second while the machine was fully loaded, from
   * the last arrival on, over the instants when at least min(cores, workers) sentences were in
   * synthesis; null unless the trial ran to its planned end. And that span, ms.
   */
  debit_vivant: figure,
  fenetre_vivante_ms: z.number().nonnegative(),
  /** Gaps shorter than 20 ms, over every listener: reported, not failing the trial. */
  trous_courts: count,
  rss_pic_octets: z.array(figure),
  /** A server's trial: how many audio pairs each reply came in (by count, e.g. {"3": 8}); absent for local workers. */
  paires_par_reponse: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** Silence the server added after speech (exact zeros at a pair's end), s: played, not counted in the live speed. */
  silence_serveur_s: z.number().nonnegative().optional(),
  /** Steal: the share of the run's cores' time the hypervisor gave to someone else during the trial (absent in older archives; null: unreadable). */
  vol_cpu: z.number().nonnegative().nullable().optional(),
  flux_detail: z.array(StreamSchema.extend({ complet: z.boolean() })),
  controles: z.array(ControlSchema),
  controle_tenu: z.boolean(),
});

/** What the trials at one K show, counted over those whose controls held. */
export const EvidenceSchema = z.object({
  flux: z.number().int().positive(),
  essais: count,
  /** Whole trials without a gap and at pace, and trials of any kind with every first audio within the bound. */
  essais_tenus: count,
  /** Whole trials where no listener heard a gap but the machine fell behind (under x1 per listener): not held. */
  essais_en_retard: count,
  essais_dans_la_borne: count,
  /** Trials not counted: a control failed. */
  essais_controles_echoues: count,
  /** Whole trials (run to their end), those where a listener heard a gap, and the 95% upper bound on a trial's chance of a gap (by trial). */
  essais_entiers: count,
  essais_avec_trou: count,
  taux_trou_max: share,
  /** Described, not evidence (the listeners of one trial share its machine): listener-sessions heard, and those with a gap. */
  sessions: count,
  sessions_avec_trou: count,
  /** Trials whose first audio is known, those where some listener waited longer than the bound, and the 95% upper bound on that chance (by trial). */
  premier_son_essais: count,
  premier_son_essais_au_dela: count,
  part_au_dela_max: share,
  /** Described: listeners whose first audio is known (one still waiting past the bound counts as over), and those over. */
  premier_son_sessions: count,
  premier_son_au_dela: count,
  /** Nearest rank over every listener (described). */
  premier_son_p95_ms: figure,
  /** A 95% upper confidence bound on a percentile of a trial's worst first audio, and which percentile (0-1) the trials support. */
  premier_son_borne_ms: figure,
  premier_son_borne_centile: share,
  /** Each counted trial's per-stream speed over its whole span, and each whole trial's live speed S (x real time). */
  debit_par_flux: z.array(figure),
  debit_vivant: z.array(figure),
});

export const CapacityEntrySchema = z.object({
  voix: z.string(),
  disposition: z.string(),
  /** (a) The most listeners every whole trial served with no gap, whatever their first audio; 0 when even one failed. */
  flux_max_sans_trou: count,
  /** (b) The most served with no gap and every first audio within the bound (never above (a)). */
  flux_max_dans_la_borne: count,
  /** The largest K every whole trial held (and none below failed), before the pace check at S's lower bound. */
  flux_tenu_essais: count,
  /**
   * The live speed S at the answer's edge (whole trials at (a) and (a) + 1 as searched), its 95% interval (t on log S
   * over one value per round), the trials it rests on, and the rounds (its independent units; absent in archives
   * before 2026-12-04, whose interval counted each trial).
   */
  debit_vivant: figure,
  debit_vivant_ic95: interval,
  debit_vivant_essais: count,
  debit_vivant_manches: count.optional(),
  /** Headroom at (a): S/(a) - 1, and its interval from S's. */
  marge: figure,
  marge_ic95: interval,
  /** The answers (a) a rerun of the same workload may give, at the stated coverage (null: fewer than 2 whole trials at the edge). */
  prevision: interval,
  prevision_couverture: z.number().min(0).max(1),
  /**
   * prevision's low end read so that every layout of the voice holds at once (coverage 1 - 5% / layouts): the number to
   * plan on is the highest of them (null: not published; absent: archives before 2026-12-05).
   */
  plan_bas: count.nullable().optional(),
  /** The drift of log S between runs the prediction allows (an assumption until summary measures it). */
  derive_entre_runs: z.number().nonnegative(),
  /**
   * The drift this run saw beyond its trials' noise, folded into prevision: the slowest and fastest levels a rerun
   * may run at, over this run's mean (null: none seen; absent in older archives).
   */
  derive_vue: interval.optional(),
  /** The drift between runs measured over earlier runs in the out-dir and this one (sd of log S), and how many earlier runs; absent: none read. */
  derive_entre_runs_mesuree: figure.optional(),
  derive_entre_runs_runs: count.optional(),
  /**
   * Rounds the answer still lacked: it needs 3, each with a whole trial at its K or above that served with no gap and
   * at pace; above 0, no number and no prevision were published (absent: older archives; before 2026-12-04 it counted
   * whole trials, several of one round included).
   */
  essais_manquants: count.optional(),
  /** (a) at each pre-buffer, replayed from the same trials; au_moins: no K tried failed, it may serve more. */
  par_tampon: z.array(
    z.object({ tampon_ms: z.number().nonnegative(), flux_max_sans_trou: count, au_moins: z.boolean() }),
  ),
  /**
   * At the K every whole trial held (flux_tenu_essais, at or above (a)): trials, trials held, the 95% upper bound on
   * a trial's chance of a gap; listener-sessions described.
   */
  taux_trou_max: share,
  essais: count,
  essais_tenus: count,
  sessions: count,
  sessions_avec_trou: count,
  /** First audio at (b), nearest rank over every session there; null when (b) is 0. */
  premier_son_p95_ms: figure,
  /** The first sentence alone, at this layout's threads (calibration), ms. */
  premier_son_seul_ms: figure,
  /** Every K tried, in order. */
  preuves: z.array(EvidenceSchema),
  /** Gaps seen at (a) + 1 (the most in one trial; a trial stopped at its first gap counts 1). */
  trous_au_dela: count.nullable(),
  /** What stopped (a): gaps (cpu), the memory bound, --max-streams, a broken trial, or controls that kept failing. */
  borne: z.enum(['cpu', 'memoire', 'flux_max', 'erreur', 'controles']),
  /** The sweep's ceiling for this voice (flux_max's cap): --max-streams, or from its calibration (absent: older archives). */
  plafond: count.optional(),
  /** K predicted from the voice's single-stream speed before any trial: (a), then (b). */
  prediction: count,
  prediction_dans_la_borne: count,
  /** No K of this layout was given up on for failed controls and its sweep did not break: the answers rest on trials whose controls held. */
  controle_tenu: z.boolean(),
  phrase: z.string(),
});

export const PlanSchema = z.object({
  voix: z.string(),
  flux: count.nullable(),
  disposition: z.string().nullable(),
  ce_run: count.nullable(),
  prevision: interval,
  phrase: z.string(),
  /** The same in one line without the figures the voice's details give (the terminal's first line; absent: older). */
  ligne: z.string().optional(),
});

export const DriftSchema = z.object({
  /** The run's span in thirds (start, middle, end): whole trials in each, the machine's level over its mean, mean steal. */
  tiers: z.array(
    z.object({
      de_ms: z.number(),
      a_ms: z.number(),
      essais: count,
      niveau: figure,
      vol_cpu: z.number().nonnegative().nullable(),
    }),
  ),
  /** Whole trials in the fit (groups of voice, layout and K with two or more). */
  essais: count,
  /** The fastest third over the slowest, less 1; null: not measured. */
  ecart: figure,
  /** Beyond the trials' noise (t test between the thirds, Bonferroni, 5%): chooses the words only. */
  vue: z.boolean(),
  /** The levels folded into every prevision, always, shrunk by their noise (1 and 1: none kept). */
  bas: z.number(),
  haut: z.number(),
  /** The share of the slowest third's shift kept: tau^2 / (tau^2 + se^2) (archives before 2026-12-05: absent). */
  part_gardee: z.number().min(0).max(1).optional(),
  /** The run's fixed reference (one layout, one K, fresh workers) at its start, middle and end: its live speeds. */
  reference: z
    .object({ groupe: z.string(), debits: z.array(z.object({ a_ms: z.number(), debit: z.number().positive() })) })
    .nullable()
    .optional(),
  vol_cpu_par_manche: z.array(
    z.object({ manche: z.number().int(), essais: count, vol_cpu: z.number().nonnegative().nullable() }),
  ),
  vol_cpu_max: z.number().nonnegative().nullable(),
  phrase: z.string(),
  /** Said on the terminal when a round's steal passed 3%; null otherwise. */
  phrase_vol: z.string().nullable(),
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
  /** A name for this machine in summaries (--label), else null. */
  etiquette: z.string().nullable().default(null),
  coeurs: z.number().int().positive(),
  date_utc: z.string(),
  protocole: z.object({
    source_du_texte: z.string(),
    texte: z.object({ sha256: z.string(), caracteres: z.number().int(), phrases: z.number().int() }),
    arrivees: z.enum(['together', 'staggered', 'poisson']),
    ordre_file: z.enum(['fifo', 'deadline']),
    premier_son_max_ms: z.number().positive(),
    /** --max-streams; with none given (flux_max_demande false), the limit of each voice's calibrated ceiling. */
    flux_max: z.number().int().positive(),
    flux_max_demande: z.boolean().optional(),
    manches: z.number().int().positive(),
    /** The pre-buffers each answer is replayed at (ms), and the shortest gap counted as heard (ms). */
    tampons_ms: z.array(z.number().nonnegative()),
    tolerance_trou_ms: z.number().nonnegative(),
    graine: z.number().int(),
    dispositions: z.array(LayoutSchema),
    commande: z.string(),
    session_onnxruntime: z.string(),
    /** Whose session settings (piper-tts or libpiper); absent before profiles: libpiper's. */
    profil_session: z.enum(SESSION_PROFILES).optional(),
    /** How the parent, which stands for the listeners, kept their time (SCHED_FIFO where permitted). */
    priorite_parent: z.string(),
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
      /** The first sentence alone at each thread count the layouts use, ms (key: threads). */
      premier_son_seul_ms: z.record(z.string(), z.number()),
      /** Peak RSS of that worker, and how many such workers MemAvailable holds. */
      rss_travailleur_octets: figure,
      travailleurs_max_memoire: z.number().int().nullable(),
    }),
  ),
  memoire_disponible_octets: figure,
  /** Absent or null: no --server. */
  serveur: ServerSchema.nullable().optional(),
  essais: z.array(TrialSchema),
  capacite: z.array(CapacityEntrySchema),
  /** Per voice, the line read first: the number to plan on (a rerun's low end), its layout, this run's answer (absent: older). */
  plans: z.array(PlanSchema).optional(),
  /** How far the machine moved during the run, and the CPU the hypervisor stole (absent: older archives). */
  derive: DriftSchema.optional(),
  phrases: z.array(z.string()),
  /** The wall time the run said it would take before its first trial, and what it took (s). */
  duree_prevue_s: figure,
  duree_s: figure,
  controle_tenu: z.boolean(),
  interrompu: z.boolean(),
});

export type CapacityArchive = z.infer<typeof CapacityArchiveSchema>;
export type TrialRecord = z.infer<typeof TrialSchema>;
export type CapacityEntry = z.infer<typeof CapacityEntrySchema>;
export type Evidence = z.infer<typeof EvidenceSchema>;
