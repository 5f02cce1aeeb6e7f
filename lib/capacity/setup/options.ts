import type { ArchiveFiles } from '../../archive/writer.js';
import type { CpuSampler } from '../../measure/system-cpu.js';
import type { WorkerAdapter } from '../../workers/worker.js';
import type { ArrivalPattern } from '../trial/arrivals.js';
import type { Layout } from '../trial/layouts.js';
import type { QueuePolicy } from '../trial/queue.js';
import type { TrialPurpose } from '../trial/record.js';
import type { CapacityArchive, CapacityEntry, TrialRecord } from '../archive/schema.js';
import type { Timers } from '../trial/timers.js';
import type { ParentPriority } from './priority.js';
import type { ServerHandle } from './server.js';
import type { SessionProfile } from '../../voice/session-profile.js';

export type CapacityProgress =
  /** The voices swept, and the session profile their local workers run. */
  | { kind: 'voices'; voices: Array<{ name: string; synthetic: boolean }>; session: SessionProfile }
  /** Something to know before the trials (e.g. a one-sentence text). */
  | { kind: 'note'; text: string }
  | {
      kind: 'calibrated';
      voice: string;
      speed: number;
      sentenceAudioSeconds: number[];
      firstSentenceMs: Record<string, number>;
      workerRssBytes: number | null;
      memoryWorkers: number | null;
    }
  /** Before the first trial: what the run will do and about how long it will take. */
  | {
      kind: 'plan';
      trials: number;
      seconds: number;
      seed: number;
      seedDrawn: boolean;
      prebuffersMs: number[];
      maxMinutes: number;
    }
  | {
      kind: 'trial-start';
      voice: string;
      layout: string;
      k: number;
      round: number;
      index: number;
      purpose: TrialPurpose;
    }
  | { kind: 'trial-end'; trial: TrialRecord; index: number }
  | { kind: 'capacity'; entry: CapacityEntry };

export interface CapacityOptions {
  /** Voice names; default the two default voices (real when installed, else synthetic). */
  voices?: string[];
  textFile?: string;
  lines?: string[];
  /** When listeners arrive: all at once, spread evenly over one mean sentence (default), or Poisson. */
  arrivals?: ArrivalPattern;
  /** The queue's order: fifo, or deadline (default: the sentence due soonest first). */
  schedule?: QueuePolicy;
  /** A K fails when first audio p95 goes over this (default 500 ms). */
  firstAudioMs?: number;
  /** The sweep stops here (default 32). */
  maxStreams?: number;
  /** Round 1 searches; later rounds run the edges again: each edge K and the next get at least this many trials (default 3). */
  rounds?: number;
  /** Pre-buffers (ms) each answer is replayed at, from the same trials (default 0, 250, 500). */
  prebuffersMs?: number[];
  /** Retired: evidence is counted by trial (--rounds); refused, saying so. */
  sessions?: number;
  /** The run ends within this many minutes, calibration included: a later round's turn that would pass it is left out (default 7.5). */
  maxMinutes?: number;
  /** Seed of the order and of Poisson arrivals (default: drawn at random, archived). */
  seed?: number;
  /** Whose onnxruntime session settings the local layouts run: piper-tts (default, Python Piper's) or libpiper. */
  session?: string;
  /** A name for this machine in summaries (archived). */
  label?: string;
  /** The layouts to sweep (default: defaultLayouts for the usable cores). */
  layouts?: Layout[];
  /**
   * A running server to measure (`tcp://HOST:PORT` Wyoming, `http://HOST:PORT` Piper's HTTP server, or a
   * handle): it is swept as a voice named `server`; the local voices are swept beside it only when named.
   */
  server?: string | ServerHandle;
  /** The voice every request to the server asks for (Wyoming `voice.name`, Piper HTTP `voice`); default: the server's own. */
  serverVoice?: string;
  /** A server's connection, `info` or sentence event not come within this has failed (default 30 s). */
  serverTimeoutMs?: number;
  /** A streaming server: each listener's text written at this many characters a second (default: all at once). */
  textRateCps?: number;
  outDir?: string;
  voicesDir?: string;
  command?: string;
  /** Before the first trial, wait up to this long for a busy machine (default 30; 0 = no wait). */
  settleSeconds?: number;
  onProgress?: (event: CapacityProgress) => void;
  signal?: AbortSignal;
  /** Carry on an interrupted capacity run from its partial file. */
  resume?: string;
  /** Tests inject their own workers, timers, and machine readers. */
  adapters?: { process?: WorkerAdapter; thread?: WorkerAdapter; files?: ArchiveFiles };
  /** Leave the host name and the command line's folders out of the archive (placeholders in their keys). */
  redact?: boolean;
  timers?: Timers;
  /** How the parent keeps the listeners' time (default: SCHED_FIFO where permitted); tests pass their own. */
  priority?: () => ParentPriority;
  cpuSampler?: CpuSampler;
  swapPages?: () => number | null;
  memAvailableBytes?: () => number | null;
  now?: () => Date;
}

export interface CapacityResult {
  archive: CapacityArchive;
  path: string;
}
