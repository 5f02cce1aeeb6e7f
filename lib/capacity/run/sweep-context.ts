/** What every trial of a sweep shares: adapters, clock, CPU sampler, the partial file, progress. */
import type { PartialLog } from '../../archive/partial.js';
import type { CpuSampler } from '../../measure/system-cpu.js';
import type { WorkerAdapter } from '../../workers/worker.js';
import type { CapacityProgress } from '../setup/options.js';
import type { TrialRecord } from '../archive/schema.js';
import type { Timers } from '../trial/timers.js';
import type { Sweep } from '../answer/sweep-state.js';
import type { Calibration } from '../archive/calibration.js';
import type { CapacityPlan } from '../setup/plan.js';

export interface SweepContext {
  /** When the run began (ms on `timers`), for --max-minutes. */
  startedMs?: number;
  adapters: { process: WorkerAdapter; thread: WorkerAdapter; server?: WorkerAdapter };
  /** CPU the measuring process has used so far, ms (default: process.cpuUsage()); read around a server's trials. */
  ownCpuMs?: () => number;
  timers: Timers;
  sampler: CpuSampler;
  swapPages?: () => number | null;
  partial: PartialLog;
  /** Trials a resumed run already holds, by key. */
  held: Map<string, TrialRecord>;
  signal?: AbortSignal;
  onProgress?: (e: CapacityProgress) => void;
}

/** Trials so far: how many of each (voice, layout, K, purpose, round), so keys stay the same on a resume, and in all. */
export interface TrialBook {
  byStep: Map<string, number>;
  index: number;
}

/** One layout's turn in one round: what each of its trials is run with. */
export interface Turn {
  plan: CapacityPlan;
  s: Sweep;
  round: number;
  ctx: SweepContext;
  c: Calibration;
  book: TrialBook;
}
