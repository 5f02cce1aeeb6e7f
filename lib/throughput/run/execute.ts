/** Step 3 of a run: the rounds, each voice's arms back to back in an order that reverses every other round, and when to stop adding rounds. */
import type { PartialLog } from '../../archive/partial.js';
import type { Archive } from '../schema.js';
import { PiperParallelError } from '../../core/errors.js';
import type { CpuSampler } from '../../measure/system-cpu.js';
import { type ArmRunParams, type ArmTimeouts } from '../arm/arm.js';
import { readMemAvailable } from '../../measure/memory.js';
import { conditionLabel } from '../arm/conditions.js';
import { engineSpec } from '../arm/engines.js';
import type { Progress } from './options.js';
import type { ArmPlan, Plan } from './plan.js';
import { runFailed } from '../arm/record.js';
import type { RoundRun } from './rounds.js';
import { passesOfRound, voiceArmOrder, voiceSequence } from '../../core/schedule.js';
import {
  guessedStreamBytes,
  loadTogether,
  measuredStreamBytes,
  runVoiceRound,
  type VoiceRoundStep,
} from './voice-round.js';
import type { PreparedText } from '../../voice/text.js';
import { SequentialRun } from './looks.js';
import type { WorkerAdapter } from '../../workers/worker.js';
import { collectGarbage } from '../../core/collect-garbage.js';

export interface ExecuteContext {
  adapters: { process: WorkerAdapter; thread: WorkerAdapter };
  timeouts: ArmTimeouts;
  sampler: CpuSampler;
  partial: PartialLog;
  signal?: AbortSignal;
  onProgress?: (event: Progress) => void;
  /** When the run began (ms, performance.now), for --max-minutes. */
  startedMs: number;
  /** MemAvailable now, for loading a voice's arms together (default /proc/meminfo; tests inject). */
  memAvailableBytes?: () => number | null;
}

export interface Executed {
  runs: Map<string, RoundRun[]>;
  order: Archive['manches'];
  stop: Archive['arret'];
  /** A sequential run's questions as they closed. */
  sequential?: SequentialRun;
}

const armLabel = (a: ArmPlan): string => `${a.voice.name} ${conditionLabel(a.condition)}`;

/** Arm rounds finished so far (held from a resumed run included). */
const finishedRounds = (runs: Map<string, RoundRun[]>): number => [...runs.values()].reduce((n, r) => n + r.length, 0);

function interrupted(ctx: ExecuteContext, runs: Map<string, RoundRun[]>, where: string): PiperParallelError {
  return new PiperParallelError(
    'ABORTED',
    `interrupted ${where}; ${finishedRounds(runs)} finished arm round(s) kept in ${ctx.partial.file}; resume with: piper-parallel --resume ${ctx.partial.file}`,
  );
}

/** One round as its steps see it: the plan, the round, every run so far, the context, the arms counted. */
interface RoundState {
  plan: Plan;
  round: number;
  runs: Map<string, RoundRun[]>;
  ctx: ExecuteContext;
  count: { index: number; total: number };
  seq: SequentialRun | undefined;
}

/** What an arm runs in one round: its workers, its passes, the run's timeouts and hooks. */
function armParams(state: RoundState, arm: ArmPlan): ArmRunParams {
  const { plan, round, ctx, count } = state;
  // Fixed now: the arm's place in the run; the total may still grow (more rounds).
  const index = count.index;
  const total = (): number => count.total;
  return {
    adapter: arm.condition.isolation === 'thread' ? ctx.adapters.thread : ctx.adapters.process,
    streams: arm.condition.flux,
    // Round-robin above the core count: oversubscribed, still one core per stream.
    cores: Array.from({ length: arm.condition.flux }, (_, rang) =>
      arm.condition.affinite ? plan.cores[rang % plan.cores.length] : undefined,
    ),
    init: {
      voice: { name: arm.voice.name, onnxPath: arm.voice.onnxPath, config: arm.voice.config },
      threads: arm.condition.fils,
      prepared: plan.prepared.get(arm.voice.name) as PreparedText,
      warmup: plan.warmup,
      passes: plan.looks ? 1 : passesOfRound(plan.passes, plan.rounds, round),
      engine: engineSpec(arm.condition, arm.voice.name, plan.engines),
    },
    timeouts: ctx.timeouts,
    signal: ctx.signal,
    onPass: (pass, passes) => ctx.onProgress?.({ kind: 'pass', index, total: total(), pass, passes }),
    cpuSampler: ctx.sampler,
  };
}

/** The arms of one voice still to run in this round (not held from a resumed run, not failed before), in order. */
function voiceSteps(state: RoundState, voice: number, position: { next: number }, ran: string[]): VoiceRoundStep[] {
  const { plan, round, runs, count } = state;
  const arms = plan.arms.filter((a) => a.voice.name === plan.voices[voice]?.name);
  const steps: VoiceRoundStep[] = [];
  for (const i of voiceArmOrder(arms.length, plan.seed, round, voice)) {
    const arm = arms[i] as ArmPlan;
    const mine = runs.get(arm.key) ?? [];
    position.next += 1;
    // A sequential run stops an arm once no open question needs it.
    if (state.seq && !state.seq.runs(arm, round)) continue;
    if (mine.some((r) => r.round === round)) {
      ran.push(armLabel(arm));
      continue;
    }
    // An arm that failed is not run again: its figures are incomplete whatever follows.
    if (mine.some((r) => runFailed(r.run))) continue;
    count.index += 1;
    steps.push({
      arm,
      position: position.next,
      index: count.index,
      params: armParams(state, arm),
    });
  }
  return steps;
}

/** One round: voice by voice, each voice's arms back to back, loaded together where memory allows. */
async function runRound(state: RoundState): Promise<string[]> {
  const { plan, round, runs, ctx, count } = state;
  const ran: string[] = [];
  const position = { next: 0 };
  for (const voice of voiceSequence(plan.voices.length, round)) {
    const steps = voiceSteps(state, voice, position, ran);
    const streamBytes = (a: ArmPlan): number =>
      measuredStreamBytes(runs.get(a.key) ?? []) ?? guessedStreamBytes(a.voice.sizeBytes);
    const together = loadTogether(
      steps.map((s) => ({ condition: s.arm.condition, streamBytes: streamBytes(s.arm) })),
      (ctx.memAvailableBytes ?? readMemAvailable)(),
    );
    await runVoiceRound(steps, together, {
      quiet: collectGarbage,
      before: ({ arm, index }) => {
        if (ctx.signal?.aborted) throw interrupted(ctx, runs, `before ${armLabel(arm)} in round ${round}`);
        ctx.onProgress?.({
          kind: 'arm-start',
          index,
          total: count.total,
          voice: arm.voice.name,
          condition: arm.condition,
          round,
          rounds: Math.max(plan.rounds, round),
        });
      },
      after: async ({ arm, position: order, index }, run) => {
        // A Ctrl-C reaches the children too; whatever state the arm ended in, it was interrupted.
        if (run.state === 'aborted' || ctx.signal?.aborted)
          throw interrupted(ctx, runs, `during ${armLabel(arm)} in round ${round}`);
        await ctx.partial.append({ key: arm.key, round, order, run });
        runs.set(arm.key, [...(runs.get(arm.key) ?? []), { round, order, run }]);
        ctx.onProgress?.({
          kind: 'round-arm-end',
          index,
          total: count.total,
          voice: arm.voice.name,
          condition: arm.condition,
          round,
          state: run.state,
          ...(run.message ? { message: run.message } : {}),
        });
        ran.push(armLabel(arm));
      },
    });
  }
  return ran;
}

/**
 * What a resumed run keeps: a voice's arms of one round are paired with each other, so they are
 * kept only when that voice's round is whole (every arm ran, or had failed in an earlier round and
 * was not to run). A voice's round cut off part-way is run again whole: pairing its finished arms
 * with arms run hours later would compare two moments, not two layouts.
 */
export function heldFromResume(plan: Pick<Plan, 'arms' | 'resumed'>): Array<RoundRun & { key: string }> {
  const held = [...(plan.resumed?.rounds.values() ?? [])];
  const voices = [...new Set(plan.arms.map((a) => a.voice.name))];
  const rounds = [...new Set(held.map((e) => e.round))];
  const kept: Array<RoundRun & { key: string }> = [];
  for (const round of rounds) {
    for (const voice of voices) {
      const arms = plan.arms.filter((a) => a.voice.name === voice);
      const mine = held.filter((e) => e.round === round && arms.some((a) => a.key === e.key));
      const failedBefore = (key: string): boolean =>
        held.some((e) => e.key === key && e.round < round && runFailed(e.run));
      const whole = arms.every((a) => mine.some((e) => e.key === a.key) || failedBefore(a.key));
      if (whole) kept.push(...mine);
    }
  }
  return kept;
}

/** Every round of a fixed run, or a sequential run's rounds until it stops; with what a resumed run already holds. */
export async function executeRounds(plan: Plan, ctx: ExecuteContext): Promise<Executed> {
  const runs = new Map<string, RoundRun[]>(plan.arms.map((a) => [a.key, []]));
  for (const e of heldFromResume(plan)) runs.get(e.key)?.push({ round: e.round, order: e.order, run: e.run });
  const seq = plan.looks ? new SequentialRun({ ...plan, looks: plan.looks }) : undefined;
  const firstRounds = seq ? (seq.looks[0] ?? plan.rounds) : plan.rounds;
  const count = { index: finishedRounds(runs), total: plan.arms.length * firstRounds };
  const order: Archive['manches'] = [];
  const timing = { ms: 0, armRounds: 0 };
  for (let round = 1; ; round += 1) {
    if (!seq && round > plan.rounds)
      return {
        runs,
        order,
        stop: { raison: 'planned', manches: round - 1, detail: `the ${round - 1} planned round(s) ran` },
      };
    const t0 = performance.now();
    const before = count.index;
    order.push({ manche: round, ordre: await runRound({ plan, round, runs, ctx, count, seq }) });
    timing.ms += performance.now() - t0;
    timing.armRounds += count.index - before;
    if (!seq) continue;
    const outcome = seq.after(round, runs, {
      elapsedMs: performance.now() - ctx.startedMs,
      msPerArmRound: timing.ms / Math.max(1, timing.armRounds),
      budgetMs: (plan.maxMinutes ?? Infinity) * 60_000,
    });
    const j = seq.looks.indexOf(round);
    if (j >= 0 || outcome.stop)
      ctx.onProgress?.({
        kind: 'look',
        look: j + 1,
        looks: seq.looks.length,
        round,
        open: outcome.open,
        stop: outcome.stop?.detail,
      });
    if (outcome.stop) return { runs, order, stop: outcome.stop, sequential: seq };
    const nextLook = seq.looks.find((n) => n > round) ?? round + 1;
    count.total = count.index + plan.arms.filter((a) => seq.runs(a, round + 1)).length * (nextLook - round);
  }
}
