import { createHash } from 'node:crypto';
import { PiperParallelError } from '../core/errors.js';
import { readBounded } from '../core/read-bounded.js';
import { DEFAULT_SENTENCES } from './default-text.js';

export const MAX_TEXT_BYTES = 1_000_000;

export interface TextSource {
  source: string;
  lines: string[];
  sha256: string;
  characters: number;
}

export function fingerprint(lines: readonly string[]): { sha256: string; characters: number } {
  const joined = lines.join('\n');
  return { sha256: createHash('sha256').update(joined, 'utf8').digest('hex'), characters: [...joined].length };
}

/** The built-in sentences (`builtIn`, throughput's by default), or a file with one sentence per line (UTF-8, at most 1 MB). */
export async function loadText(
  textFile?: string,
  lines?: readonly string[],
  builtIn: { source: string; lines: readonly string[] } = {
    source: 'built-in French sentences',
    lines: DEFAULT_SENTENCES,
  },
): Promise<TextSource> {
  if (lines) {
    const kept = lines.map((l) => l.trim()).filter((l) => l.length > 0);
    if (kept.length === 0)
      throw new PiperParallelError('TEXT', 'the text has no sentence; give at least one non-empty line');
    return { source: 'lines given by the caller', lines: kept, ...fingerprint(kept) };
  }
  if (!textFile) return { source: builtIn.source, lines: [...builtIn.lines], ...fingerprint(builtIn.lines) };
  let bytes: Buffer;
  try {
    const r = await readBounded(textFile, MAX_TEXT_BYTES);
    if (r.state === 'not-a-file')
      throw new PiperParallelError('TEXT', `--text-file ${textFile} is ${r.kind}, not a file; give a UTF-8 text file`);
    if (r.state === 'too-large')
      throw new PiperParallelError(
        'TEXT',
        `--text-file ${textFile} is over the ${MAX_TEXT_BYTES}-byte limit; give a shorter text (a pass synthesizes all of it)`,
      );
    bytes = r.bytes;
  } catch (err) {
    if (err instanceof PiperParallelError) throw err;
    throw new PiperParallelError(
      'TEXT',
      `--text-file ${textFile} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); check the path`,
      { cause: err },
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (err) {
    throw new PiperParallelError(
      'TEXT',
      `--text-file ${textFile} is not valid UTF-8; convert it (e.g. iconv -t UTF-8)`,
      { cause: err },
    );
  }
  const kept = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  if (kept.length === 0)
    throw new PiperParallelError('TEXT', `--text-file ${textFile} has no sentence; put one sentence per line`);
  return { source: `file ${textFile}`, lines: kept, ...fingerprint(kept) };
}
