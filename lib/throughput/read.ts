import { PiperParallelError } from '../core/errors.js';
import { firstIssue, readJsonFile } from '../archive/read.js';
import { ArchiveSchema, SCHEMA_VERSION, type Archive } from './schema.js';

/** A piper-parallel archive from disk, checked against the schema. */
export async function readArchive(file: string): Promise<Archive> {
  return archiveOf(await readJsonFile(file), file);
}

/** A throughput archive from the value read from `file` (read once: a large file is not parsed twice). */
export function archiveOf(value: unknown, file: string): Archive {
  const version =
    typeof value === 'object' && value !== null ? (value as { schema_version?: unknown }).schema_version : undefined;
  if (typeof version === 'number' && version < SCHEMA_VERSION) {
    throw new PiperParallelError(
      'USAGE',
      `${file} is a schema ${version} archive (its aggregate summed the streams' ratios and it had ` +
        `no rounds); piper-parallel compare still reads it, report needs schema ${SCHEMA_VERSION}: run ` +
        `the measurement again`,
    );
  }
  const parsed = ArchiveSchema.safeParse(value);
  if (!parsed.success)
    throw new PiperParallelError(
      'USAGE',
      `${file} is not a piper-parallel archive this version reads (${firstIssue(parsed.error)}); give a file from measurements/`,
    );
  return parsed.data;
}
