import type { z } from 'zod';
import { PiperParallelError } from '../core/errors.js';
import { readBounded } from '../core/read-bounded.js';

/** The largest archive read: a day-long capacity run with every chunk timeline is tens of MB. */
export const MAX_ARCHIVE_BYTES = 256 * 2 ** 20;

/** The first problem zod found, as `key.path: message`. */
export function firstIssue(error: z.ZodError): string {
  const i = error.issues[0];
  return i ? `${i.path.map(String).join('.') || '(top level)'}: ${i.message}` : 'invalid';
}

/**
 * JSON as Python's json.dumps writes it by default: `NaN`, `Infinity` and `-Infinity` bare, outside
 * strings. They become null (an unmeasured figure), the rest stays as it was.
 */
export function parsePythonJson(text: string): unknown {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    const word = /^(-?Infinity|NaN)/.exec(text.slice(i, i + 9))?.[1];
    if (word) {
      out += 'null';
      i += word.length - 1;
    } else out += c;
  }
  return JSON.parse(out) as unknown;
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
      if (/NaN|Infinity/.test(text)) return parsePythonJson(text);
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
