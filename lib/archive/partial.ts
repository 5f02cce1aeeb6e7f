import { appendFile, mkdir, open, readFile, rm } from 'node:fs/promises';
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

  private constructor(
    readonly file: string,
    held: Iterable<string> = [],
  ) {
    for (const k of held) this.keys.add(k);
  }

  /** Continue an existing partial file (resume); the arm-rounds it holds stay refused. */
  static reopen(file: string, held: Iterable<string>): PartialLog {
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
  }
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
