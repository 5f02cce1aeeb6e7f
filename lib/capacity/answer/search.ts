/**
 * Where a layout stops serving, for both answers: (a) the most listeners with no gap, (b) the most
 * with no gap and every first audio within the bound. Start from the prediction, then step and
 * bisect rather than try every K. A K holds only if every counted trial of it held and no smaller K
 * tried failed; later rounds run the edges again until each has its quota of trials.
 */
import type { TrialPurpose } from '../trial/record.js';

export interface KOutcome {
  /** true: a whole trial with no gap; false: a gap (or a K given up on); null: not run to the end. */
  gapFree: boolean | null;
  inBound: boolean;
}

export interface Step {
  k: number;
  purpose: TrialPurpose;
}

export interface SearchOptions {
  /** K predicted for (a) and for (b). */
  predicted: number;
  predictedInBound: number;
  /** The most listeners to try (--max-streams, or what memory holds). */
  cap: number;
  /** The first sentence alone already takes longer than the bound: (b) is 0 without a trial. */
  inBoundImpossible: boolean;
}

export class CapacitySearch {
  /** Per K, each counted trial's outcome and its round (a round's trials share workers: they count once for a quota). */
  private readonly trials = new Map<number, Array<KOutcome & { round?: number }>>();
  private downSteps = { a: 0, b: 0 };
  readonly predicted: number;
  readonly predictedInBound: number;
  readonly cap: number;
  readonly inBoundImpossible: boolean;

  constructor(o: SearchOptions) {
    this.cap = o.cap;
    this.predicted = Math.min(o.cap, Math.max(1, o.predicted));
    this.predictedInBound = Math.min(o.cap, Math.max(1, o.predictedInBound));
    this.inBoundImpossible = o.inBoundImpossible;
  }

  /**
   * A new round's turn: its first step down from a K that failed is again one below it. A later round finds the edge
   * moved by one far more often than by half (the machine slowed a little): halving from the first failure there
   * re-searched from K/2 up, five trials where one did.
   */
  newRound(): void {
    this.downSteps = { a: 0, b: 0 };
  }

  record(k: number, outcome: KOutcome, round?: number): void {
    this.trials.set(k, [...(this.trials.get(k) ?? []), round === undefined ? outcome : { ...outcome, round }]);
  }

  /** Rounds with a counted trial at K (of one purpose, or all); a trial recorded without its round counts alone. */
  count(k: number, purpose?: TrialPurpose): number {
    const of = (this.trials.get(k) ?? []).filter(
      (o) => purpose === undefined || (purpose === 'sans_trou' ? o.gapFree !== null : true),
    );
    return new Set(of.map((o, i) => o.round ?? `trial ${i}`)).size;
  }

  /** Whole trials at K or above with no gap: what shows K holds (a heavier load served shows a lighter one). */
  support(k: number): number {
    return [...this.trials]
      .filter(([x]) => x >= k)
      .reduce((n, [, outcomes]) => n + outcomes.filter((o) => o.gapFree === true).length, 0);
  }

  private scan(ok: (o: KOutcome) => boolean | null): { lo: number; hi: number | undefined } {
    let lo = 0;
    for (const k of [...this.trials.keys()].sort((a, b) => a - b)) {
      const seen = (this.trials.get(k) ?? []).map(ok).filter((x): x is boolean => x !== null);
      if (seen.length === 0) continue;
      if (seen.every(Boolean)) lo = k;
      else return { lo, hi: k };
    }
    return { lo, hi: undefined };
  }

  /** (a): the largest K whose whole trials all had no gap, none failing at or below it; 0 if none. */
  held(): number {
    return this.scan((o) => o.gapFree).lo;
  }

  /** The smallest K with a gap (or given up); undefined when none. */
  failedAbove(): number | undefined {
    return this.scan((o) => o.gapFree).hi;
  }

  /** (b), never above (a). */
  heldInBound(): number {
    if (this.inBoundImpossible) return 0;
    return Math.min(this.held(), this.scan((o) => o.inBound).lo);
  }

  private failedInBoundAbove(): number | undefined {
    const hi = this.scan((o) => o.inBound).hi;
    const a = this.failedAbove();
    return hi === undefined ? a : a === undefined ? hi : Math.min(hi, a);
  }

  /** The next K of a search between lo (held) and hi (failed), or undefined when they touch. */
  private between(lo: number, hi: number | undefined, start: number, which: 'a' | 'b'): number | undefined {
    if (hi === undefined) {
      if (lo >= this.cap) return undefined;
      if (lo === 0) return Math.min(this.cap, start);
      // The prediction held: one more, then half as many again each step.
      return Math.min(this.cap, lo === start ? lo + 1 : lo + Math.ceil(lo / 2));
    }
    if (hi - lo <= 1) return undefined;
    if (lo === 0 && start < hi && !this.trials.has(start)) return start;
    if (lo === 0) {
      // Often the prediction is off by one: step down once, then halve.
      this.downSteps[which] += 1;
      return this.downSteps[which] === 1 ? hi - 1 : Math.max(1, Math.floor(hi / 2));
    }
    return Math.floor((lo + hi) / 2);
  }

  /** The next trial of the search, or undefined when both edges are found (or the cap reached). */
  next(): Step | undefined {
    const a = this.between(this.held(), this.failedAbove(), this.predicted, 'a');
    if (a !== undefined) return { k: a, purpose: 'sans_trou' };
    if (this.inBoundImpossible) return undefined;
    const hi = this.failedInBoundAbove();
    const lo = this.heldInBound();
    const start = Math.min(this.predictedInBound, hi === undefined ? this.cap : hi - 1);
    const b = this.between(lo, hi, Math.max(1, start), 'b');
    return b === undefined ? undefined : { k: b, purpose: 'premier_son' };
  }

  /**
   * The trials the edges still need: (a) and the K above it, whole; (b) and the K above it, for
   * first audio, when (b) differs from (a). `quota(k)` says how many trials a K needs in all.
   */
  missing(quota: (k: number, purpose: TrialPurpose) => number): Step[] {
    const a = this.held();
    const out: Step[] = [];
    const want = (k: number, purpose: TrialPurpose): void => {
      if (k >= 1 && k <= this.cap && this.count(k, purpose) < quota(k, purpose) && !out.some((s) => s.k === k))
        out.push({ k, purpose });
    };
    want(a, 'sans_trou');
    want(a + 1, 'sans_trou');
    if (!this.inBoundImpossible) {
      const b = this.heldInBound();
      if (b < a) {
        want(b, 'premier_son');
        want(b + 1, 'premier_son');
      }
    }
    return out;
  }
}
