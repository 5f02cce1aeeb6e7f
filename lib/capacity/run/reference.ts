/**
 * The run's fixed reference: one layout of the first voice, one K, fresh workers, a whole trial at the start, the
 * middle (after the search's round) and the end of the sweep. Every other trial's K and layout move with the search
 * and its rounds, so the machine's own movement is confounded with them; the reference's is not (answer/drift.ts
 * reads it beside the rest). It is no step of any search: its outcome answers nothing.
 */
import type { TrialRecord } from '../archive/schema.js';
import type { Calibration } from '../setup/calibrate.js';
import type { CapacityPlan } from '../setup/plan.js';
import { poolFor, runOneTrial } from './run-trial.js';
import type { Sweep } from '../answer/sweep-state.js';
import type { SweepContext, TrialBook } from './sweep-context.js';

/** Where in the run a reference trial stands. */
export type ReferenceAt = 'start' | 'middle' | 'end';

/** The round number its record carries: the round it runs before (start, middle) or after (end). */
const roundOf = (at: ReferenceAt, lastRound: number): number => (at === 'start' ? 1 : at === 'middle' ? 2 : lastRound);

/**
 * The reference: the first voice's pool if it has one (its workers start in a second or two), else its one-process
 * layout, else its first; at the K its calibration predicts the layout serves, where the machine is about saturated, so
 * the trial's live speed is the machine's. None when no layout of that voice may run (memory, no cap).
 */
export function referenceOf(sweeps: readonly Sweep[]): { sweep: Sweep; k: number } | undefined {
  const voice = sweeps.find((s) => s.search.cap > 0)?.voice;
  const mine = sweeps.filter((s) => s.voice === voice && s.search.cap > 0);
  const sweep =
    mine.find((s) => typeof s.layout.workers === 'number' && s.layout.workers > 1) ??
    mine.find((s) => s.layout.workers === 1) ??
    mine[0];
  return sweep ? { sweep, k: Math.max(1, Math.min(sweep.search.cap, sweep.search.predicted)) } : undefined;
}

export interface ReferenceRun {
  plan: CapacityPlan;
  ctx: SweepContext;
  calibrations: Map<string, Calibration>;
  book: TrialBook;
  /** The planned rounds' last, for the end's record. */
  lastRound: number;
}

/** One reference trial on workers of its own; its record (if its workers loaded), the pool closed whatever happens. */
export async function runReference(r: ReferenceRun, sweeps: readonly Sweep[], at: ReferenceAt): Promise<TrialRecord[]> {
  const ref = referenceOf(sweeps);
  if (!ref) return [];
  // A sweep of its own, so a worker that fails to load is said without stopping the layout's search.
  const s: Sweep = { ...ref.sweep, givenUp: [], error: undefined };
  const pool = poolFor(r.plan, s, r.ctx);
  const turn = {
    plan: r.plan,
    s,
    round: roundOf(at, r.lastRound),
    ctx: r.ctx,
    c: r.calibrations.get(s.voice) as Calibration,
    book: r.book,
  };
  try {
    const t = await runOneTrial(turn, { k: ref.k, purpose: 'reference' }, 0, pool);
    return t ? [t] : [];
  } finally {
    await pool.close();
  }
}
