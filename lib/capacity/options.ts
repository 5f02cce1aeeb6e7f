import type { ArchiveFiles } from '../archive/writer.js';
import type { CpuSampler } from '../measure/system-cpu.js';
import type { WorkerAdapter } from '../run/worker.js';
import type { ArrivalPattern } from './arrivals.js';
import type { Layout } from './layouts.js';
import type { QueuePolicy } from './queue.js';
import type { CapacityArchive, CapacityEntry, TrialRecord } from './schema.js';
import type { Timers } from './timers.js';

export type CapacityProgress =
  | { kind: 'voices'; voices: Array<{ name: string; synthetic: boolean }> }
  /** Something to know before the trials (e.g. a one-sentence text). */
  | { kind: 'note'; text: string }
  | { kind: 'calibrated'; voice: string; speed: number; sentenceAudioSeconds: number[]; workerRssBytes: number | null; memoryWorkers: number | null }
  | { kind: 'trial-start'; voice: string; layout: string; k: number; round: number; index: number }
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
  /** Round 1 searches; later rounds test the edge again (default 2). */
  rounds?: number;
  seed?: number;
  /** The layouts to sweep (default: defaultLayouts for the usable cores). */
  layouts?: Layout[];
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
  timers?: Timers;
  cpuSampler?: CpuSampler;
  swapPages?: () => number | null;
  memAvailableBytes?: () => number | null;
  now?: () => Date;
}

export interface CapacityResult {
  archive: CapacityArchive;
  path: string;
}
