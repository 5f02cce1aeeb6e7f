/**
 * Before any trial, per voice: one worker alone, one thread, says each sentence's audio and compute
 * time, its speed, and its peak RSS. The queue's deadlines, the arrivals' spacing, the search's
 * starting K and the memory bound come from it.
 */
import type { WorkerAdapter } from '../run/worker.js';
import type { VoiceInfo } from '../voice/load.js';
import type { PreparedText } from '../voice/text.js';
import type { Layout } from './layouts.js';
import { ServingPool } from './pool.js';
import type { Timers } from './timers.js';
import { runTrial } from './trial.js';
import { PiperParallelError } from '../errors.js';

export interface Calibration {
  audioSeconds: number[];
  computeSeconds: number[];
  /** Audio seconds per compute second, alone. */
  speed: number;
  workerRssBytes: number | null;
  /** How many such workers MemAvailable holds (90% of it); null when either figure is unknown. */
  memoryWorkers: number | null;
}

export async function calibrate(voice: VoiceInfo, prepared: PreparedText, adapter: WorkerAdapter, timers: Timers, memAvailableBytes: number | null, signal?: AbortSignal): Promise<Calibration> {
  const pool = new ServingPool({ adapter, init: { voice: { name: voice.name, onnxPath: voice.onnxPath, config: voice.config }, threads: 1, prepared, warmup: 1, passes: 1 }, coreOf: () => undefined, loadMs: 180_000, graceMs: 2000 });
  try {
    await pool.resize(1);
    const estimate = prepared.sentences.map(() => 1);
    const r = await runTrial({ workers: pool, offsetsMs: [0], policy: 'fifo', estimatedAudioSeconds: estimate, timers, timeoutMs: 600_000, signal });
    if (r.state !== 'done') throw new PiperParallelError(r.state === 'aborted' ? 'ABORTED' : 'WORKER', `calibrating ${voice.name}: ${r.message ?? r.state}`);
    const jobs = [...r.jobs].sort((a, b) => a.sentence - b.sentence);
    const audioSeconds = jobs.map((j) => j.audioSeconds);
    const computeSeconds = jobs.map((j) => (j.endMs - j.startMs) / 1000);
    const total = computeSeconds.reduce((a, b) => a + b, 0);
    const rss = r.peakRssBytes[0] ?? null;
    return {
      audioSeconds,
      computeSeconds,
      speed: total > 0 ? audioSeconds.reduce((a, b) => a + b, 0) / total : 0,
      workerRssBytes: rss,
      memoryWorkers: rss && memAvailableBytes ? Math.floor((0.9 * memAvailableBytes) / rss) : null,
    };
  } finally {
    await pool.close();
  }
}

/**
 * The K a layout should reach, from the speed alone: the cores it can keep busy times that speed,
 * with 15% lost to contention (a multi-threaded worker scaling at 70% per added thread); 1 when
 * the first sentence alone already takes longer than the first-audio bound.
 */
export function predictStreams(l: Layout, c: Calibration, cores: number, firstAudioMs: number): number {
  const perWorker = l.threads > 1 ? 1 + 0.7 * (Math.min(l.threads, cores) - 1) : 1;
  // A first sentence that alone takes longer than the bound fails at K = 1: start there.
  if (((c.computeSeconds[0] ?? 0) * 1000) / perWorker > firstAudioMs) return 1;
  const busy = l.workers === 'K' ? cores : Math.min(l.workers * perWorker, cores);
  return Math.max(1, Math.floor(0.85 * c.speed * busy));
}
