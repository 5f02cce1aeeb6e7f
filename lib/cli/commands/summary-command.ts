import { PiperParallelError } from '../../core/errors.js';
import { summaryHtml } from '../../summary/render/html.js';
import { summaryCsv } from '../../summary/render/csv.js';
import { summaryMarkdown } from '../../summary/render/markdown.js';
import { parsePrices } from '../../summary/price.js';
import { summarizeMachines } from '../../summary/summarize.js';
import { refuseToReplace, writeOut } from '../io/output.js';
import type { Io } from '../io/io.js';

/**
 * `summary FILES|DIRS... [--price LABEL=AMOUNT|AMOUNT]... [--out FILE.html] [--json | --csv]`: the table
 * on stdout (Markdown, JSON, or the machine table as CSV); with --out, the page and its Markdown beside it. A file that cannot
 * be read is one line on stderr and exit 2, the rest of the table printed all the same.
 */
export async function summaryCommand(
  {
    paths,
    prices,
    out,
    json,
    csv,
  }: { paths: string[]; prices: string[] | undefined; out: string | undefined; json: boolean; csv: boolean },
  io: Io,
): Promise<number> {
  if (json && csv) throw new PiperParallelError('USAGE', '--json and --csv each print the table: give one of them');
  if (paths.length === 0)
    throw new PiperParallelError(
      'USAGE',
      'summary takes archives or folders of them, got none; e.g. piper-parallel summary measurements/',
    );
  if (out !== undefined && !out.endsWith('.html'))
    throw new PiperParallelError(
      'USAGE',
      `--out must name an .html file (the Markdown goes beside it), got "${out}"; e.g. --out summary.html`,
    );
  const s = await summarizeMachines(paths, { prices: parsePrices(prices ?? []) });
  const markdown = summaryMarkdown(s);
  // No archive read: the lines on stderr say why; an empty table says nothing more.
  if (json) io.out(JSON.stringify(s, null, 2));
  else if (csv) io.out(summaryCsv(s).replace(/\r\n$/, ''));
  else if (s.rows.length > 0) io.out(markdown);
  if (out !== undefined) {
    // Both names checked before either is written: a refused Markdown leaves no page without it.
    await refuseToReplace(out.replace(/\.html$/, '.md'), paths);
    await writeOut(out, await summaryHtml(s), paths);
    await writeOut(out.replace(/\.html$/, '.md'), markdown, paths);
    io.err(`summary: ${out} and ${out.replace(/\.html$/, '.md')}`);
  }
  for (const p of s.problems) io.err(`piper-parallel: ${p}`);
  // Where a line above already says why nothing was read, it is the one line.
  if (s.rows.length === 0 && s.problems.length === 0)
    io.err(
      'piper-parallel: no archive could be summarized; give files from measurements/ (piper-parallel-*.json, capacity-*.json) or folders holding them',
    );
  return s.problems.length > 0 || s.rows.length === 0 ? 2 : 0;
}
