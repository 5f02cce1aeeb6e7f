/**
 * A noise model fitted to default runs: per run and voice, each arm's round figures on the log
 * scale, double-centred (arm means and round means taken out) and scaled back to one cell's spread;
 * the spread is robust (1.4826 x the median absolute residual), "far off" is beyond three of it.
 * Passes of one round, where a run had two, give the pass-to-pass part.
 */
import { median } from '../../lib/measure/stats.js';
import type { NoiseModel } from './simulate.js';

/** One run and voice: each arm's figure per round (arms x rounds, no gaps). */
export type RoundTable = number[][];

function residuals(t: RoundTable): { cells: number[]; rounds: number[] } {
  const logs = t.map((arm) => arm.map(Math.log));
  const arms = logs.length;
  const n = logs[0]?.length ?? 0;
  const armMean = logs.map((r) => r.reduce((a, b) => a + b, 0) / n);
  const roundMean = Array.from({ length: n }, (_, j) => logs.reduce((s, r) => s + (r[j] ?? 0), 0) / arms);
  const grand = armMean.reduce((a, b) => a + b, 0) / arms;
  const scale = Math.sqrt((1 - 1 / arms) * (1 - 1 / n));
  const cells = logs.flatMap((r, i) => r.map((v, j) => (v - (armMean[i] ?? 0) - (roundMean[j] ?? 0) + grand) / scale));
  const rounds = roundMean.map((m) => (m - grand) / Math.sqrt(1 - 1 / n));
  return { cells, rounds };
}

/**
 * The model: `passDiffs` are differences between the two passes of one worker set (log scale),
 * `passesPerRound` how many passes a round's figure averaged.
 */
export function fitNoise(
  tables: readonly RoundTable[],
  passDiffs: readonly number[],
  passesPerRound: number,
): NoiseModel {
  const cells = tables.flatMap((t) => residuals(t).cells);
  const rounds = tables.flatMap((t) => residuals(t).rounds);
  const total = 1.4826 * median(cells.map(Math.abs));
  const passSd = passDiffs.length > 0 ? Math.sqrt(passDiffs.reduce((s, d) => s + d * d, 0) / passDiffs.length / 2) : 0;
  const far = cells.filter((r) => Math.abs(r) > 3 * total);
  return {
    roundSd: Math.sqrt(rounds.reduce((s, r) => s + r * r, 0) / rounds.length),
    armSd: Math.sqrt(Math.max(0, total ** 2 - passSd ** 2 / passesPerRound)),
    passSd,
    outlierRate: far.length / cells.length,
    outlierSd: far.length > 0 ? Math.sqrt(far.reduce((s, r) => s + r * r, 0) / far.length) : 0,
  };
}
