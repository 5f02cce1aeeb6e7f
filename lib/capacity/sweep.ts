/**
 * Step 3 of a capacity run: round 1 searches each layout's edge (voices and layouts in a seeded
 * shuffled order, a layout's workers kept between its trials); later rounds test each edge again,
 * in a new order, with fresh workers, and search on where that moved it.
 */
import type { PartialLog } from '../archive/partial.js';
import { PiperParallelError } from '../errors.js';
import type { CpuSampler } from '../measure/system-cpu.js';
import { readSwapPages } from '../measure/memory.js';
import { roundOrder } from '../run/schedule.js';
import type { WorkerAdapter } from '../run/worker.js';
import { arrivalOffsetsMs } from './arrivals.js';
import type { Calibration } from './calibrate.js';
import { predictStreams } from './calibrate.js';
import { layoutName, workersAt, type Layout } from './layouts.js';
import type { CapacityProgress } from './options.js';
import type { CapacityPlan } from './plan.js';
import { ServingPool } from './pool.js';
import { trialRecord } from './record.js';
import type { TrialRecord } from './schema.js';
import { CapacitySearch } from './search.js';
import { realTimers, type Timers } from './timers.js';

const MIN_LOAD_WINDOW_MS = 1000;
import { runTrial } from './trial.js';

export interface SweepContext {
  adapters: { process: WorkerAdapter; thread: WorkerAdapter };
  timers: Timers;
  sampler: CpuSampler;
  swapPages?: () => number | null;
  partial: PartialLog;
  /** Trials a resumed run already holds, by key. */
  held: Map<string, TrialRecord>;
  signal?: AbortSignal;
  onProgress?: (e: CapacityProgress) => void;
}

export interface Sweep {
  voice: string;
  layout: Layout;
  search: CapacitySearch;
  /** The most listeners memory allows for this layout (null: unknown, not bounded). */
  memoryCap: number | null;
  /** Why a trial broke (a worker died, a timeout), ending this layout's sweep. */
  error?: string;
}

export const trialKey = (voice: string, layout: string, k: number, round: number): string => `${voice}|${layout}|K${k}|R${round}`;

/** One search per voice and layout, capped by --max-streams and by memory. */
export function planSweeps(plan: CapacityPlan, calibrations: Map<string, Calibration>): Sweep[] {
  return plan.voices.flatMap((v) => {
    const c = calibrations.get(v.name) as Calibration;
    return plan.layouts.map((layout) => {
      const memoryCap = c.memoryWorkers === null ? null : layout.workers === 'K' ? c.memoryWorkers : c.memoryWorkers >= layout.workers ? plan.maxStreams : 0;
      const cap = Math.min(plan.maxStreams, memoryCap ?? plan.maxStreams);
      return { voice: v.name, layout, search: new CapacitySearch(Math.min(cap, predictStreams(layout, c, plan.cores.length, plan.firstAudioMs)), cap), memoryCap };
    });
  });
}

async function trialAt(plan: CapacityPlan, s: Sweep, pool: ServingPool, k: number, round: number, ctx: SweepContext, calibration: Calibration, count: { index: number }): Promise<TrialRecord> {
  const name = layoutName(s.layout);
  const key = trialKey(s.voice, name, k, round);
  const kept = ctx.held.get(key);
  if (kept) return kept;
  if (ctx.signal?.aborted) throw new PiperParallelError('ABORTED', `interrupted before ${s.voice} ${name} K=${k}; finished trials kept in ${ctx.partial.file}; resume with: piper-parallel capacity --resume ${ctx.partial.file}`);
  count.index += 1;
  ctx.onProgress?.({ kind: 'trial-start', voice: s.voice, layout: name, k, round, index: count.index });
  const workers = workersAt(s.layout, k);
  await pool.resize(workers);
  const swapped = ctx.swapPages ?? (() => readSwapPages());
  const swap0 = swapped();
  const before = ctx.sampler.snapshot(pool.pids());
  const meanSentenceMs = (1000 * calibration.audioSeconds.reduce((a, b) => a + b, 0)) / calibration.audioSeconds.length;
  const work = calibration.computeSeconds.reduce((a, b) => a + b, 0) * k;
  const result = await runTrial({
    workers: pool,
    offsetsMs: arrivalOffsetsMs(plan.arrivals, k, meanSentenceMs, plan.seed + round),
    policy: plan.schedule,
    estimatedAudioSeconds: calibration.audioSeconds,
    timers: ctx.timers,
    timeoutMs: Math.max(120_000, 20_000 * work),
    signal: ctx.signal,
    // Round 1 only searches: a gap answers the question for this K. Later rounds count every gap.
    stopAtFirstGap: round === 1,
  });
  // Other programs' load over at least a second: over a trial of a few ms, one tick is 10%.
  const waitMs = before.atMs + MIN_LOAD_WINDOW_MS - performance.now();
  if (waitMs > 0 && ctx.timers === realTimers) await new Promise((r) => setTimeout(r, waitMs));
  const after = ctx.sampler.snapshot(pool.pids());
  const swap1 = swapped();
  // Workers still busy with this trial's sentences are let go: the next trial starts fresh ones.
  if (result.pending > 0) await pool.close();
  const record = trialRecord(result, { voice: s.voice, layout: name, k, workers, round, firstAudioLimitMs: plan.firstAudioMs, cpu: { before, after }, swapPages: swap0 === null || swap1 === null ? null : swap1 - swap0 });
  if (result.state === 'aborted') throw new PiperParallelError('ABORTED', `interrupted during ${s.voice} ${name} K=${k}; finished trials kept in ${ctx.partial.file}; resume with: piper-parallel capacity --resume ${ctx.partial.file}`);
  await ctx.partial.append({ key, round, order: count.index, run: record });
  ctx.onProgress?.({ kind: 'trial-end', trial: record, index: count.index });
  return record;
}

function poolFor(plan: CapacityPlan, s: Sweep, ctx: SweepContext): ServingPool {
  const v = plan.voices.find((x) => x.name === s.voice);
  if (!v) throw new Error(`no voice ${s.voice}`);
  return new ServingPool({
    adapter: s.layout.isolation === 'thread' ? ctx.adapters.thread : ctx.adapters.process,
    init: { voice: { name: v.name, onnxPath: v.onnxPath, config: v.config }, threads: s.layout.threads, prepared: plan.prepared.get(v.name) as NonNullable<ReturnType<typeof plan.prepared.get>>, warmup: 1, passes: 1 },
    coreOf: (i) => (s.layout.pinned ? plan.cores[i % plan.cores.length] : undefined),
    loadMs: 180_000,
    graceMs: 2000,
  });
}

/** Every round; returns every trial, in the order run (held ones from a resumed run included). */
export async function runSweeps(plan: CapacityPlan, sweeps: Sweep[], calibrations: Map<string, Calibration>, ctx: SweepContext): Promise<TrialRecord[]> {
  const trials: TrialRecord[] = [];
  const count = { index: 0 };
  for (let round = 1; round <= plan.rounds; round += 1) {
    for (const i of roundOrder(sweeps.length, plan.seed, round)) {
      const s = sweeps[i] as Sweep;
      if (s.search.cap === 0 || s.error) continue;
      // Later rounds first test the edge again; where that moves it, the search goes on from there.
      const edge = round === 1 ? [] : s.search.edge();
      const pool = poolFor(plan, s, ctx);
      try {
        for (let k = edge.shift() ?? s.search.next(); k !== undefined; k = edge.shift() ?? s.search.next()) {
          const t = await trialAt(plan, s, pool, k, round, ctx, calibrations.get(s.voice) as Calibration, count);
          trials.push(t);
          // A trial that broke (a worker died, a timeout) ends this layout's sweep: its figures say why.
          if (t.etat === 'failed' || t.etat === 'timed-out') {
            s.error = `K=${k}: ${t.erreur ?? t.etat}`;
            break;
          }
          s.search.record(k, t.tenu);
        }
      } finally {
        await pool.close();
      }
    }
  }
  return trials;
}
