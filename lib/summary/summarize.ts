/** `piper-parallel summary`'s work: read every archive, row them by machine and voice, price them. */
import { costOf, parsePrices, unusedPrices, type Prices } from './price.js';
import { archiveFiles, readSummaryInput } from './read.js';
import { summaryRows } from './rows.js';
import type { Summary, SummaryInput } from './types.js';

export interface SummaryOptions {
  /** `LABEL=AMOUNT` or `AMOUNT` per hour, as --price takes them (or already parsed). */
  prices?: readonly string[] | Prices;
  /** Reads one archive (tests count how many are read at once). */
  read?: (file: string) => Promise<SummaryInput | string>;
}

/**
 * Throughput and capacity archives (files, or folders searched for them) as one table of machines.
 * A file that cannot be read is one line in `problems`; the others are still summarized.
 */
export async function summarizeMachines(paths: string[], options: SummaryOptions = {}): Promise<Summary> {
  const prices =
    Array.isArray(options.prices) || options.prices === undefined
      ? parsePrices((options.prices as readonly string[] | undefined) ?? [])
      : (options.prices as Prices);
  const { files, problems } = await archiveFiles(paths);
  // One archive at a time: only its reduced form is kept, so a folder of large archives is never all in memory at once.
  const read: Array<SummaryInput | string> = [];
  for (const file of files) read.push(await (options.read ?? readSummaryInput)(file));
  const inputs = read.filter((r): r is SummaryInput => typeof r !== 'string');
  problems.push(...read.filter((r): r is string => typeof r === 'string'));
  const rows = summaryRows(inputs);
  for (const row of rows) {
    const price = prices.byLabel.get(row.label) ?? prices.fallback;
    if (price !== null) row.cost = costOf(row, price);
  }
  problems.push(...unusedPrices(prices, new Set(rows.map((r) => r.label))));
  return { rows, problems, files: files.length };
}
