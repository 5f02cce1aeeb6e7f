/**
 * One capacity trial as the sweep runs it, on the pool of its layout's turn (fresh each round, grown
 * to the trial's K), the machine read around it, its record appended to the partial file at once;
 * a trial that leaves workers busy or in doubt has the whole pool reaped. A resumed run takes a
 * trial it already holds instead of running it.
 */
import { PiperParallelError } from '../../core/errors.js';
import { readSwapPages } from '../../measure/memory.js';
import { arrivalOffsetsMs } from '../trial/arrivals.js';
import { dedicated, workersAt } from '../trial/layouts.js';
import type { CapacityPlan } from '../setup/plan.js';
import { ServingPool } from '../worker/pool.js';
import { trialRecord } from '../trial/record.js';
import type { TrialRecord } from '../archive/schema.js';
import type { Step } from '../answer/search.js';
import type { Sweep } from '../answer/sweep-state.js';
import type { SweepContext, Turn } from './sweep-context.js';
import { isReal } from '../trial/timers.js';
import { runTrial, type TrialResult } from '../trial/trial.js';

const defaultOwnCpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Other programs' load is read over at least this long: over a trial of a few ms, one tick is 10%. */
const MIN_LOAD_WINDOW_MS = 1000;

export const trialKey = (voice: string, layout: string, step: Step, round: number, n: number): string =>
  `${voice}|${layout}|K${step.k}|${step.purpose}|R${round}|${n}`;

/** A layout's workers for one turn of a round: started afresh, kept between its trials while they are idle. */
export function poolFor(plan: CapacityPlan, s: Sweep, ctx: SweepContext): ServingPool {
  const v = plan.voices.find((x) => x.name === s.voice);
  const prepared = plan.prepared.get(s.voice);
  if (!v || !prepared) throw new PiperParallelError('USAGE', `no voice ${s.voice} in the plan`);
  const adapter =
    s.layout.isolation === 'server'
      ? ctx.adapters.server
      : s.layout.isolation === 'thread'
        ? ctx.adapters.thread
        : ctx.adapters.process;
  if (!adapter) throw new PiperParallelError('USAGE', `no adapter for ${s.name}: give --server`);
  return new ServingPool({
    adapter,
    init: {
      voice: { name: v.name, onnxPath: v.onnxPath, config: v.config },
      threads: s.layout.threads,
      prepared,
      // Passes over the text (warmup.ts): twice, so every sentence length has come round before a trial.
      warmup: 2,
      passes: 1,
      engine: { kind: 'onnxruntime', scope: 'model', session: plan.session },
    },
    coreOf: (i) => (s.layout.pinned ? plan.cores[i % plan.cores.length] : undefined),
    loadMs: 180_000,
    graceMs: 2000,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
}

const interrupted = (what: string, ctx: SweepContext): PiperParallelError =>
  new PiperParallelError(
    'ABORTED',
    `interrupted ${what}; finished trials kept in ${ctx.partial.file}; resume with: piper-parallel capacity --resume ${ctx.partial.file}`,
  );

/** This trial's key, counted in the book so that a resumed run finds the same one. */
function nextKey(turn: Turn, step: Step): string {
  const { s, round, book } = turn;
  const base = trialKey(s.voice, s.name, step, round, 0);
  const n = book.byStep.get(base) ?? 0;
  book.byStep.set(base, n + 1);
  return trialKey(s.voice, s.name, step, round, n);
}

interface Measuring {
  turn: Turn;
  step: Step;
  retry: number;
  pool: ServingPool;
  workers: number;
}

/** The trial on the pool's first workers, the machine read around it (swap, CPU, the client's own CPU), as its record. */
async function measureTrial({
  turn,
  step,
  retry,
  pool,
  workers,
}: Measuring): Promise<{ result: TrialResult; record: TrialRecord }> {
  const { plan, s, round, ctx, c } = turn;
  const swapped = ctx.swapPages ?? (() => readSwapPages());
  const swap0 = swapped();
  const before = ctx.sampler.snapshot(pool.pids());
  const ownCpuMs = ctx.ownCpuMs ?? defaultOwnCpuMs;
  const own0 = { cpuMs: ownCpuMs(), atMs: ctx.timers.now() };
  const meanSentenceMs = (1000 * c.audioSeconds.reduce((a, b) => a + b, 0)) / c.audioSeconds.length;
  const work = c.computeSeconds.reduce((a, b) => a + b, 0) * step.k;
  const result = await runTrial({
    workers: pool.first(workers),
    dedicated: dedicated(s.layout),
    offsetsMs: arrivalOffsetsMs(plan.arrivals, step.k, meanSentenceMs, plan.seed + round),
    policy: plan.schedule,
    estimatedAudioSeconds: c.audioSeconds,
    timers: ctx.timers,
    timeoutMs: Math.max(120_000, 20_000 * work),
    signal: ctx.signal,
    // A whole trial runs to its planned end, gaps and all: its live speed and every pre-buffer's replay need every sentence.
    stop: step.purpose === 'premier_son' ? { atGap: true, firstAudioMs: plan.firstAudioMs } : { atGap: false },
  });
  const waitMs = before.atMs + MIN_LOAD_WINDOW_MS - performance.now();
  if (waitMs > 0 && isReal(ctx.timers)) await new Promise((r) => setTimeout(r, waitMs));
  const after = ctx.sampler.snapshot(pool.pids());
  const swap1 = swapped();
  const wallMs = ctx.timers.now() - own0.atMs;
  const clientCores = wallMs > 0 ? (ownCpuMs() - own0.cpuMs) / wallMs : null;
  const record = trialRecord(result, {
    voice: s.voice,
    layout: s.name,
    k: step.k,
    workers,
    round,
    purpose: step.purpose,
    retry,
    firstAudioLimitMs: plan.firstAudioMs,
    cores: plan.cores.length,
    cpu: { before, after },
    swapPages: swap0 === null || swap1 === null ? null : swap1 - swap0,
    ...(s.layout.isolation === 'server' ? { server: { clientCores } } : {}),
  });
  return { result, record };
}

/** The trial on the turn's pool; undefined when its workers could not be loaded (the sweep's error says why). */
export async function runOneTrial(
  turn: Turn,
  step: Step,
  retry: number,
  pool: ServingPool,
): Promise<TrialRecord | undefined> {
  const { s, round, ctx, book } = turn;
  const key = nextKey(turn, step);
  const kept = ctx.held.get(key);
  if (kept) return kept;
  if (ctx.signal?.aborted) throw interrupted(`before ${s.voice} ${s.name} K=${step.k}`, ctx);
  book.index += 1;
  const index = book.index;
  ctx.onProgress?.({
    kind: 'trial-start',
    voice: s.voice,
    layout: s.name,
    k: step.k,
    round,
    index,
    purpose: step.purpose,
  });
  const workers = workersAt(s.layout, step.k);
  let clean = false;
  try {
    try {
      await pool.atLeast(workers);
    } catch (err) {
      if (err instanceof PiperParallelError && err.code === 'ABORTED')
        throw interrupted(`while ${s.voice} ${s.name} loaded for K=${step.k}`, ctx);
      s.error = `K=${step.k}: ${(err as Error).message}`;
      return undefined;
    }
    const { result, record } = await measureTrial({ turn, step, retry, pool, workers });
    if (result.state === 'aborted') throw interrupted(`during ${s.voice} ${s.name} K=${step.k}`, ctx);
    await ctx.partial.append({ key, round, order: index, run: record });
    ctx.onProgress?.({ kind: 'trial-end', trial: record, index });
    clean = result.pending === 0 && (result.state === 'done' || result.state === 'stopped');
    return record;
  } finally {
    // Workers still busy with this trial's sentences (or in an unknown state) are reaped: nothing of theirs reaches another trial.
    if (!clean) await pool.close();
  }
}
