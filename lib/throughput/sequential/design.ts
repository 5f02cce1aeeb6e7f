/**
 * The sequential design of a default run: it looks at its questions after a few rounds, again every
 * few rounds, at most LOOKS times, and stops when they are answered. Each look judges a question on
 * a repeated confidence interval at one constant level (Pocock's idea): the level at which, with
 * round-to-round noise that is normal, all the looks' intervals hold the true ratio together with
 * the question's share of 95%. That level is found here by seeded simulation (t on the rounds' log
 * ratios, whose distribution does not depend on the noise's size), so any schedule of looks gets
 * its own; looking five times at plain 95% intervals would not hold 95% (test/throughput/sequential).
 */
import { Prng } from '../../core/prng.js';
import { studentQuantile } from '../../measure/student.js';

/** At most this many looks: each costs width, and the budget rarely allows more. */
export const LOOKS = 5;

/** The chance, per voice, that any of its claims is false. */
export const ALPHA_PER_VOICE = 0.05;

/**
 * The rounds after which a run looks, from the number on the command line (`piper-parallel 6`):
 * the first look after two thirds of it (at least 3 rounds, so that a t interval has 2 degrees of
 * freedom), then every third of it: 4, 6, 8, 10 and 12 for 6.
 */
export function lookRounds(passes: number): number[] {
  const first = Math.max(3, Math.ceil((2 * passes) / 3));
  const step = Math.max(1, Math.ceil(passes / 3));
  return Array.from({ length: LOOKS }, (_, i) => first + i * step);
}

/** The level every look uses, and the chance of a false claim spent by each look (cumulative). */
export interface LookLevel {
  confidence: number;
  spentAlpha: number[];
}

/** |t| of each look, for `draws` simulated runs of standard normal round figures. */
function simulatedStatistics(looks: readonly number[], draws: number, seed: number): Float64Array[] {
  const rng = new Prng(seed);
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  const last = looks.at(-1) ?? 0;
  const out: Float64Array[] = [];
  for (let d = 0; d < draws; d += 1) {
    const t = new Float64Array(looks.length);
    let sum = 0;
    let squares = 0;
    let n = 0;
    let j = 0;
    while (n < last) {
      const x = gauss();
      sum += x;
      squares += x * x;
      n += 1;
      if (n === looks[j]) {
        const mean = sum / n;
        const sd = Math.sqrt(Math.max(0, (squares - n * mean * mean) / (n - 1)));
        t[j] = sd > 0 ? Math.abs(mean) / (sd / Math.sqrt(n)) : 0;
        j += 1;
      }
    }
    out.push(t);
  }
  return out;
}

/** Per look, the fraction of runs whose first interval to miss is at that look or before. */
function missRates(stats: readonly Float64Array[], looks: readonly number[], alpha: number): number[] {
  const q = looks.map((n) => studentQuantile(1 - alpha / 2, n - 1));
  const first = new Array<number>(looks.length).fill(0);
  for (const t of stats) {
    const j = q.findIndex((qj, i) => (t[i] ?? 0) > qj);
    if (j >= 0) first[j] = (first[j] ?? 0) + 1;
  }
  let cumulative = 0;
  return first.map((c) => (cumulative += c / stats.length));
}

const cache = new Map<string, LookLevel>();

/**
 * The constant level at which the looks' intervals hold together at 1 - alpha: bisection on the
 * per-look alpha over one seeded set of simulated runs (the miss rate rises with it).
 */
export function lookLevel(looks: readonly number[], alpha: number, draws = 40_000, seed = 20261202): LookLevel {
  const key = `${looks.join(',')}|${alpha}|${draws}|${seed}`;
  const known = cache.get(key);
  if (known) return known;
  const stats = simulatedStatistics(looks, draws, seed);
  let low = alpha / (2 * looks.length);
  let high = alpha;
  for (let i = 0; i < 40; i += 1) {
    const mid = Math.sqrt(low * high);
    if ((missRates(stats, looks, mid).at(-1) ?? 0) > alpha) high = mid;
    else low = mid;
  }
  const level = { confidence: 1 - low, spentAlpha: missRates(stats, looks, low) };
  cache.set(key, level);
  return level;
}

/** The chance that any look's interval at `confidence` misses, over `draws` runs of another seed: a check of the level. */
export function missRate(looks: readonly number[], confidence: number, draws: number, seed: number): number {
  return missRates(simulatedStatistics(looks, draws, seed), looks, 1 - confidence).at(-1) ?? 0;
}

/** A voice's questions share its 5%: each at 5% / their number, then spread over the looks. */
export function questionLevel(looks: readonly number[], questions: number): LookLevel {
  return lookLevel(looks, ALPHA_PER_VOICE / Math.max(1, questions));
}
