/**
 * Which layout serves the most, as the throughput verdict decides it: layouts paired within the
 * rounds both ran, by their live speed S at their own edge (the mean log S of that round's whole
 * trials there), a t interval over those rounds widened over the pairs of the leader (Bonferroni).
 * A best layout is named only when it is ahead of every other; otherwise the ones not told apart.
 */
import { ratioInterval } from '../../measure/stats.js';

export interface LayoutSpeeds {
  layout: string;
  /** Round -> mean log S of the round's whole trials at the layout's edge. */
  byRound: Map<number, number>;
}

export interface LayoutPair {
  a: string;
  b: string;
  /** A over B: the geometric mean ratio over the common rounds, and its family interval. */
  ratio: number | null;
  interval: [number, number] | null;
  rounds: number;
}

export interface BestLayout {
  /** Named only when its S is ahead of every other layout's on the family intervals. */
  best: string | null;
  pairs: LayoutPair[];
  phrase: string;
}

/** Rounds two layouts must share before one is named ahead of the other. */
export const MIN_PAIRED_ROUNDS = 3;

const signedPercent = (ratio: number): string => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(0)}%`;

function pairOf(a: LayoutSpeeds, b: LayoutSpeeds, confidence: number): LayoutPair {
  const logs = [...a.byRound].flatMap(([r, x]) => {
    const y = b.byRound.get(r);
    return y === undefined ? [] : [x - y];
  });
  const ratio = logs.length === 0 ? null : Math.exp(logs.reduce((s, v) => s + v, 0) / logs.length);
  return { a: a.layout, b: b.layout, ratio, interval: ratioInterval(logs, confidence), rounds: logs.length };
}

const mean = (m: Map<number, number>): number => [...m.values()].reduce((s, v) => s + v, 0) / Math.max(1, m.size);

const show = (p: LayoutPair): string =>
  p.ratio === null
    ? `${p.a} and ${p.b}: no common round`
    : `${p.a} ${signedPercent(p.ratio)} ${p.interval ? `[${signedPercent(p.interval[0])}, ${signedPercent(p.interval[1])}]` : '[no interval]'} over ${p.b}`;

/**
 * The layouts a voice's best may be: the one named best, or the leader by S with every layout not told apart from it
 * (an open pair, or one with too few paired rounds), leader first. Planning on the highest of their noisy bounds
 * would pick the luckiest; plan-on.ts takes the least of theirs.
 */
export function contenders(b: BestLayout): string[] {
  if (b.best !== null) return [b.best];
  const leader = b.pairs[0]?.a;
  if (leader === undefined) return [];
  const open = b.pairs.filter((p) => p.rounds < MIN_PAIRED_ROUNDS || p.interval === null || p.interval[0] <= 1);
  return [leader, ...open.map((p) => p.b)];
}

export function bestLayout(layouts: readonly LayoutSpeeds[]): BestLayout {
  const measured = layouts.filter((l) => l.byRound.size > 0).sort((x, y) => mean(y.byRound) - mean(x.byRound));
  const top = measured[0];
  if (!top || measured.length < 2)
    return {
      best: top?.layout ?? null,
      pairs: [],
      phrase: top ? `only ${top.layout} has a live speed` : 'no live speed measured',
    };
  const confidence = 1 - 0.05 / (measured.length - 1);
  const pairs = measured.slice(1).map((l) => pairOf(top, l, confidence));
  const thin = pairs.filter((p) => p.rounds < MIN_PAIRED_ROUNDS);
  const open = pairs.filter((p) => p.rounds >= MIN_PAIRED_ROUNDS && (p.interval === null || p.interval[0] <= 1));
  if (open.length === 0 && thin.length === 0)
    return { best: top.layout, pairs, phrase: `best ${top.layout} by live speed: ${pairs.map(show).join('; ')}` };
  const notCompared = thin.map(
    (p) => `${p.a} and ${p.b} not compared (${p.rounds} paired round(s); ${MIN_PAIRED_ROUNDS} needed)`,
  );
  return {
    best: null,
    pairs,
    phrase: `best not told apart by live speed: ${[...open.map(show), ...notCompared].join('; ')}`,
  };
}
