import { Prng } from './prng.js';

/**
 * Timed passes of round `round` (1-based) when `passes` are split over `rounds`: as even as can be,
 * the first rounds taking one more when it does not divide. A round added beyond the plan (for
 * --precision) takes as many as the first.
 */
export function passesOfRound(passes: number, rounds: number, round: number): number {
  const base = Math.floor(passes / rounds);
  const extra = passes % rounds;
  if (round > rounds) return base + (extra > 0 ? 1 : 0);
  return base + (round <= extra ? 1 : 0);
}

/**
 * The order the arms run in within a round: a Fisher-Yates shuffle from a generator seeded by the
 * run's seed and the round, so the same seed gives the same order (and a resume the same schedule).
 */
export function roundOrder(count: number, seed: number, round: number): number[] {
  const rng = new Prng((seed * 1_000_003 + round) >>> 0);
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i -= 1) {
    const j = Math.floor(rng.next() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}

/**
 * The order a voice's arms run in within a round: rounds come in pairs, the second the reverse of
 * the first (A B C D, then D C B A), so a drift that is steady across a pair of rounds weighs on
 * every arm alike; each pair shuffles anew from the seed, the round pair and the voice.
 */
export function voiceArmOrder(count: number, seed: number, round: number, voice: number): number[] {
  const pair = Math.ceil(round / 2);
  const base = roundOrder(count, (seed + voice * 7_919) >>> 0, pair);
  return round % 2 === 1 ? base : [...base].reverse();
}

/** Voices take turns leading: in plan order in odd rounds, reversed in even ones. */
export function voiceSequence(count: number, round: number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  return round % 2 === 1 ? order : order.reverse();
}
