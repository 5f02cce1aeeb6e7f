import { compareArchives, comparisonMarkdown } from '../../throughput/compare/compare.js';
import { readComparable } from '../../throughput/compare/read.js';
import { PiperParallelError } from '../../core/errors.js';
import type { Io } from '../io/io.js';
import { readJsonFile } from '../../archive/read.js';
import { capacityComparisonMarkdown, compareCapacity } from '../../capacity/answer/compare.js';
import { capacityView } from '../../capacity/archive/view.js';

/** 2 refused or nothing compared (said on stderr), 4 a regression, else 0; for both kinds of archive. */
function exitCode(refused: string | null, compared: number, regression: boolean, why: string, io: Io): number {
  if (refused) {
    io.err(`piper-parallel: refused: ${refused}`);
    return 2;
  }
  if (compared === 0) {
    io.err(`piper-parallel: nothing could be compared ${why}`);
    return 2;
  }
  return regression ? 4 : 0;
}

const isCapacityArchive = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'capacite';

/** Two capacity archives (either schema): exit 4 when an answer of B lies wholly below A's range. */
function compareCapacityFiles(files: string[], raw: unknown[], json: boolean, force: boolean, io: Io): number {
  const [a, b] = raw.map((v, i) => capacityView(v, files[i] ?? '')) as [
    ReturnType<typeof capacityView>,
    ReturnType<typeof capacityView>,
  ];
  const c = compareCapacity(a, b, force);
  io.out(json ? JSON.stringify(c, null, 2) : capacityComparisonMarkdown(c, files[0] ?? '', files[1] ?? ''));
  return exitCode(
    c.refused,
    c.compared,
    c.regression,
    '(every answer incomparable, failed its controls or in one run only)',
    io,
  );
}

/** `compare A B`: 0 no regression, 4 a regression, 2 refusal, nothing comparable, or usage error. */
export async function compareCommand(
  { files, tolerance, json, force }: { files: string[]; tolerance: string | undefined; json: boolean; force: boolean },
  io: Io,
): Promise<number> {
  if (files.length !== 2)
    throw new PiperParallelError(
      'USAGE',
      `compare takes two archives, got ${files.length}; e.g. piper-parallel compare before.json after.json`,
    );
  let tolerancePercent = 5;
  if (tolerance !== undefined) {
    tolerancePercent = Number(tolerance);
    if (!/^\d+(\.\d+)?$/.test(tolerance) || !(tolerancePercent > 0))
      throw new PiperParallelError(
        'USAGE',
        `--tolerance must be a percentage above 0, got "${tolerance}"; e.g. --tolerance 5`,
      );
  }
  const raw = await Promise.all(files.map((f) => readJsonFile(f)));
  const capacity = raw.map(isCapacityArchive);
  if (capacity[0] !== capacity[1])
    throw new PiperParallelError(
      'USAGE',
      `${capacity[0] ? files[0] : files[1]} is a capacity archive and the other a throughput archive; compare two of the same kind`,
    );
  if (capacity[0]) return compareCapacityFiles(files, raw, json, force, io);
  const [a, b] = await Promise.all(files.map((f) => readComparable(f)));
  const c = compareArchives(a!, b!, { tolerancePercent, force });
  io.out(json ? JSON.stringify(c, null, 2) : comparisonMarkdown(c));
  return exitCode(
    c.refused,
    c.comparedArms,
    c.regression,
    '(every arm incomparable, noisy, failed its controls or in one run only); compare runs of the ' +
      'same workload, each with its controls held and enough rounds that its intervals are narrower ' +
      'than the tolerance (more passes, or a wider --tolerance)',
    io,
  );
}
