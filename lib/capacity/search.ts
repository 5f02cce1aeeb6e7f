/**
 * Where a layout stops serving without a gap: start from the prediction, then step and bisect
 * rather than try every K. A K holds only if every trial of it held (later rounds re-test the edge).
 */
export class CapacitySearch {
  private readonly trials = new Map<number, boolean[]>();
  private downSteps = 0;

  /** `cap`: the most listeners to try (--max-streams, or what memory holds). */
  constructor(readonly predicted: number, readonly cap: number) {}

  record(k: number, held: boolean): void {
    this.trials.set(k, [...(this.trials.get(k) ?? []), held]);
  }

  /** The largest K that held in every trial, none failing at or below it; 0 if none. */
  held(): number {
    let best = 0;
    for (const k of [...this.trials.keys()].sort((a, b) => a - b)) {
      if ((this.trials.get(k) ?? []).every(Boolean)) best = k;
      else break;
    }
    return best;
  }

  /** The smallest K above the answer that failed a trial; undefined when none did. */
  failedAbove(): number | undefined {
    const lo = this.held();
    return [...this.trials.entries()].filter(([k, r]) => k > lo && r.some((x) => !x)).map(([k]) => k).sort((a, b) => a - b)[0];
  }

  /** The next K to try in the search, or undefined when the edge is found (or the cap reached). */
  next(): number | undefined {
    if (this.trials.size === 0) return Math.min(this.cap, Math.max(1, this.predicted));
    const lo = this.held();
    const hi = this.failedAbove();
    if (hi === undefined) {
      if (lo >= this.cap) return undefined;
      // The prediction held: one more, then doubling.
      return Math.min(this.cap, lo === this.predicted ? lo + 1 : lo * 2);
    }
    if (hi - lo <= 1) return undefined;
    if (lo === 0) {
      // Often the prediction is off by one: step down once, then halve.
      this.downSteps += 1;
      return this.downSteps === 1 ? hi - 1 : Math.max(1, Math.floor(hi / 2));
    }
    return Math.floor((lo + hi) / 2);
  }

  /** The K to try again in a later round: the answer and the first K above it that failed. */
  edge(): number[] {
    const lo = this.held();
    const hi = this.failedAbove();
    return [...(lo > 0 ? [lo] : []), ...(hi !== undefined ? [hi] : [])];
  }
}
