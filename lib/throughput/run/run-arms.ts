/** A throughput run, in four named steps: plan, schedule (inside execute, by round), execute, publish. */
import path from 'node:path';
import { PartialLog } from '../../archive/partial.js';
import { settle } from '../../measure/settle.js';
import { procCpuSampler } from '../../measure/system-cpu.js';
import { ProcessAdapter, ThreadAdapter } from '../worker/adapters.js';
import { DEFAULT_TIMEOUTS } from '../arm/arm.js';
import { executeRounds, heldFromResume } from './execute.js';
import type { RunArmsOptions, RunResult } from './options.js';
import { planRun, type Plan } from './plan.js';
import { archiveVoices, publishRun } from './publish.js';

export { defaultVoices } from './plan.js';
export type { Progress, RunArmsOptions, RunResult } from './options.js';

/**
 * Run every arm (voice x condition) in rounds, archive the result, never overwrite an earlier
 * archive. Throws PiperParallelError on bad input (before any measurement) and on interruption (the
 * partial file keeps every finished arm round). Never calls process.exit.
 */
export async function runArms(options: RunArmsOptions = {}): Promise<RunResult> {
  const startedMs = performance.now();
  const plan = await planRun(options);
  options.onProgress?.({
    kind: 'voices',
    voices: plan.voices.map((v) => ({
      name: v.name,
      synthetic: v.synthetic,
      standsInFor: v.standsInFor,
      from: v.from,
      dir: path.dirname(v.onnxPath),
    })),
  });
  // Only what the resumed run keeps counts as held: a voice's round cut off part-way is written again.
  plan.partialLog?.hold(heldFromResume(plan).map((e) => `${e.key}#${e.round}`));
  const partial = plan.partialLog ?? (await PartialLog.create(plan.outDir, plan.header.base, plan.header));
  // A run that ends in an error or an interruption keeps its partial file for --resume, and lets its lock go:
  // a script that catches the error may resume in the same process.
  return measureAndPublish(plan, partial, options, startedMs).catch((err: unknown) => {
    partial.unlock();
    throw err;
  });
}

/** Settle, execute the rounds, publish. */
async function measureAndPublish(
  plan: Plan,
  partial: PartialLog,
  options: RunArmsOptions,
  startedMs: number,
): Promise<RunResult> {
  const sampler = options.cpuSampler ?? procCpuSampler(plan.cores);
  if (plan.settleSeconds > 0)
    plan.machine.attente = await settle(plan.settleSeconds, plan.cores.length, { sampler, signal: options.signal });
  options.onProgress?.({
    kind: 'start',
    header: {
      protocole: plan.protocole,
      coeurs: plan.cores.length,
      machine_detail: plan.machine,
      voix: archiveVoices(plan),
    },
  });
  const executed = await executeRounds(plan, {
    adapters: {
      process: options.adapters?.process ?? new ProcessAdapter(),
      thread: options.adapters?.thread ?? new ThreadAdapter(),
    },
    timeouts: { ...DEFAULT_TIMEOUTS, ...options.timeouts },
    sampler,
    partial,
    signal: options.signal,
    onProgress: options.onProgress,
    startedMs,
  });
  return publishRun(plan, executed, partial, {
    files: options.adapters?.files,
    onProgress: options.onProgress,
    // Asked now or by the interrupted run: its partial header keeps it, so --resume alone redacts.
    redact: plan.header.redact === true,
  });
}
