import { randomUUID } from 'node:crypto';
import { access, link, mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import { PiperParallelError } from '../core/errors.js';

/** How an archive's temporary file is opened; the fault suite injects one whose writes fail. */
export interface ArchiveFiles {
  open(file: string, flags: 'wx'): Promise<Pick<FileHandle, 'writeFile' | 'sync' | 'close'>>;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** `piper-parallel-YYYYMMDD-HHMMSS` in UTC. */
export function archiveBaseName(date: Date, prefix = 'piper-parallel'): string {
  const day = `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}`;
  return `${prefix}-${day}-${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}`;
}

/**
 * Write `text` under `dir/base.json`, or `base-1.json`, `base-2.json`... Written whole to a
 * temporary file first, then published with link(2), which fails if the name exists: two writers in
 * the same second never overwrite each other, and an interruption never leaves half an archive.
 */
export async function writeExclusive(
  dir: string,
  base: string,
  text: string,
  extension = '.json',
  files: ArchiveFiles = { open },
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `.${base}.${randomUUID()}.tmp`);
  try {
    const handle = await files.open(tmp, 'wx');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (err) {
    await rm(tmp, { force: true });
    throw new PiperParallelError(
      'ARCHIVE',
      `could not write the archive in ${dir} (${(err as Error).message}); check free space and permissions of --out-dir`,
      { cause: err },
    );
  }
  try {
    for (let i = 0; i < 10_000; i += 1) {
      const file = path.join(dir, `${base}${i === 0 ? '' : `-${i}`}${extension}`);
      try {
        await link(tmp, file);
        return file;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw new PiperParallelError(
          'ARCHIVE',
          `could not create ${file} (${(err as Error).message}); check --out-dir`,
          { cause: err },
        );
      }
    }
    throw new PiperParallelError(
      'ARCHIVE',
      `10000 archives named ${base} already exist in ${dir}; use another --out-dir`,
    );
  } finally {
    await rm(tmp, { force: true });
  }
}

/** Fail before measuring anything if the output folder cannot take files. */
export async function checkWritable(dir: string, option = '--out-dir'): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
    const probe = path.join(dir, `.write-test-${process.pid}-${Date.now()}`);
    const h = await open(probe, 'wx');
    await h.close();
    await rm(probe, { force: true });
  } catch (err) {
    throw new PiperParallelError(
      'OUTPUT',
      `${option} ${dir} is not writable (${(err as Error).message}); choose a writable folder with ${option}`,
      { cause: err },
    );
  }
}
