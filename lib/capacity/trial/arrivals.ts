import { PiperParallelError } from '../../core/errors.js';
import { Prng } from '../../core/prng.js';

export type ArrivalPattern = 'together' | 'staggered' | 'poisson';
export const ARRIVAL_PATTERNS: readonly ArrivalPattern[] = ['together', 'staggered', 'poisson'];

/**
 * When each of K listeners arrives, in ms after the trial starts: all at once; spread evenly over
 * one mean sentence (the default); or a Poisson process with the same mean rate, seeded.
 */
export function arrivalOffsetsMs(pattern: ArrivalPattern, k: number, meanSentenceMs: number, seed: number): number[] {
  if (!Number.isInteger(k) || k < 1)
    throw new PiperParallelError('USAGE', `the number of listeners must be a whole number >= 1, got ${k}`);
  if (pattern === 'together') return Array.from({ length: k }, () => 0);
  const spacing = meanSentenceMs / k;
  if (pattern === 'staggered') return Array.from({ length: k }, (_, i) => i * spacing);
  const prng = new Prng(seed * 7919 + k);
  const out = [0];
  for (let i = 1; i < k; i += 1) {
    // Exponential gaps: -mean x ln(U), U in (0, 1].
    const u = 1 - prng.nextUint32() / 2 ** 32;
    out.push((out[i - 1] as number) - spacing * Math.log(u));
  }
  return out;
}
