import type { ArchiveFiles } from '../../archive/writer.js';
import type { Archive, ArmRecord, Condition } from '../schema.js';
import type { CpuSampler } from '../../measure/system-cpu.js';
import type { ArmTimeouts } from '../arm/arm.js';
import type { AffinityChoice, EngineChoice, IsolationChoice, Scope } from '../arm/conditions.js';
import type { WorkerAdapter } from '../../workers/worker.js';

export type Progress =
  /** The voices, and where each is: `from` --voices-dir, ./voices, the cache, or the cache's synthetic folder. */
  | {
      kind: 'voices';
      voices: Array<{ name: string; synthetic: boolean; standsInFor?: string; from?: string; dir?: string }>;
    }
  | { kind: 'start'; header: Pick<Archive, 'protocole' | 'coeurs' | 'machine_detail' | 'voix'> }
  /** One arm in one round starts; `index` of `total` counts arm-rounds over the whole run. */
  | {
      kind: 'arm-start';
      index: number;
      total: number;
      voice: string;
      condition: Condition;
      round: number;
      rounds: number;
    }
  | { kind: 'pass'; index: number; total: number; pass: number; passes: number }
  /** That arm-round ended (its state: 'done' or why not). */
  | {
      kind: 'round-arm-end';
      index: number;
      total: number;
      voice: string;
      condition: Condition;
      round: number;
      state: string;
      message?: string;
    }
  /** A sequential run looked (look 0: a stop between looks): the questions still open, and why it stops if it does. */
  | { kind: 'look'; look: number; looks: number; round: number; open: string[]; stop?: string }
  /** Every round ran: each arm, whole, once, in plan order. */
  | { kind: 'arm-end'; index: number; total: number; arm: ArmRecord };

export interface RunArmsOptions {
  /**
   * The run's number (default 6). With `rounds`, the timed passes per arm, split between them. Without
   * it, where the run has questions to answer (each K-process layout against 1 process x K threads,
   * pinned against free), it sets the looks of the sequential run: the first after two thirds of it,
   * then every third (4, 6, 8, 10, 12 for 6), one timed pass per arm per round.
   */
  passes?: number;
  /** Untimed passes each time an arm's streams start, in every round (default 1). */
  warmup?: number;
  /** Rounds, fixed: each runs every arm once, a voice's arms back to back; nothing is added or stopped early. */
  rounds?: number;
  /** Seed of the rounds' order (default: drawn at random, archived and printed, so a run can be repeated with it). */
  seed?: number;
  /** Within ±this % two layouts are called equivalent (default 6). */
  margin?: number;
  /** Retired: a sequential run stops when its questions are answered. Given, it is refused with what to use instead. */
  precision?: number;
  /** The time budget of a sequential run, settling included, in minutes (default 10); with `rounds`, none unless given. */
  maxMinutes?: number;
  /** A name for this machine in summaries (archived as `etiquette`). */
  label?: string;
  /** Voice names; default fr_FR-siwis-medium and fr_FR-tom-medium, or their synthetic stand-ins. */
  voices?: string[];
  streams?: number[];
  threads?: number[];
  affinity?: AffinityChoice;
  /** Streams as processes (default), as worker threads of this process, or both. */
  isolation?: IsolationChoice;
  /** Who runs the voice: onnxruntime-node (default), sherpa-onnx, or both side by side. */
  engine?: EngineChoice;
  /** Whose onnxruntime session settings: piper-tts (default, Python Piper's) or libpiper; sherpa-onnx runs libpiper's. */
  session?: string;
  /** What a timed pass covers: phoneme ids to audio (model, the default with onnxruntime) or text to audio (text, the default with sherpa). */
  scope?: Scope;
  /** Explicit conditions (overrides streams, threads and affinity). */
  conditions?: Condition[];
  textFile?: string;
  lines?: string[];
  /** Archives, reports and the partial file go here (default ./measurements), and nowhere else. */
  outDir?: string;
  /** The only place voices are read from and built into; default ./voices when it holds real voices, else the user's cache. */
  voicesDir?: string;
  /** The command line recorded in the archive. */
  command?: string;
  onProgress?: (event: Progress) => void;
  signal?: AbortSignal;
  timeouts?: Partial<ArmTimeouts>;
  /** Who runs the workers, and how the archive reaches the disk; tests inject their own. */
  adapters?: { process?: WorkerAdapter; thread?: WorkerAdapter; files?: ArchiveFiles };
  /** Carry on an interrupted run from its `.partial/<run>.jsonl`, skipping the arm-rounds it holds. */
  resume?: string;
  /** Before the first arm, wait up to this long for a busy machine to calm down (default 30; 0 = no wait). */
  settleSeconds?: number;
  /** Machine and own CPU readings on the cores the run may use, for settling and the outside-load control (tests inject their own). */
  cpuSampler?: CpuSampler;
  /** Clock for the archive's date (tests). */
  now?: () => Date;
  /** Leave the host name and the command line's folders out of the archive (placeholders in their keys). */
  redact?: boolean;
  /** Run even an arm that will not fit in memory, or more threads than 8 per core (refused otherwise). */
  force?: boolean;
  /** MemAvailable, for the size check before any stream starts (tests inject their own). */
  memAvailableBytes?: () => number | null;
}

export interface RunResult {
  archive: Archive;
  /** Where the archive was written. */
  path: string;
}
