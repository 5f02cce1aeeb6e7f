import { constants, readFileSync, rmSync } from 'node:fs';
import {
  appendFile,
  link,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { alive, sweepStale } from './writer.js';
import path from 'node:path';
import { PiperParallelError } from '../core/errors.js';

/** What the partial file holds for one arm in one round. */
export interface RoundEntry {
  key: string;
  round: number;
  order: number;
  run: unknown;
}

/**
 * Append-only record of a run in progress (`.partial/<run>.jsonl`): a header line, then one line
 * per arm and round, written as soon as it ends, so a crash loses at most the arm in flight.
 */
export class PartialLog {
  private readonly keys = new Set<string>();
  private readonly release: () => void;

  private constructor(
    readonly file: string,
    heldKeys: Iterable<string> = [],
  ) {
    for (const k of heldKeys) this.keys.add(k);
    // The lock goes with this process however it ends; a lock left by a killed one is taken over. Only a lock this
    // process still holds is removed: another run may have taken over one it lost.
    this.release = (): void => dropLock(file);
    process.once('exit', this.release);
  }

  /**
   * Continue an existing partial file (resume); the arm-rounds it holds stay refused. A last line cut
   * off by a crash is removed first, so the next line does not run on from it; a file another live
   * run is writing is refused.
   */
  static async reopen(file: string, heldKeys: Iterable<string>): Promise<PartialLog> {
    // As a new file's: in a folder of this user's that not everyone writes to, and never a link (the repair
    // below would write through it).
    await ownFolder(path.dirname(file));
    if ((await lstat(file).catch(() => undefined))?.isSymbolicLink())
      throw new PiperParallelError('USAGE', `--resume ${file} is a link; give the partial file itself`);
    await lock(file);
    try {
      const text = await readFile(file, 'utf8');
      if (text !== '' && !text.endsWith('\n')) {
        // A last line that is whole JSON but lost only its newline was read as finished: keep it, end it.
        const last = text.slice(text.lastIndexOf('\n') + 1);
        if (isJson(last)) await appendFile(file, '\n');
        else await truncate(file, Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
      }
    } catch (err) {
      dropLock(file);
      throw new PiperParallelError(
        'OUTPUT',
        `--resume ${file} cannot be repaired (${(err as Error).message}); check the file`,
        {
          cause: err,
        },
      );
    }
    return new PartialLog(file, heldKeys);
  }

  static async create(outDir: string, base: string, header: unknown): Promise<PartialLog> {
    const dir = path.join(outDir, '.partial');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await ownFolder(dir);
    await sweepLocks(dir);
    for (let i = 0; ; i += 1) {
      const file = path.join(dir, `${base}${i === 0 ? '' : `-${i}`}.jsonl`);
      try {
        const h = await open(file, 'wx');
        await h.writeFile(`${JSON.stringify({ kind: 'header', header })}\n`);
        await h.close();
        await lock(file);
        return new PartialLog(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw new PiperParallelError(
          'OUTPUT',
          `could not create ${file} (${(err as Error).message}); check --out-dir`,
          { cause: err },
        );
      }
    }
  }

  /** The arm-rounds (or trials) a resumed run already holds, known once the file is read under the lock. */
  hold(keys: Iterable<string>): void {
    for (const k of keys) this.keys.add(k);
  }

  /** Lets the lock go and keeps the file (a resume refused once the lock was taken). */
  unlock(): void {
    this.release();
    process.removeListener('exit', this.release);
  }

  /** Append a finished arm-round; one already held is refused. */
  async append(entry: RoundEntry): Promise<void> {
    const key = `${entry.key}#${entry.round}`;
    if (this.keys.has(key))
      throw new PiperParallelError(
        'ARCHIVE',
        `the partial file ${this.file} already holds arm ${entry.key} in round ${entry.round}; refusing a duplicate`,
      );
    // Never through a link: the file is reopened by name each time, so a link put there meanwhile must not be followed.
    const h = await open(this.file, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
    try {
      await h.writeFile(`${JSON.stringify({ kind: 'round', ...entry })}\n`);
      // On the disk before the next trial starts: a power cut on a hot board must not lose what --resume needs.
      await h.datasync();
    } finally {
      await h.close();
    }
    this.keys.add(key);
  }

  async remove(): Promise<void> {
    await rm(this.file, { force: true });
    this.release();
    process.removeListener('exit', this.release);
  }
}

const lockOf = (file: string): string => `${file}.lock`;

/** Partial files this process holds the lock of: a second writer in the same process is refused, not let in. */
const held = new Set<string>();

/** Lets this process's lock on `file` go; a lock another run took over meanwhile is left to it. */
function dropLock(file: string): void {
  held.delete(file);
  if (readLock(file) === String(process.pid)) rmSync(lockOf(file), { force: true });
}

/** The lock's content, or undefined when there is none. */
function readLock(file: string): string | undefined {
  try {
    return readFileSync(lockOf(file), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The lock's content once it is whole: without hard links a lock is created empty, then written, so an empty one may
 * be a moment old; it is read again for up to half a second before it is taken for a crash's leftover.
 */
async function settledLock(file: string): Promise<string | undefined> {
  let seen = readLock(file);
  for (let i = 0; i < 20 && seen === ''; i += 1) {
    await new Promise((r) => setTimeout(r, 25));
    seen = readLock(file);
  }
  return seen;
}

/**
 * The `.partial` folder must be a real folder of this user's that not everyone can write to: in a shared --out-dir,
 * one made by someone else could hold links that turn this run's writes into writes elsewhere.
 */
async function ownFolder(dir: string): Promise<void> {
  const s = await lstat(dir);
  const uid = process.getuid?.();
  const why = !s.isDirectory()
    ? 'is not a folder (a link?)'
    : uid !== undefined && s.uid !== uid
      ? `belongs to another user (uid ${s.uid})`
      : (s.mode & 0o002) !== 0
        ? 'can be written by any user'
        : null;
  if (why)
    throw new PiperParallelError(
      'OUTPUT',
      `${dir} ${why}: a run keeps its partial results only in a folder of its own; give another --out-dir`,
    );
}

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/**
 * A lock whose holder is dead (or whose content names no process), taken away atomically: renamed to a name of this
 * process's own, then read again. If what was moved is not what was read (another run took the lock over first), it
 * is put back (a link fails if the lock exists again) and the caller is refused; two resumes never both hold it.
 */
export async function takeOver(file: string, seen: string): Promise<void> {
  const moved = `${lockOf(file)}.${process.pid}.stale`;
  try {
    await rename(lockOf(file), moved);
  } catch {
    return; // Gone meanwhile: the next attempt creates it.
  }
  const now = readFileSync(moved, 'utf8');
  if (now === seen) return void rmSync(moved, { force: true });
  await link(moved, lockOf(file)).catch(() => undefined);
  rmSync(moved, { force: true });
  throw new PiperParallelError(
    'USAGE',
    `${file} is being written by another piper-parallel run (pid ${now.trim() || '?'}); wait for it to end`,
  );
}

/** Locks of processes that are gone (killed before their exit handler ran): nothing holds them. */
async function sweepLocks(dir: string): Promise<void> {
  await sweepStale(dir);
  for (const n of await readdir(dir).catch(() => [] as string[])) {
    if (!n.endsWith('.jsonl.lock')) continue;
    let seen: string;
    try {
      seen = readFileSync(path.join(dir, n), 'utf8');
    } catch {
      continue;
    }
    const pid = Number(seen.trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid))
      await takeOver(path.join(dir, n.slice(0, -'.lock'.length)), seen).catch(() => undefined);
  }
}

/** A lock made whole at once: its content written first, then linked to the lock's name (fails if it exists). */
async function createLock(file: string): Promise<void> {
  const fresh = `${lockOf(file)}.${process.pid}.new`;
  await writeFile(fresh, String(process.pid));
  try {
    await link(fresh, lockOf(file));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
    // No hard links on this file system (FAT, some FUSE): an exclusive create, written at once.
    const h = await open(lockOf(file), 'wx');
    await h.writeFile(String(process.pid));
    await h.close();
  } finally {
    rmSync(fresh, { force: true });
  }
}

/** Take `file.lock` (this pid inside); a lock whose process is gone is taken over, a live one refused. */
async function lock(file: string): Promise<void> {
  if (held.has(file))
    throw new PiperParallelError(
      'USAGE',
      `${file} is already being written by this process; resume it once, after the run that holds it ends`,
    );
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await createLock(file);
      held.add(file);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const seen = await settledLock(file);
    if (seen === undefined) continue; // Gone meanwhile: try again.
    const holder = Number(seen.trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder))
      throw new PiperParallelError(
        'USAGE',
        `${file} is being written by another piper-parallel run (pid ${holder}); wait for it to end, ` +
          `or remove ${lockOf(file)} if that process is not piper-parallel`,
      );
    await takeOver(file, seen);
  }
  throw new PiperParallelError('OUTPUT', `could not lock ${file}; remove ${lockOf(file)} and try again`);
}

/**
 * A partial file's lines, parsed: a last line cut off by a crash is dropped, anything else that is
 * not JSON is damage and refused, naming the file.
 */
export async function readPartialLines(file: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new PiperParallelError(
      'USAGE',
      `--resume ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); give a file from measurements/.partial/`,
      { cause: err },
    );
  }
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return lines.flatMap((line, i) => {
    try {
      return [JSON.parse(line) as unknown];
    } catch (err) {
      if (i === lines.length - 1) return [];
      throw new PiperParallelError('USAGE', `--resume ${file}: line ${i + 1} is not JSON; the file is damaged`, {
        cause: err,
      });
    }
  });
}
