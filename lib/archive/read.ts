import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { PiperParallelError } from '../core/errors.js';

/** The first problem zod found, as `key.path: message`. */
export function firstIssue(error: z.ZodError): string {
  const i = error.issues[0];
  return i ? `${i.path.map(String).join('.') || '(top level)'}: ${i.message}` : 'invalid';
}

/** A JSON file's value; an unreadable or truncated file is a one-line error naming it. */
export async function readJsonFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new PiperParallelError(
      'USAGE',
      `${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); check the path`,
      { cause: err },
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new PiperParallelError(
      'USAGE',
      `${file} is not valid JSON (${(err as Error).message}); is it a truncated archive?`,
      { cause: err },
    );
  }
}
