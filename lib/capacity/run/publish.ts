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
  type TrialRecord,
} from '../archive/schema.js';
import type { Sweep } from './sweep.js';
import { capacityEntry, voiceVerdict } from '../answer/verdict.js';
import { percentUp, rateUpperBound } from '../answer/evidence.js';
import { DEFAULT_DRIFT_SD, edgeTrials, rerunSharePercent, roundLogSpeeds } from '../answer/live.js';
import { bestLayout, contenders, type LayoutSpeeds } from '../answer/layouts.js';
import { GAP_TOLERANCE_MS } from '../trial/playback.js';
import { maxOf } from '../../core/extremes.js';
import { driftOf, driftPoints } from '../answer/drift.js';
import { historyKey, measuredDrift, speedDraw, type History } from '../setup/history.js';
import { conditionWords, driftLine, planOn, stealByRound, stealLine, type PlanConditions } from '../answer/plan-on.js';
import { SERVER_LAYOUT, SERVER_VOICE } from '../setup/server.js';
import type { ServerRecord } from '../archive/schema.js';

const GiB = 2 ** 30;
const MiB = 2 ** 20;

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

/** Which binds first, per layout: the memory (a worker per listener stopped at what MemAvailable holds) or the CPU. */
export function memoryLine(c: Calibration, entries: CapacityEntry[], memAvailable: number | null): string {
  if (c.workerRssBytes === null || memAvailable === null || c.memoryWorkers === null)
    return "Memory: a worker's peak or MemAvailable could not be read, so the memory bound is unknown.";
  const head =
    `Memory: a worker peaked at ${Math.round(c.workerRssBytes / MiB)} MiB; MemAvailable ${(memAvailable / GiB).toFixed(1)} ` +
    `GiB holds ${c.memoryWorkers} such workers`;
  const bound = entries.filter((e) => e.borne === 'memoire').map((e) => e.disposition);
  if (bound.length === 0) return `${head}: memory stopped no layout.`;
  return `${head}: memory binds first for ${bound.join(' and ')}${bound.length < entries.length ? ', not for the others' : ''}.`;
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

/** What the run measured, for its archive. */
export interface Measured {
  calibrations: Map<string, Calibration>;
  sweeps: Sweep[];
  trials: TrialRecord[];
  /** Whether the run carried on a partial file. */
  resumed: boolean;
  /** The server measured (--server), as the archive keeps it. */
  server?: ServerRecord | null;
  /** Earlier runs of this workload on this machine, from the out-dir. */
  history?: History;
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

export function capacityArchive(
  plan: CapacityPlan,
  { calibrations, sweeps, trials: all, resumed, server = null, history }: Measured,
  timing: Timing = { plannedSeconds: null, seconds: null, priority: 'not recorded' },
): CapacityArchive {
  const label = (name: string): string =>
    name === SERVER_VOICE && plan.server
      ? `the server at ${plan.server.handle.description.address}`
      : plan.voices.find((v) => v.name === name)?.synthetic && !name.includes('synthetic')
        ? `${name} (SYNTHETIC)`
        : name;
  // The reference's trials measure the machine, not an answer: the answers and their evidence leave them out.
  const trials = all.filter((t) => t.but !== 'reference');
  // The machine's own movement over the run, from the reference and every whole trial of every layout (interleaved).
  const drift = driftOf(driftPoints(all));
  const entryOf = (s: Sweep, driftSd?: { sd: number; runs: number }): CapacityEntry =>
    capacityEntry(s, trials, {
      voiceLabel: label(s.voice),
      maxStreams: plan.maxStreams,
      limitMs: plan.firstAudioMs,
      aloneMs: calibrations.get(s.voice)?.firstSentenceMs[s.layout.threads] ?? null,
      prebuffersMs: plan.prebuffersMs,
      seen: { lowLog: drift.lowLog, highLog: drift.highLog },
      // The number to plan on is chosen among the voice's layouts: each low end is read so all hold at once.
      layouts: sweeps.filter((o) => o.voice === s.voice).length,
      ...(driftSd ? { driftSd: driftSd.sd, driftRuns: driftSd.runs } : {}),
    });
  // With earlier runs here, the drift between runs is measured, not assumed, where it is the larger.
  const capacite = sweeps.map((s) => {
    const first = entryOf(s);
    const earlier = history?.speeds.get(historyKey(s.voice, s.name)) ?? [];
    const measured = measuredDrift(earlier, speedDraw(first));
    if (measured === null) return first;
    const e = measured > DEFAULT_DRIFT_SD ? entryOf(s, { sd: measured, runs: earlier.length }) : first;
    return { ...e, derive_entre_runs_mesuree: measured, derive_entre_runs_runs: earlier.length };
  });
  const conditions = (v: (typeof plan.voices)[number]): PlanConditions => ({
    // A server runs its own session settings, which this tool cannot read.
    session: v.name === SERVER_VOICE ? null : plan.session,
    sentences: calibrations.get(v.name)?.audioSeconds.length ?? plan.text.lines.length,
    synthetic: v.synthetic,
  });
  // Each layout's S by round at its own edge: what the best layout, and the layouts not told apart from it, rest on.
  const speedsOf = (voice: string): LayoutSpeeds[] =>
    capacite
      .filter((e) => e.voix === voice)
      .map((e) => ({
        layout: e.disposition,
        byRound: roundLogSpeeds(
          edgeTrials(
            trials.filter((t) => t.voix === e.voix && t.disposition === e.disposition),
            e.flux_tenu_essais,
          ),
        ),
      }));
  const plans = plan.voices.map((v) =>
    planOn(
      v.name,
      label(v.name),
      capacite.filter((e) => e.voix === v.name),
      conditions(v),
      contenders(bestLayout(speedsOf(v.name))),
    ),
  );
  const steal = stealByRound(all);
  const stealSaid = stealLine(steal);
  const phrases = plan.voices.map((v) => {
    const entries = capacite.filter((e) => e.voix === v.name);
    const c = calibrations.get(v.name) as Calibration;
    const speeds = speedsOf(v.name);
    return voiceVerdict(label(v.name), entries, {
      conditions: conditionWords(conditions(v)),
      limitMs: plan.firstAudioMs,
      memory:
        v.name === SERVER_VOICE
          ? "Memory: the server's own, not read from here."
          : memoryLine(c, entries, plan.memAvailableBytes),
      speeds,
    });
  });
  const givenUp = sweeps.flatMap((s) =>
    s.givenUp.map(
      (g) => `${s.voice}, ${s.name}: K=${g.k} was not counted, a control failed in each of its 3 tries (${g.why})`,
    ),
  );
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
    protocole: {
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
    },
    voix: plan.voices.map((v) => {
      const c = calibrations.get(v.name) as Calibration;
      return {
        nom: v.name,
        synthetique: v.synthetic,
        sha256: v.sha256,
        taille_octets: v.sizeBytes,
        frequence_hz: v.name === SERVER_VOICE ? (server?.format_audio?.rate ?? 0) : v.config.audio.sample_rate,
        phrases_audio_s: c.audioSeconds,
        phrases_calcul_s: c.computeSeconds,
        debit_seul: c.speed,
        premier_son_seul_ms: c.firstSentenceMs,
        rss_travailleur_octets: c.workerRssBytes,
        travailleurs_max_memoire: c.memoryWorkers,
      };
    }),
    memoire_disponible_octets: plan.memAvailableBytes,
    serveur: server,
    essais: all,
    capacite,
    plans,
    derive: {
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
      phrase_vol: stealSaid,
    },
    phrases: [
      ...phrases,
      ...sideBySide(capacite, label),
      ...(server && !server.repond_apres
        ? [
            `Control: the server did not answer a sentence after the last trial (${server.adresse}): the run does not hold.`,
          ]
        : []),
      `Evidence: ${trialsProof(plan.rounds)}.`,
      ...historyWords(history, plan.outDir),
      ...givenUp.map((g) => `Not counted: ${g}.`),
      ...plan.notes.map((n) => `Note: ${n}.`),
    ],
    duree_prevue_s: timing.plannedSeconds,
    duree_s: timing.seconds,
    // A trial whose control failed and whose run again held costs nothing; a K given up on, or a sweep that broke, leaves its answer unproven.
    controle_tenu:
      trials.some((t) => t.controle_tenu) &&
      sweeps.every((s) => s.givenUp.length === 0 && s.error === undefined) &&
      server?.repond_apres !== false,
    interrompu: resumed,
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
