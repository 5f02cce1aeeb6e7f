import { randomUUID } from 'node:crypto';
import { access, link, mkdir, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import { PiperParallelError } from '../core/errors.js';

/**
 * How an archive's files are made; the fault suite injects one whose writes fail, the tests one on
 * a file system without hard links.
 */
export interface ArchiveFiles {
  open(file: string, flags: 'wx'): Promise<Pick<FileHandle, 'writeFile' | 'sync' | 'close'>>;
  link?(existing: string, made: string): Promise<void>;
  rename?(from: string, to: string): Promise<void>;
}

/** Whether a process id is alive (EPERM: it exists, owned by someone else). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The pid in the name of a temporary file this tool makes: an archive's or a page's (`.NAME.PID.UUID.tmp`), the
 * folder probe's (`.write-test-PID-UUID`, `.tmp` or not), a lock being made or taken over (`NAME.lock.PID.new`,
 * `.stale`).
 */
const TEMPORARY_NAMES = [
  /^\..*\.(\d+)\.[0-9a-f-]{36}\.tmp$/,
  /^\.write-test-(\d+)-[0-9a-f-]{36}(?:\.tmp)?$/,
  /\.lock\.(\d+)\.(?:new|stale)$/,
];

/** Temporary files of processes that are gone (see TEMPORARY_NAMES): a killed run cannot remove its own. */
export async function sweepStale(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const pid = Number(TEMPORARY_NAMES.map((r) => r.exec(n)?.[1]).find((x) => x !== undefined));
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid))
      await rm(path.join(dir, n), { force: true }).catch(() => undefined);
  }
}

/** The folder's entry made durable too: a power cut right after must not lose the name (best effort: not every file system syncs a folder). */
async function syncFolder(dir: string): Promise<void> {
  try {
    const h = await open(dir, 'r');
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  } catch {
    // EISDIR, EINVAL, EPERM on some file systems: the file itself was synced.
  }
}

/** What link(2) answers on a file system that has no hard links (FAT, exFAT, vboxsf, some SMB and FUSE mounts). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK', 'EXDEV']);

/**
 * Publish `tmp` as `file` only if `file` does not exist. With link(2) the name is taken and filled in
 * one step. Without hard links, the name is claimed empty with O_EXCL (so no other writer can take
 * it), then the whole temporary file is renamed over that claim: never over another run's archive;
 * an interruption between the two leaves an empty file, never half of one.
 */
async function publishAs(tmp: string, file: string, files: ArchiveFiles): Promise<void> {
  try {
    await (files.link ?? link)(tmp, file);
    return;
  } catch (err) {
    if (!NO_HARD_LINKS.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
  }
  const claim = await files.open(file, 'wx');
  await claim.close();
  await (files.rename ?? rename)(tmp, file);
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** `piper-parallel-YYYYMMDD-HHMMSS` in UTC. */
export function archiveBaseName(date: Date, prefix = 'piper-parallel'): string {
  const day = `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}`;
  return `${prefix}-${day}-${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}`;
}

/**
 * Write `text` under `dir/base.json`, or `base-1.json`, `base-2.json`... Written whole to a
 * temporary file first, then published only where the name is free (link(2), or an exclusive claim
 * where the file system has no hard links): two writers in the same second never overwrite each
 * other, and an interruption never leaves half an archive.
 */
export async function writeExclusive(
  dir: string,
  base: string,
  text: string,
  extension = '.json',
  files: ArchiveFiles = { open },
): Promise<string> {
  await mkdir(dir, { recursive: true });
  await sweepStale(dir);
  // The pid in the name lets a later run remove what a killed one left (a second Ctrl-C, SIGKILL).
  const tmp = path.join(dir, `.${base}.${process.pid}.${randomUUID()}.tmp`);
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
        await publishAs(tmp, file, files);
        await syncFolder(dir);
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

/**
 * Fail before measuring anything if the output folder cannot take files: a file is made, published
 * the way an archive is (a hard link, or the claim and rename where there are none), and removed.
 */
export async function checkWritable(dir: string, option = '--out-dir', files: ArchiveFiles = { open }): Promise<void> {
  const probe = path.join(dir, `.write-test-${process.pid}-${randomUUID()}`);
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
    const h = await files.open(`${probe}.tmp`, 'wx');
    await h.close();
    await publishAs(`${probe}.tmp`, probe, files);
  } catch (err) {
    throw new PiperParallelError(
      'OUTPUT',
      `${option} ${dir} is not writable (${(err as Error).message}); choose a writable folder with ${option}`,
      { cause: err },
    );
  } finally {
    // Under a path that is a file these fail too (ENOTDIR): the error above already says so.
    await rm(`${probe}.tmp`, { force: true }).catch(() => undefined);
    await rm(probe, { force: true }).catch(() => undefined);
  }
}
