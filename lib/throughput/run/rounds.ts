import type { ArmRecord, Condition } from '../schema.js';
import type { VoiceInfo } from '../../voice/load.js';
import type { ArmRun, ChildRecord, PassSync } from '../arm/arm.js';
import { armRecord } from '../arm/record.js';

/** One arm's run in one round: the round (1-based), its place in that round's order (1-based). */
export interface RoundRun {
  round: number;
  order: number;
  run: ArmRun;
}

/**
 * The rounds of one arm as one run: passes renumbered one after another and tagged with their
 * round, states combined (the first round that did not finish decides), wall times added.
 */
export function mergeRounds(roundRuns: readonly RoundRun[]): ArmRun {
  const sorted = [...roundRuns].sort((a, b) => a.round - b.round);
  const streams = Math.max(0, ...sorted.map((r) => r.run.children.length));
  const children: ChildRecord[] = [];
  const sync: PassSync[] = [];
  let offset = 0;
  for (const { round, run } of sorted) {
    for (let rang = 0; rang < streams; rang += 1) {
      const c = run.children[rang];
      const merged = (children[rang] ??= { rang, pid: c?.pid, core: c?.core, loaded: c?.loaded, passes: [] });
      merged.loaded ??= c?.loaded;
      for (const p of c?.passes ?? []) merged.passes.push({ ...p, pass: p.pass + offset, round });
    }
    for (const s of run.sync) sync.push({ ...s, pass: s.pass + offset, round });
    offset +=
      1 + Math.max(-1, ...run.sync.map((s) => s.pass), ...run.children.flatMap((c) => c.passes.map((p) => p.pass)));
  }
  const failed = sorted.find((r) => r.run.state !== 'done');
  return {
    state: failed?.run.state ?? 'done',
    message: failed ? `round ${failed.round}: ${failed.run.message ?? 'no reason given'}` : undefined,
    children,
    sync,
    timedCpu: sorted.flatMap((r) => r.run.timedCpu),
    // Unreadable in any round is unknown for the arm; a round from before it was read (a resumed
    // partial file) leaves the arm without the figure, as it was measured then.
    swapPages: sorted.some((r) => r.run.swapPages === undefined)
      ? undefined
      : sorted.some((r) => r.run.swapPages === null)
        ? null
        : sorted.reduce((n, r) => n + (r.run.swapPages ?? 0), 0),
    wallSeconds: sorted.reduce((sum, r) => sum + r.run.wallSeconds, 0),
    rounds: sorted.map((r) => ({
      round: r.round,
      order: r.order,
      state: r.run.state,
      wallSeconds: r.run.wallSeconds,
      seen: r.run.children.map((c) => c.loaded?.cores ?? []),
    })),
  };
}

/** Every arm of the plan that ran, as archived: its rounds merged, its figures and controls. */
export function recordArms(
  arms: ReadonlyArray<{ key: string; voice: VoiceInfo; condition: Condition }>,
  runs: ReadonlyMap<string, RoundRun[]>,
  cores: number[],
): ArmRecord[] {
  return arms.flatMap((a) => {
    const r = runs.get(a.key) ?? [];
    return r.length === 0
      ? []
      : [armRecord(mergeRounds(r), { voice: a.voice, condition: a.condition, allCores: cores })];
  });
}
