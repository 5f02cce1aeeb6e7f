import type { z } from 'zod';
import { PiperParallelError } from '../core/errors.js';
import { readBounded } from '../core/read-bounded.js';

/** The largest archive read: a day-long capacity run with every chunk timeline is tens of MB. */
export const MAX_ARCHIVE_BYTES = 256 * 2 ** 20;

/** An archive's lists, by what a user calls one of their items. */
const ITEMS: Readonly<Record<string, string>> = {
  bras: 'arm',
  essais: 'trial',
  capacite: 'answer',
  voix: 'voice',
  comparaisons: 'comparison',
};

/**
 * Where an archive's first problem is, and of what kind, in a user's words: never the schema's text
 * or an archive key (French, and the code's, not the user's); the key stays in the file for a bug report.
 */
export function firstIssue(error: z.ZodError): string {
  const i = error.issues[0];
  if (!i) return 'not what an archive holds';
  const [head, index] = i.path;
  if (head === 'schema_version') return 'its schema version is not one this version reads';
  const item = typeof head === 'string' ? ITEMS[head] : undefined;
  const place =
    i.path.length === 0
      ? 'the file as a whole'
      : item !== undefined
        ? typeof index === 'number'
          ? `its ${item} ${index + 1}`
          : `its list of ${item}s`
        : head === 'protocole'
          ? 'its protocol block'
          : i.path.length === 1
            ? 'its header'
            : 'a block of it';
  const missing = i.code === 'invalid_type' && /received undefined/.test(i.message);
  return `${place} ${missing ? 'lacks a value this version needs' : 'holds a value of another kind'}`;
}

/**
 * JSON as Python's json.dumps writes it by default: `NaN`, `Infinity` and `-Infinity` bare, outside
 * strings. They become null (an unmeasured figure), the rest stays as it was. One pass that copies
 * runs of text between the words, linear in the file: a hostile 64 MiB file took 26 s a character at a time.
 */
export function parsePythonJson(text: string): unknown {
  const parts: string[] = [];
  let copiedTo = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else {
      const word = bareWordAt(text, i, c);
      if (word > 0) {
        parts.push(text.slice(copiedTo, i), 'null');
        i += word - 1;
        copiedTo = i + 1;
      }
    }
  }
  parts.push(text.slice(copiedTo));
  return JSON.parse(parts.join('')) as unknown;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The length of `NaN`, `Infinity` or `-Infinity` at `i`, or 0. */
function bareWordAt(text: string, i: number, c: number): number {
  if (c === 0x4e) return text.startsWith('NaN', i) ? 3 : 0;
  if (c === 0x49) return text.startsWith('Infinity', i) ? 8 : 0;
  if (c === 0x2d) return text.startsWith('-Infinity', i) ? 9 : 0;
  return 0;
}

/** A JSON file's value; an unreadable, oversized or truncated file is a one-line error naming it. */
export async function readJsonFile(file: string, limitBytes = MAX_ARCHIVE_BYTES): Promise<unknown> {
  let text: string;
  try {
    const r = await readBounded(file, limitBytes);
    if (r.state === 'not-a-file')
      throw new PiperParallelError(
        'USAGE',
        `${file} is ${r.kind}, not an archive file; give a file from measurements/`,
      );
    if (r.state === 'too-large')
      throw new PiperParallelError(
        'USAGE',
        `${file} is over ${Math.round(limitBytes / 2 ** 20)} MiB, larger than any archive this tool writes; give a file from measurements/`,
      );
    text = r.bytes.toString('utf8');
  } catch (err) {
    if (err instanceof PiperParallelError) throw err;
    throw new PiperParallelError(
      'USAGE',
      `${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); check the path`,
      { cause: err },
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    try {
      // The Python script's archives: json.dumps writes NaN for a figure that could not be computed.
      // A file cut short is not one of them: no second pass over it (a hostile one may be 256 MiB).
      if (/[}\]]\s*$/.test(text.slice(-64)) && /NaN|Infinity/.test(text)) return parsePythonJson(text);
    } catch {
      // Not that either: say what JSON.parse said.
    }
    throw new PiperParallelError(
      'USAGE',
      `${file} is not valid JSON (${(err as Error).message}); is it a truncated archive?`,
      {
        cause: err,
      },
    );
  }
}
