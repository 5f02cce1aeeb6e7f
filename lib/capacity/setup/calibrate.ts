/**
 * Before any trial, per voice: one worker alone, one thread, says each sentence's audio and compute
 * time, its speed, its peak RSS and how long a worker takes to load; then, for each other thread
 * count the layouts use, one worker alone says how long the first sentence takes. The queue's
 * deadlines, the arrivals' spacing, the search's starting K, the memory bound and the run's time
 * estimate come from it.
 */
import type { WorkerAdapter } from '../../workers/worker.js';
import type { SessionProfile } from '../../voice/session-profile.js';
import type { VoiceInfo } from '../../voice/load.js';
import type { PreparedText } from '../../voice/text.js';
import { PiperParallelError } from '../../core/errors.js';
import { dedicated, type Layout } from '../trial/layouts.js';
import { ServingPool } from '../worker/pool.js';
import type { Timers } from '../trial/timers.js';
import { runTrial, type TrialResult } from '../trial/trial.js';
import type { Calibration } from '../archive/calibration.js';

export type { Calibration };

/** Where calibration runs: the adapter its one worker starts on, the clock, the run's interruption. */
export interface CalibrationEnv {
  adapter: WorkerAdapter;
  timers: Timers;
  signal?: AbortSignal;
  /** Whose session settings the worker runs. */
  session: SessionProfile;
}

/** One worker alone at `threads`: every sentence, or the first only. */
async function alone(
  voice: VoiceInfo,
  prepared: PreparedText,
  { threads, firstOnly }: { threads: number; firstOnly: boolean },
  { adapter, timers, signal, session }: CalibrationEnv,
): Promise<{ r: TrialResult; loadSeconds: number }> {
  const pool = new ServingPool({
    adapter,
    init: {
      voice: { name: voice.name, onnxPath: voice.onnxPath, config: voice.config },
      threads,
      prepared,
      // Passes over the text (warmup.ts): twice, so every sentence length has come round before a trial.
      warmup: 2,
      passes: 1,
      engine: { kind: 'onnxruntime', scope: 'model', session },
    },
    coreOf: () => undefined,
    loadMs: 180_000,
    graceMs: 2000,
    ...(signal ? { signal } : {}),
  });
  try {
    const t0 = performance.now();
    await pool.resize(1);
    const loadSeconds = (performance.now() - t0) / 1000;
    const r = await runTrial({
      workers: pool,
      offsetsMs: [0],
      policy: 'fifo',
      estimatedAudioSeconds: prepared.sentences.map(() => 1),
      timers,
      timeoutMs: 600_000,
      signal,
      ...(firstOnly ? { stop: { atGap: false, firstAudioMs: Number.POSITIVE_INFINITY } } : {}),
    });
    if (r.state !== 'done' && r.state !== 'stopped')
      throw new PiperParallelError(
        r.state === 'aborted' ? 'ABORTED' : 'WORKER',
        `calibrating ${voice.name} at ${threads} thread(s): ${r.message ?? r.state}`,
      );
    return { r, loadSeconds };
  } finally {
    await pool.close();
  }
}

/** The first sentence alone, to its first audio (a streamed text's first pair). */
const firstJobMs = (r: TrialResult): number => {
  const j = r.jobs.find((x) => x.sentence === 0);
  return j ? (j.pairs?.[0]?.endMs ?? j.endMs) - j.startMs : Number.NaN;
};

export async function calibrate(
  voice: VoiceInfo,
  prepared: PreparedText,
  { threadCounts, memAvailableBytes }: { threadCounts: readonly number[]; memAvailableBytes: number | null },
  env: CalibrationEnv,
): Promise<Calibration> {
  const { r, loadSeconds } = await alone(voice, prepared, { threads: 1, firstOnly: false }, env);
  const jobs = [...r.jobs].sort((a, b) => a.sentence - b.sentence);
  const audioSeconds = jobs.map((j) => j.audioSeconds);
  const computeSeconds = jobs.map((j) => (j.endMs - j.startMs) / 1000);
  const total = computeSeconds.reduce((a, b) => a + b, 0);
  const firstSentenceMs: Record<string, number> = { 1: firstJobMs(r) };
  for (const t of [...new Set(threadCounts)].filter((x) => x !== 1).sort((a, b) => a - b)) {
    firstSentenceMs[t] = firstJobMs((await alone(voice, prepared, { threads: t, firstOnly: true }, env)).r);
  }
  const rss = r.peakRssBytes[0] ?? null;
  return {
    audioSeconds,
    computeSeconds,
    speed: total > 0 ? audioSeconds.reduce((a, b) => a + b, 0) / total : 0,
    firstSentenceMs,
    loadSeconds,
    workerRssBytes: rss,
    memoryWorkers: rss && memAvailableBytes ? Math.floor((0.9 * memAvailableBytes) / rss) : null,
  };
}

export interface Prediction {
  /** (a): the K the CPU should carry with no gap. */
  streams: number;
  /** (b): with every first audio within the bound too. */
  inBound: number;
  /** The first sentence alone already takes longer than the bound at this layout's threads. */
  inBoundImpossible: boolean;
  /** That first sentence, ms (NaN when not measured). */
  firstSentenceMs: number;
}

/**
 * The K a layout should reach, from the speeds alone: the cores it can keep busy times the speed
 * of one thread, with 15% lost to contention; for (b), how many first sentences the busy cores
 * can finish within the bound.
 */
export function predictStreams(l: Layout, c: Calibration, cores: number, firstAudioMs: number): Prediction {
  const one = c.firstSentenceMs[1] ?? Number.NaN;
  const mine = c.firstSentenceMs[l.threads] ?? one;
  // What T threads of one worker are worth in cores, as measured on the first sentence.
  const perWorker = l.threads > 1 && Number.isFinite(mine) && mine > 0 ? Math.min(l.threads, cores, one / mine) : 1;
  // A server is a black box: it may take its connections' sentences one at a time (wyoming-piper's lock); start there.
  const busy = l.isolation === 'server' ? 1 : dedicated(l) ? cores : Math.min((l.workers as number) * perWorker, cores);
  const streams = Math.max(1, Math.floor(0.85 * c.speed * busy));
  const inBoundImpossible = mine > firstAudioMs;
  const workersBusy = l.isolation === 'server' ? 1 : dedicated(l) ? cores : Math.min(l.workers as number, cores);
  const inBound = inBoundImpossible
    ? 0
    : Math.max(1, Math.min(streams, Math.floor((workersBusy * firstAudioMs) / mine)));
  return { streams, inBound, inBoundImpossible, firstSentenceMs: mine };
}
