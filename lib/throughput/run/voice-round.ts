/**
 * One voice's arms in one round. Ratios compare arms of one voice, so they run back to back, and
 * where memory allows their workers are loaded and warmed up together first: each arm's timed
 * passes then follow the previous arm's within seconds, with no process start between them.
 */
import type { ArmRecord } from '../schema.js';
import { ArmSession, type ArmRun, type ArmRunParams } from '../arm/arm.js';
import type { ArmPlan } from './plan.js';
import type { RoundRun } from './rounds.js';
import { guessedStreamBytes } from '../arm/stream-memory.js';

export { guessedStreamBytes };

/** The largest peak any stream of the arm reached in an earlier round; undefined before one ran. */
export function measuredStreamBytes(runs: readonly RoundRun[]): number | undefined {
  const peaks = runs.flatMap((r) => r.run.children.flatMap((c) => c.passes.map((p) => p.peakRssBytes ?? 0)));
  const top = Math.max(0, ...peaks);
  return top > 0 ? top : undefined;
}

/**
 * The rule for loading a voice's arms together: every arm runs as processes (a thread arm owns the
 * one pool of its adapter while open), and all their streams at their expected peak fit in half of
 * MemAvailable (the rest is the machine's and the page cache's). Unknown MemAvailable: one at a time.
 */
export function loadTogether(
  arms: ReadonlyArray<{ condition: Pick<ArmRecord, 'isolation'> & { flux: number }; streamBytes: number }>,
  memAvailableBytes: number | null,
): boolean {
  if (memAvailableBytes === null || arms.length < 2) return false;
  if (arms.some((a) => a.condition.isolation !== 'process')) return false;
  return arms.reduce((sum, a) => sum + a.condition.flux * a.streamBytes, 0) <= memAvailableBytes / 2;
}

export interface VoiceRoundStep {
  arm: ArmPlan;
  /** Its place in the whole round's order, 1-based. */
  position: number;
  /** Its number among the run's arm rounds, for the progress line. */
  index: number;
  params: ArmRunParams;
}

export interface VoiceRoundHooks {
  /** Before an arm's passes and before `before`, where nothing is timed: settle the parent (collect its garbage). */
  quiet?: () => void;
  /** Before an arm's passes: stop here (throw) when interrupted; tell the progress. */
  before: (step: VoiceRoundStep) => void;
  /** After an arm's passes, its run kept (throw to stop the round). */
  after: (step: VoiceRoundStep, run: ArmRun) => Promise<void>;
}

/** The steps in their order; `together` loads and warms up every arm's workers before the first timed pass. */
export async function runVoiceRound(
  steps: readonly VoiceRoundStep[],
  together: boolean,
  hooks: VoiceRoundHooks,
): Promise<void> {
  const sessions = steps.map((s) => new ArmSession(s.params));
  const closed = new Set<ArmSession>();
  try {
    // Untimed, so the arms load and warm up at once: a warm-up needs the session's first run, not an idle machine.
    if (together)
      await Promise.all(
        sessions.map(async (s) => {
          await s.open();
          await s.run(s.warmups);
        }),
      );
    for (const [i, step] of steps.entries()) {
      const session = sessions[i] as ArmSession;
      hooks.quiet?.();
      hooks.before(step);
      if (!together) await session.open();
      await session.run();
      closed.add(session);
      await hooks.after(step, await session.close());
    }
  } finally {
    // Interrupted or failed part-way: the arms still open are reaped, none left behind.
    await Promise.all(sessions.filter((s) => !closed.has(s)).map((s) => s.close()));
  }
}
