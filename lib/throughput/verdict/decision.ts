/**
 * The decision a run's terminal ends with: one line per voice and stream count, each question's
 * answer on its family interval (the one its sentence quotes), in as few words as it can take.
 */
import { signedPercent } from './labels.js';
import { nonInferior, type Pair } from './pair.js';

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

/**
 * The decision line of one voice and K: the deployment question (K processes against one process
 * with K threads), then the best layout where that is another pair. Undefined when nothing was quoted.
 */
export function decisionLine(
  head: string,
  d: {
    question: Pair | undefined;
    top: Pair | undefined;
    rivals?: Pair[];
    /** A sequential run's questions, set before it ran, in place of `question`; with what each still needs. */
    questions?: Array<{ pair: Pair; more?: string }>;
  },
  marginPct: number,
): string | undefined {
  const { top, rivals } = d;
  const questions = d.questions ?? (d.question ? [{ pair: d.question }] : []);
  const parts = questions.map((q) => pairAnswer(q.pair, marginPct) + (q.more ?? ''));
  const question = questions.find((q) => q.pair === top)?.pair;
  // The question already quotes the top pair: the best line then only says whether it is best.
  if (top && top === question && rivals)
    parts.push(
      rivals.length === 0
        ? `best ${ahead(top).first}, resolved above every other layout`
        : bestAnswer(top, marginPct, rivals),
    );
  else if (top && !question) parts.push(bestAnswer(top, marginPct, rivals));
  return parts.length > 0 ? `${head}${parts.join('; ')}` : undefined;
}

/** The decision block's heading: what its intervals hold, for each voice and over the run. */
export function decisionHeading(voices: number): string {
  const overRun =
    voices > 1
      ? `; over the ${voices} voices of this run, the chance that any claim is false is at most ${5 * voices}%`
      : '';
  return `decision (each voice's claims hold together at 95%${overRun}):`;
}
