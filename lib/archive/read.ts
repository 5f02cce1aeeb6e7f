import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { PiperParallelError } from '../errors.js';
import { ArchiveSchema, SCHEMA_VERSION, type Archive } from './schema.js';

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
    throw new PiperParallelError('USAGE', `${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); check the path`, { cause: err });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new PiperParallelError('USAGE', `${file} is not valid JSON (${(err as Error).message}); is it a truncated archive?`, { cause: err });
  }
}

/** A piper-parallel archive from disk, checked against the schema. */
export async function readArchive(file: string): Promise<Archive> {
  const value = await readJsonFile(file);
  const version = typeof value === 'object' && value !== null ? (value as { schema_version?: unknown }).schema_version : undefined;
  if (typeof version === 'number' && version < SCHEMA_VERSION) {
    throw new PiperParallelError('USAGE', `${file} is a schema ${version} archive (its aggregate summed the streams' ratios and it had no rounds); piper-parallel compare still reads it, report needs schema ${SCHEMA_VERSION}: run the measurement again`);
  }
  const parsed = ArchiveSchema.safeParse(value);
  if (!parsed.success) throw new PiperParallelError('USAGE', `${file} is not a piper-parallel archive this version reads (${firstIssue(parsed.error)}); give a file from measurements/`);
  return parsed.data;
}
