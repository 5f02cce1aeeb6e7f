import { compareArchives, comparisonMarkdown } from '../compare/compare.js';
import { readComparable } from '../compare/read.js';
import { PiperParallelError } from '../errors.js';
import type { Io } from './run-command.js';

/** `compare A B`: 0 no regression, 4 a regression, 2 refusal, nothing comparable, or usage error. */
export async function compareCommand(files: string[], tolerance: string | undefined, json: boolean, force: boolean, io: Io): Promise<number> {
  if (files.length !== 2) throw new PiperParallelError('USAGE', `compare takes two archives, got ${files.length}; e.g. piper-parallel compare before.json after.json`);
  let tolerancePercent = 5;
  if (tolerance !== undefined) {
    tolerancePercent = Number(tolerance);
    if (!/^\d+(\.\d+)?$/.test(tolerance) || !(tolerancePercent > 0)) throw new PiperParallelError('USAGE', `--tolerance must be a percentage above 0, got "${tolerance}"; e.g. --tolerance 5`);
  }
  const [a, b] = await Promise.all(files.map((f) => readComparable(f)));
  const c = compareArchives(a!, b!, { tolerancePercent, force });
  io.out(json ? JSON.stringify(c, null, 2) : comparisonMarkdown(c));
  if (c.refused) {
    io.err(`piper-parallel: refused: ${c.refused}`);
    return 2;
  }
  if (c.comparedArms === 0) {
    io.err('piper-parallel: nothing could be compared (every arm incomparable, noisy, failed its controls or in one run only); compare runs of the same workload, each with at least 4 passes and its controls held');
    return 2;
  }
  return c.regression ? 4 : 0;
}
