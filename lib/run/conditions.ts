import type { Condition } from '../archive/schema.js';
import { PiperParallelError } from '../errors.js';

export type AffinityChoice = 'on' | 'off' | 'both';
export type IsolationChoice = 'process' | 'thread' | 'both';

/** The original three conditions plus one process with two threads: both halves of the question. */
export const DEFAULT_CONDITIONS: readonly Omit<Condition, 'isolation'>[] = [
  { flux: 1, fils: 1, affinite: false },
  { flux: 2, fils: 1, affinite: false },
  { flux: 2, fils: 1, affinite: true },
  { flux: 1, fils: 2, affinite: false },
];

export interface ConditionChoice {
  streams?: number[];
  threads?: number[];
  affinity?: AffinityChoice;
  isolation?: IsolationChoice;
}

function checkCounts(values: number[] | undefined, option: string): void {
  for (const v of values ?? []) {
    if (!Number.isInteger(v) || v < 1) throw new PiperParallelError('USAGE', `${option} takes whole numbers >= 1, got ${v}; e.g. ${option} 1,2`);
  }
}

/** The default set, or every combination of what was chosen. */
export function expandConditions(choice: ConditionChoice): Condition[] {
  checkCounts(choice.streams, '--streams');
  checkCounts(choice.threads, '--threads');
  const isolations: Condition['isolation'][] = choice.isolation === 'both' ? ['process', 'thread'] : [choice.isolation ?? 'process'];
  if (choice.streams === undefined && choice.threads === undefined && choice.affinity === undefined) {
    return isolations.flatMap((isolation) => DEFAULT_CONDITIONS.map((c) => ({ ...c, isolation })));
  }
  const affinities = choice.affinity === 'both' ? [false, true] : [choice.affinity === 'on'];
  const out: Condition[] = [];
  for (const isolation of isolations) {
    for (const flux of choice.streams ?? [1, 2]) {
      for (const fils of choice.threads ?? [1]) {
        for (const affinite of affinities) out.push({ flux, fils, affinite, isolation });
      }
    }
  }
  return out;
}

export function conditionLabel(c: Condition): string {
  return `K=${c.flux} T=${c.fils} ${c.affinite ? 'pinned' : 'free'}${c.isolation === 'thread' ? ' threads' : ''}`;
}
