/**
 * The decision a run's terminal ends with: one line per voice and stream count, each question's
 * answer on its family interval (the one its sentence quotes), in as few words as it can take.
 */
import { signedPercent } from './labels.js';
import { nonInferior, type Pair } from './pair.js';
import { pinningSay } from '../sequential/pinning.js';

/** The block says once that one worker serves the K in turn; its lines name the layout alone. */
export const bare = (layout: string): string => layout.replace(/, serving the \d+ one after another$/, '');

/** A ratio and its interval turned round so that the layout ahead is named first. */
function ahead(p: Pair): { first: string; second: string; ratio: number; ic: [number, number] | null } {
  const ic = p.famille?.ic ?? p.rapport_ic95;
  const ratio = p.rapport ?? 1;
  if (ratio >= 1) return { first: bare(p.a), second: bare(p.b), ratio, ic };
  return { first: bare(p.b), second: bare(p.a), ratio: 1 / ratio, ic: ic ? [1 / ic[1], 1 / ic[0]] : null };
}

const interval = (ic: [number, number] | null): string =>
  ic ? `[${signedPercent(ic[0])}, ${signedPercent(ic[1])}]` : '[no interval]';

/** One question's answer: a winner, no difference beyond the margin, or not resolved. */
export function pairAnswer(p: Pair, marginPct: number): string {
  if (p.rapport === null) return `${p.a} against ${p.b}: no common round`;
  const f = p.famille;
  const resolved = f ? f.tranche : p.tranche;
  const equivalent = f ? f.equivalent : (p.equivalent ?? false);
  const { first, second, ratio, ic } = ahead(p);
  const figure = `${signedPercent(ratio)} ${interval(ic)}`;
  if (resolved) return `run ${first}: ${figure} over ${second}`;
  if (equivalent) return `${first} or ${second}: no difference larger than ${marginPct}% (${figure})`;
  const protects = nonInferior(f ? f.ic : p.rapport_ic95, marginPct);
  if (protects) {
    const [kept, other] = protects === 'a' ? [p.a, p.b] : [p.b, p.a];
    return `${bare(kept)} not slower than ${bare(other)} by more than ${marginPct}% (${first} ${figure} over ${second})`;
  }
  return `${first} against ${second}: ${figure}, not resolved`;
}

/**
 * The best layout's line: named only where it is resolved above every other layout (`rivals`, the
 * pairs of it it is not resolved above, is empty); otherwise the layouts not told apart from it.
 */
export function bestAnswer(top: Pair, marginPct: number, rivals?: readonly Pair[]): string {
  const { first, second, ratio, ic } = ahead(top);
  // Without the other pairs, the top pair alone decides.
  rivals ??= (top.famille ? top.famille.tranche : top.tranche) ? [] : [top];
  if (rivals.length === 0) return `best ${first}: ${signedPercent(ratio)} ${interval(ic)} over the next, ${second}`;
  const closest = rivals[0] as Pair;
  const near = ahead(closest);
  const equivalent = closest.famille ? closest.famille.equivalent : (closest.equivalent ?? false);
  const names = [bare(closest.a), ...rivals.map((p) => bare(p.b))];
  const listed = `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  const figure = `${signedPercent(near.ratio)} ${interval(near.ic)}`;
  const over = rivals.length > 1 || closest !== top ? `${near.first} over ${near.second}: ` : '';
  return (
    `best not told apart: ${listed} ` +
    (equivalent ? `(${over}no difference larger than ${marginPct}%: ${figure})` : `(${over}${figure}, not resolved)`)
  );
}

const span = (ic: [number, number] | null): string =>
  ic ? `${signedPercent(ic[0])} to ${signedPercent(ic[1])}` : 'no interval';

export interface DecisionInput {
  question: Pair | undefined;
  top: Pair | undefined;
  rivals?: Pair[];
  /** A sequential run's questions, set before it ran, in place of `question`; with what each still needs. */
  questions?: Array<{ pair: Pair; more?: string }>;
}

/**
 * The answer in one line a person acts on: the layout to run and how much more speech it gives (the
 * best where resolved above every other, else a resolved question), or "no layout shown better" and
 * what came closest. `used` is the pair it quotes, so the details below it do not quote it again.
 */
export function headline(head: string, d: DecisionInput, marginPct: number): { line: string; used: Pair | undefined } {
  const questions = (d.questions ?? (d.question ? [{ pair: d.question }] : [])).map((q) => q.pair);
  const resolved = (p: Pair): boolean => (p.famille ? p.famille.tranche : p.tranche) && p.rapport !== null;
  const equivalent = (p: Pair): boolean => (p.famille ? p.famille.equivalent : (p.equivalent ?? false));
  const run = (p: Pair): string => {
    const x = ahead(p);
    return `run ${x.first}: ${span(x.ic)} speech over ${x.second}`;
  };
  if (d.top && d.rivals?.length === 0) return { line: `${head}${run(d.top)}`, used: d.top };
  const won = questions.find(resolved);
  const both = won && pinnedAndFree(won, questions, resolved);
  if (both) {
    const x = ahead(both.free);
    const say = pinningSay(both.pinnedOverFree, marginPct);
    const pinning = say.optional
      ? 'pinning optional'
      : `pinned or free (${say.freeSlowerPct === null ? 'not compared' : `free may be up to ${say.freeSlowerPct}% slower`})`;
    return { line: `${head}run ${both.layout}, ${pinning}: ${span(x.ic)} speech over ${x.second}`, used: both.free };
  }
  if (won) return { line: `${head}${run(won)}`, used: won };
  const same = questions.find(equivalent);
  if (same) {
    const x = ahead(same);
    return {
      line: `${head}no layout shown better: ${x.first} or ${x.second}, within ${marginPct}% (${span(x.ic)})`,
      used: same,
    };
  }
  const near = d.top ?? questions[0];
  if (!near) return { line: `${head}nothing to compare`, used: undefined };
  const x = ahead(near);
  return { line: `${head}no layout shown better (closest: ${x.first}, ${span(x.ic)} over ${x.second})`, used: near };
}

/** A layout's name without its pinning: "2 processes x 1 thread, pinned" and "..., free" are one layout. */
const unpinned = (layout: string): string => layout.replace(/, (pinned|free)$/, '');

/**
 * Where the layout that won runs pinned and free, both resolved ahead of the same other layout and not resolved
 * apart: the free one (what runs without pinning, quoted) and pinned over free's interval (null: not compared), from
 * which pinningSay tells whether pinning is optional.
 */
function pinnedAndFree(
  won: Pair,
  questions: readonly Pair[],
  resolved: (p: Pair) => boolean,
): { free: Pair; layout: string; pinnedOverFree: [number, number] | null } | undefined {
  const x = ahead(won);
  const sibling = questions.find((q) => {
    const y = ahead(q);
    return (
      q !== won &&
      resolved(q) &&
      y.second === x.second &&
      y.first !== x.first &&
      unpinned(y.first) === unpinned(x.first)
    );
  });
  if (!sibling) return undefined;
  const names = new Set([x.first, ahead(sibling).first]);
  const between = questions.find((q) => names.has(bare(q.a)) && names.has(bare(q.b)));
  if (between && resolved(between)) return undefined;
  const free = x.first.endsWith(', pinned') ? sibling : won;
  const ic = between ? (between.famille?.ic ?? between.rapport_ic95) : null;
  const pinnedOverFree: [number, number] | null =
    ic && between ? (bare(between.a).endsWith(', pinned') ? ic : [1 / ic[1], 1 / ic[0]]) : null;
  return { free, layout: unpinned(x.first), pinnedOverFree };
}

/**
 * The decision line of one voice and K: the deployment question (K processes against one process
 * with K threads), then the best layout where that is another pair. Undefined when nothing was quoted.
 */
export function decisionLine(head: string, d: DecisionInput, marginPct: number): string | undefined {
  const parts = decisionParts(d, marginPct);
  return parts.length > 0 ? `${head}${parts.join('; ')}` : undefined;
}

/**
 * Each question's answer, then the best layout's: the details under the one-line answer. With `used` (the pair
 * the one line quotes), that pair is left out and the best line names the layouts without a figure it would repeat.
 */
export function decisionParts(d: DecisionInput, marginPct: number, used?: Pair): string[] {
  const { top, rivals } = d;
  const questions = (d.questions ?? (d.question ? [{ pair: d.question }] : [])).filter((q) => q.pair !== used);
  const parts = questions.map((q) => pairAnswer(q.pair, marginPct) + (q.more ?? ''));
  if (used) return [...parts, ...bestDetail(d, marginPct, used)];
  const question = questions.find((q) => q.pair === top)?.pair;
  // The question already quotes the top pair: the best line then only says whether it is best.
  if (top && top === question && rivals)
    parts.push(
      rivals.length === 0
        ? `best ${ahead(top).first}, resolved above every other layout`
        : bestAnswer(top, marginPct, rivals),
    );
  else if (top && !question) parts.push(bestAnswer(top, marginPct, rivals));
  return parts;
}

/** Under a one-line answer, the best layout's line, with a figure only where no line above quoted it. */
function bestDetail(d: DecisionInput, marginPct: number, used: Pair): string[] {
  const { top, rivals } = d;
  if (!top) return [];
  const quoted = (p: Pair | undefined): boolean =>
    p !== undefined &&
    (p === used || (d.questions ?? (d.question ? [{ pair: d.question }] : [])).some((q) => q.pair === p));
  if (rivals && rivals.length === 0)
    return top === used
      ? []
      : quoted(top)
        ? [`best ${ahead(top).first}, resolved above every other layout`]
        : [bestAnswer(top, marginPct, rivals)];
  if (rivals && quoted(rivals[0])) {
    const names = [bare(rivals[0]?.a ?? top.a), ...rivals.map((p) => bare(p.b))];
    return [`best not told apart: ${names.slice(0, -1).join(', ')} and ${names.at(-1)}`];
  }
  return quoted(top) && !rivals ? [] : [bestAnswer(top, marginPct, rivals)];
}

/**
 * The decision block's heading: the conditions its figures hold under (the session profile, the text, a
 * synthetic stand-in said as such), when known, and what its intervals hold, for each voice and over the run.
 */
export function decisionHeading(voices: number, conditions?: string): string {
  const overRun =
    voices > 1
      ? `; over the ${voices} voices of this run, the chance that any claim is false is at most ${5 * voices}%`
      : '';
  return `decision${conditions ? `, ${conditions}` : ''} (each voice's claims hold together at 95%${overRun}):`;
}
