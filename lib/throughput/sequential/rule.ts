/**
 * The questions a default run sets before it measures, and what each look does with them. Set in
 * advance, per voice: each layout of K processes against one process with K threads (the deployment
 * question), and K processes pinned against free. Choosing the pair from the data (the best against
 * the next) would carry a winner's curse; these do not. The run and the simulation that checks its
 * error rates both go through `look` and `finish`.
 */
import { closeUnsettled, judgeLogs, roundsToSettle, type Judged } from './answer.js';

export type QuestionKind = 'deployment' | 'pinning';

/** What the questions need to know of an arm, whatever holds it (a plan's arm, an archived one). */
export interface ArmShape {
  voice: string;
  streams: number;
  threads: number;
  pinned: boolean;
  /** Arms are compared only within one isolation, engine and scope. */
  group: string;
}

export interface Question<T> {
  kind: QuestionKind;
  voice: string;
  k: number;
  /** A over B: K processes over 1 process x K threads; pinned over free. */
  a: T;
  b: T;
  judged?: Judged;
  /** 1-based look at which it closed; undefined while open or when the run ended it. */
  look?: number;
  /** Why it closed: settled, futile (the looks left could not settle it), the run's end, controls. */
  closed?: 'settled' | 'futile' | 'budget' | 'looks' | 'controls';
}

/** The questions of a set of arms, voice by voice. */
export function presetQuestions<T>(arms: readonly T[], shape: (arm: T) => ArmShape): Array<Question<T>> {
  const out: Array<Question<T>> = [];
  const s = arms.map((arm) => ({ arm, ...shape(arm) }));
  for (const p of s) {
    if (p.streams < 2 || p.threads !== 1) continue;
    const same = s.filter((q) => q.voice === p.voice && q.group === p.group);
    const single = same.find((q) => q.streams === 1 && q.threads === p.streams);
    if (single) out.push({ kind: 'deployment', voice: p.voice, k: p.streams, a: p.arm, b: single.arm });
    const free = same.find((q) => q.streams === p.streams && q.threads === 1 && !q.pinned);
    if (p.pinned && free) out.push({ kind: 'pinning', voice: p.voice, k: p.streams, a: p.arm, b: free.arm });
  }
  return out;
}

/** Whether any question of these is still open. */
export const anyOpen = <T>(qs: ReadonlyArray<Question<T>>): boolean => qs.some((q) => q.closed === undefined);

/**
 * One look: each open question judged at the look's level; settled ones close (a winner, no
 * difference beyond the margin, or for pinned against free one not slower than the other by more
 * than it); so do those that
 * even the last look could not settle at the spread seen (stopping without a claim adds no error).
 * `logsOf` returns null when an arm of the question failed its controls.
 */
export function look<T>(
  questions: Array<Question<T>>,
  at: { look: number; lastRounds: number; confidence: (voice: string) => number; marginPct: number },
  logsOf: (q: Question<T>) => number[] | null,
): void {
  for (const q of questions) {
    if (q.closed) continue;
    const logs = logsOf(q);
    const confidence = at.confidence(q.voice);
    if (logs === null) {
      q.closed = 'controls';
      q.look = at.look;
      continue;
    }
    q.judged = judgeLogs(logs, confidence, at.marginPct);
    // Pinned against free, non-inferiority answers ("free is not slower than pinned by more than 6%":
    // no need to pin); the deployment question goes on for the size of the difference.
    const either =
      q.judged.state === 'open' && q.kind === 'pinning'
        ? closeUnsettled(q.judged, logs, confidence, at.marginPct)
        : q.judged;
    if (either.state !== 'open' && either.state !== 'not-resolved') {
      q.judged = either;
      q.closed = 'settled';
      q.look = at.look;
      continue;
    }
    const needed = roundsToSettle(logs, confidence, at.marginPct);
    if (needed !== null && needed > at.lastRounds) {
      q.judged = closeUnsettled(q.judged, logs, confidence, at.marginPct);
      q.closed = 'futile';
      q.look = at.look;
    }
  }
}

/** The run ended (budget or last look): what is still open says what it can. */
export function finish<T>(
  questions: Array<Question<T>>,
  why: 'budget' | 'looks',
  at: { confidence: (voice: string) => number; marginPct: number },
  logsOf: (q: Question<T>) => number[] | null,
): void {
  for (const q of questions) {
    if (q.closed) continue;
    const logs = logsOf(q);
    q.closed = why;
    if (logs === null || !q.judged) continue;
    q.judged = closeUnsettled(q.judged, logs, at.confidence(q.voice), at.marginPct);
  }
}

/** The arms an open question still needs: the others stop running. */
export function neededArms<T>(questions: ReadonlyArray<Question<T>>): Set<T> {
  return new Set(questions.filter((q) => !q.closed).flatMap((q) => [q.a, q.b]));
}
