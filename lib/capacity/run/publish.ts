/** Step 4 of a capacity run: the answer, the archive written where nothing is overwritten. */
import type { PartialLog } from '../../archive/partial.js';
import { writeExclusive, type ArchiveFiles } from '../../archive/writer.js';
import { PiperParallelError } from '../../core/errors.js';
import { SESSION_SETTINGS } from '../../voice/session-profile.js';
import { ONNXRUNTIME_VERSION, TOOL_VERSION } from '../../core/version.js';
import type { Calibration } from '../setup/calibrate.js';
import { layoutName } from '../trial/layouts.js';
import type { CapacityProgress, CapacityResult } from '../setup/options.js';
import type { CapacityPlan } from '../setup/plan.js';
import {
  CAPACITY_SCHEMA_VERSION,
  CapacityArchiveSchema,
  type CapacityArchive,
  type CapacityEntry,
} from '../archive/schema.js';
import { percentUp, rateUpperBound } from '../answer/evidence.js';
import { DEFAULT_DRIFT_SD, rerunSharePercent } from '../answer/live.js';
import { GAP_TOLERANCE_MS } from '../trial/playback.js';
import { maxOf } from '../../core/extremes.js';
import type { History } from '../setup/history.js';
import { driftLine, stealLine } from '../answer/plan-on.js';
import { SERVER_LAYOUT, SERVER_VOICE } from '../setup/server.js';
import { runAnswers, type Measured, type RunAnswers } from './answers.js';

export const CAPACITY_CONTROLS = [
  'arrivals: every listener due before the trial ended arrived within 5 ms of its planned time ' +
    '(the parent, which stands for the listeners, runs SCHED_FIFO where the OS permits, and workers at nice 10)',
  'memory: no page swapped during the trial (/proc/vmstat pswpin + pswpout) and at most 64 major page faults in its workers',
  'outside_load: other programs used at most 10% of one core during the trial, on the cores the run may use',
  'a trial whose control failed is not counted and is run again, up to twice; a K whose every try failed a control is given up, and then the run does not hold',
];

export const SERVER_CONTROLS = [
  "client_cpu (a server's trials, in place of outside_load): the measuring process used at most 50% of one core during the trial",
  "a server's connection, info or next audio event not come within --server-timeout-s fails the trial; so does a change of audio format",
  'the server must still answer a sentence after the last trial',
];

/** "your server: 3 live listeners; this machine's best layout of synthetic-siwis-medium: 7 (pool of 2 processes)". */
function sideBySide(capacite: CapacityEntry[], label: (voice: string) => string): string[] {
  const mine = capacite.find((e) => e.voix === SERVER_VOICE);
  const local = capacite.filter((e) => e.voix !== SERVER_VOICE);
  if (!mine || local.length === 0) return [];
  const best = [...local].sort((a, b) => b.flux_max_sans_trou - a.flux_max_sans_trou)[0] as CapacityEntry;
  const range = (e: CapacityEntry): string =>
    e.prevision ? ` (a rerun may answer ${e.prevision[0]} to ${e.prevision[1]})` : '';
  return [
    `Side by side, same text and arrivals, in the same rounds: ${label(SERVER_VOICE)}: ${mine.flux_max_sans_trou} live ` +
      `listener(s)${range(mine)}; ${label(best.voix)} here, ${best.disposition}: ${best.flux_max_sans_trou}${range(best)}.`,
  ];
}

/** What the rounds asked for prove when every whole trial at an answer held: "a trial's chance of a gap below 63%". */
export function trialsProof(rounds: number): string {
  return (
    `each answer rests on at least ${rounds} rounds, each with fresh workers (--rounds ${rounds}), the independent unit: ` +
    `with no gap in ${rounds}, fewer than ${percentUp(rateUpperBound(0, rounds) ?? 1)}% of such trials would have a gap (95% confidence); ` +
    `the listeners of one trial share its machine and are described, not counted`
  );
}

export interface Timing {
  plannedSeconds: number | null;
  seconds: number | null;
  /** How the parent kept the listeners' time. */
  priority: string;
}

/** What the history says, in the run's words. */
function historyWords(h: History | undefined, outDir: string): string[] {
  if (!h || h.files.length === 0) return [];
  const where = `of this workload on this machine in ${outDir}`;
  // In the Reruns line's terms: how far either way a rerun may sit, not the drift's standard deviation.
  const assumed = `the ${rerunSharePercent(DEFAULT_DRIFT_SD)}% either way assumed`;
  if (h.files.length < 2)
    return [
      `History: 1 earlier run ${where}; from 2 on, their spread between runs widens each rerun range where it passes ${assumed}.`,
    ];
  return [
    `History: ${h.files.length} earlier runs ${where}: each rerun range allows the upper bound (80%) of the drift between them where it passes ${assumed}.`,
  ];
}

/** The archive's protocol block: what the run was set to do, and how it kept its time. */
function protocolBlock(plan: CapacityPlan, timing: Timing): CapacityArchive['protocole'] {
  return {
    source_du_texte: plan.text.source,
    texte: { sha256: plan.text.sha256, caracteres: plan.text.characters, phrases: plan.text.lines.length },
    arrivees: plan.arrivals,
    ordre_file: plan.schedule,
    premier_son_max_ms: plan.firstAudioMs,
    flux_max: plan.maxStreams,
    flux_max_demande: plan.maxStreamsAsked,
    manches: plan.rounds,
    tampons_ms: [...plan.prebuffersMs],
    tolerance_trou_ms: GAP_TOLERANCE_MS,
    graine: plan.seed,
    dispositions: [...plan.layouts, ...(plan.server ? [SERVER_LAYOUT] : [])].map((l) => ({
      travailleurs: l.workers,
      fils: l.threads,
      affinite: l.pinned,
      isolation: l.isolation,
      nom: layoutName(l),
    })),
    commande: plan.command,
    session_onnxruntime: SESSION_SETTINGS[plan.session].label,
    profil_session: plan.session,
    priorite_parent: timing.priority,
    controle: plan.server ? [...CAPACITY_CONTROLS, ...SERVER_CONTROLS] : CAPACITY_CONTROLS,
  };
}

/** Each voice as calibrated: its file, its sentences alone, its worker's memory. */
function voicesBlock(plan: CapacityPlan, m: Measured): CapacityArchive['voix'] {
  return plan.voices.map((v) => {
    const c = m.calibrations.get(v.name) as Calibration;
    return {
      nom: v.name,
      synthetique: v.synthetic,
      sha256: v.sha256,
      taille_octets: v.sizeBytes,
      frequence_hz: v.name === SERVER_VOICE ? (m.server?.format_audio?.rate ?? 0) : v.config.audio.sample_rate,
      phrases_audio_s: c.audioSeconds,
      phrases_calcul_s: c.computeSeconds,
      debit_seul: c.speed,
      premier_son_seul_ms: c.firstSentenceMs,
      rss_travailleur_octets: c.workerRssBytes,
      travailleurs_max_memoire: c.memoryWorkers,
    };
  });
}

/** The machine's movement over the run and the steal it saw, as the archive keeps them. */
function driftBlock(a: RunAnswers): CapacityArchive['derive'] {
  const { drift, steal } = a;
  return {
    tiers: drift.thirds.map((t) => ({
      de_ms: t.fromMs,
      a_ms: t.toMs,
      essais: t.trials,
      niveau: t.level,
      vol_cpu: t.steal,
    })),
    essais: drift.trials,
    ecart: drift.range,
    vue: drift.seen,
    bas: Math.exp(drift.lowLog),
    haut: Math.exp(drift.highLog),
    part_gardee: drift.shrink,
    reference: drift.reference
      ? {
          groupe: drift.reference.group,
          debits: drift.reference.speeds.map((x) => ({ a_ms: x.atMs, debit: x.speed })),
        }
      : null,
    vol_cpu_par_manche: steal,
    vol_cpu_max: steal.length > 0 ? maxOf(steal.map((r) => r.vol_cpu ?? 0)) : null,
    phrase: driftLine(drift),
    phrase_vol: stealLine(steal),
  };
}

/** The run's sentences: each voice's verdict, then the server beside the voices, the evidence, history, notes. */
function runPhrases(plan: CapacityPlan, m: Measured, a: RunAnswers): string[] {
  const givenUp = m.sweeps.flatMap((s) =>
    s.givenUp.map(
      (g) => `${s.voice}, ${s.name}: K=${g.k} was not counted, a control failed in each of its 3 tries (${g.why})`,
    ),
  );
  return [
    ...a.verdicts,
    ...sideBySide(a.capacite, a.label),
    ...(m.server && !m.server.repond_apres
      ? [
          `Control: the server did not answer a sentence after the last trial (${m.server.adresse}): the run does not hold.`,
        ]
      : []),
    `Evidence: ${trialsProof(plan.rounds)}.`,
    ...historyWords(m.history, plan.outDir),
    ...givenUp.map((g) => `Not counted: ${g}.`),
    ...plan.notes.map((n) => `Note: ${n}.`),
  ];
}

export function capacityArchive(
  plan: CapacityPlan,
  m: Measured,
  timing: Timing = { plannedSeconds: null, seconds: null, priority: 'not recorded' },
): CapacityArchive {
  const a = runAnswers(plan, m);
  const server = m.server ?? null;
  return CapacityArchiveSchema.parse({
    schema_version: CAPACITY_SCHEMA_VERSION,
    type: 'capacite',
    outil: 'piper-parallel',
    version_outil: TOOL_VERSION,
    question:
      'how many live listeners can this machine serve before someone hears a gap, and how long does each wait for the first word?',
    version_onnxruntime: ONNXRUNTIME_VERSION,
    version_node: process.version,
    machine: plan.machine.architecture,
    machine_detail: plan.machine,
    etiquette: plan.label,
    coeurs: plan.cores.length,
    date_utc: plan.date.toISOString(),
    protocole: protocolBlock(plan, timing),
    voix: voicesBlock(plan, m),
    memoire_disponible_octets: plan.memAvailableBytes,
    serveur: server,
    essais: m.trials,
    capacite: a.capacite,
    plans: a.plans,
    derive: driftBlock(a),
    phrases: runPhrases(plan, m, a),
    duree_prevue_s: timing.plannedSeconds,
    duree_s: timing.seconds,
    // A trial whose control failed and whose run again held costs nothing; a K given up on, or a sweep that broke, leaves its answer unproven.
    controle_tenu:
      a.trials.some((t) => t.controle_tenu) &&
      m.sweeps.every((s) => s.givenUp.length === 0 && s.error === undefined) &&
      server?.repond_apres !== false,
    interrompu: m.resumed,
  });
}

export async function publishCapacity(
  archive: CapacityArchive,
  plan: CapacityPlan,
  partial: PartialLog,
  files: ArchiveFiles | undefined,
  onProgress?: (e: CapacityProgress) => void,
): Promise<CapacityResult> {
  for (const entry of archive.capacite) onProgress?.({ kind: 'capacity', entry });
  let file: string;
  try {
    file = await writeExclusive(plan.outDir, plan.base, `${JSON.stringify(archive, null, 2)}\n`, '.json', files);
  } catch (err) {
    throw new PiperParallelError(
      'ARCHIVE',
      `${(err as Error).message}; every finished trial is still in ${partial.file}`,
      { cause: err },
    );
  }
  await partial.remove();
  return { archive, path: file };
}
