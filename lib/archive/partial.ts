import { readFileSync, rmSync } from 'node:fs';
import { appendFile, mkdir, open, readFile, rm, truncate } from 'node:fs/promises';
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
    held: Iterable<string> = [],
  ) {
    for (const k of held) this.keys.add(k);
    // The lock goes with this process however it ends; a lock left by a killed one is taken over.
    this.release = (): void => rmSync(lockOf(file), { force: true });
    process.once('exit', this.release);
  }

  /**
   * Continue an existing partial file (resume); the arm-rounds it holds stay refused. A last line cut
   * off by a crash is removed first, so the next line does not run on from it; a file another live
   * run is writing is refused.
   */
  static async reopen(file: string, held: Iterable<string>): Promise<PartialLog> {
    await lock(file);
    try {
      const text = await readFile(file, 'utf8');
      if (text !== '' && !text.endsWith('\n'))
        await truncate(file, Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
    } catch (err) {
      rmSync(lockOf(file), { force: true });
      throw new PiperParallelError(
        'OUTPUT',
        `--resume ${file} cannot be repaired (${(err as Error).message}); check the file`,
        {
          cause: err,
        },
      );
    }
    return new PartialLog(file, held);
  }

  static async create(outDir: string, base: string, header: unknown): Promise<PartialLog> {
    const dir = path.join(outDir, '.partial');
    await mkdir(dir, { recursive: true });
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

  /** Append a finished arm-round; one already held is refused. */
  async append(entry: RoundEntry): Promise<void> {
    const key = `${entry.key}#${entry.round}`;
    if (this.keys.has(key))
      throw new PiperParallelError(
        'ARCHIVE',
        `the partial file ${this.file} already holds arm ${entry.key} in round ${entry.round}; refusing a duplicate`,
      );
    await appendFile(this.file, `${JSON.stringify({ kind: 'round', ...entry })}\n`);
    this.keys.add(key);
  }

  async remove(): Promise<void> {
    await rm(this.file, { force: true });
    this.release();
    process.removeListener('exit', this.release);
  }
}

const lockOf = (file: string): string => `${file}.lock`;

/** Whether a process id is alive (EPERM: it exists, owned by someone else). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Take `file.lock` (O_EXCL, this pid inside); a lock whose process is gone is taken over, a live one refused. */
async function lock(file: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const h = await open(lockOf(file), 'wx');
      await h.writeFile(String(process.pid));
      await h.close();
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(lockOf(file), 'utf8').trim());
    } catch {
      // Gone meanwhile: try again.
    }
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && running(holder))
      throw new PiperParallelError(
        'USAGE',
        `${file} is being written by another piper-parallel run (pid ${holder}); wait for it to end, ` +
          `or remove ${lockOf(file)} if that process is not piper-parallel`,
      );
    rmSync(lockOf(file), { force: true });
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
