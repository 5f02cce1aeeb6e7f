import { firstIssue, readJsonFile } from '../../archive/read.js';
import { archiveOf } from '../../throughput/read.js';
import { capacityHtml, capacityMarkdown } from '../../capacity/report/render.js';
import { CAPACITY_SCHEMA_VERSION, CapacityArchiveSchema } from '../../capacity/archive/schema.js';
import { PiperParallelError } from '../../core/errors.js';
import { renderHtml } from '../../throughput/report/html.js';
import { renderMarkdown } from '../../throughput/report/markdown.js';
import { writeOut } from '../io/output.js';
import { parseChoice } from '../args/parse.js';
import type { Io } from '../io/io.js';

/** `report ARCHIVE.json [--format md|html] [--out FILE]`: to stdout unless --out. */
export async function reportCommand(
  { files, format, out }: { files: string[]; format: string | undefined; out: string | undefined },
  io: Io,
): Promise<number> {
  if (files.length !== 1)
    throw new PiperParallelError(
      'USAGE',
      `report takes one archive, got ${files.length}; e.g. piper-parallel report measurements/piper-parallel-20261129-120000.json`,
    );
  const kind = format === undefined ? 'md' : parseChoice<'md' | 'html'>(format, '--format', ['md', 'html']);
  const file = files[0] ?? '';
  const value = await readJsonFile(file);
  let text: string;
  if (typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'capacite') {
    const version = (value as { schema_version?: unknown }).schema_version;
    if (typeof version === 'number' && version < CAPACITY_SCHEMA_VERSION)
      throw new PiperParallelError(
        'USAGE',
        `${file} is a schema ${version} capacity archive (one answer, which required the first-audio ` +
          `bound); piper-parallel compare and summary still read it, report needs schema ${CAPACITY_SCHEMA_VERSION}: ` +
          `run the measurement again`,
      );
    const parsed = CapacityArchiveSchema.safeParse(value);
    if (!parsed.success)
      throw new PiperParallelError(
        'USAGE',
        `${file} is not a capacity archive this version reads (${firstIssue(parsed.error)}); give a file from measurements/`,
      );
    text = kind === 'md' ? capacityMarkdown(parsed.data) : await capacityHtml(parsed.data);
  } else {
    const archive = archiveOf(value, file);
    text = kind === 'md' ? renderMarkdown(archive) : await renderHtml(archive);
  }
  if (out === undefined) {
    io.out(text);
    return 0;
  }
  await writeOut(out, text, [file]);
  io.err(`report: ${out}`);
  return 0;
}
