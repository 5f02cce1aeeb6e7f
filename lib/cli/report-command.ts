import { writeFile } from 'node:fs/promises';
import { readArchive } from '../archive/read.js';
import { PiperParallelError } from '../errors.js';
import { renderHtml } from '../report/html.js';
import { renderMarkdown } from '../report/markdown.js';
import { parseChoice } from './parse.js';
import type { Io } from './run-command.js';

/** `report ARCHIVE.json [--format md|html] [--out FILE]`: to stdout unless --out. */
export async function reportCommand(files: string[], format: string | undefined, out: string | undefined, io: Io): Promise<number> {
  if (files.length !== 1) throw new PiperParallelError('USAGE', `report takes one archive, got ${files.length}; e.g. piper-parallel report measurements/piper-parallel-20261129-120000.json`);
  const kind = format === undefined ? 'md' : parseChoice<'md' | 'html'>(format, '--format', ['md', 'html']);
  const archive = await readArchive(files[0] ?? '');
  const text = kind === 'md' ? renderMarkdown(archive) : await renderHtml(archive);
  if (out === undefined) {
    io.out(text);
    return 0;
  }
  try {
    await writeFile(out, text);
  } catch (err) {
    throw new PiperParallelError('OUTPUT', `--out ${out} cannot be written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); choose a writable file`, { cause: err });
  }
  io.err(`report: ${out}`);
  return 0;
}
