import { randomUUID } from 'node:crypto';
import { open, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PiperParallelError } from '../../core/errors.js';
import { sweepStale } from '../../archive/writer.js';

/**
 * Write what --out names: whole to a temporary file beside it, then renamed over the name, so a
 * reader never sees half a page and a failure leaves the earlier file as it was. A failure is one
 * line naming the file and what to do. `inputs` are the files the command read: never replaced.
 */
export async function writeOut(file: string, text: string, inputs: readonly string[] = []): Promise<void> {
  await refuseToReplace(file, inputs);
  // Named with this pid, as an archive's temporary file is: one a killed run left is swept by the next.
  await sweepStale(path.dirname(file));
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomUUID()}.tmp`);
  try {
    await writeFile(tmp, text, { flag: 'wx' });
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw new PiperParallelError(
      'OUTPUT',
      `--out ${file} cannot be written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); choose a writable file`,
      { cause: err },
    );
  }
}

/**
 * --out may replace a page written before, never what the command read, an archive (a report is Markdown or HTML,
 * an archive JSON) or what is not a plain file (a rename over /dev/null replaces the device): exit 2, bytes unchanged.
 */
export async function refuseToReplace(file: string, inputs: readonly string[]): Promise<void> {
  const there = await stat(file).catch(() => undefined);
  if (there === undefined) return;
  let why: string | undefined;
  if (!there.isFile()) why = 'not a plain file';
  else if (await isOneOf(there, inputs)) why = 'what this command reads';
  else if (await startsAsJson(file)) why = 'a JSON file (an archive?)';
  if (why !== undefined)
    throw new PiperParallelError(
      'USAGE',
      `--out ${file} is ${why}, which --out never replaces; name a new file, e.g. --out report.html`,
    );
}

async function isOneOf(target: { dev: number; ino: number }, inputs: readonly string[]): Promise<boolean> {
  for (const input of inputs) {
    const s = await stat(input).catch(() => undefined);
    if (s && s.dev === target.dev && s.ino === target.ino) return true;
  }
  return false;
}

/** Its first byte past white space opens a JSON object or array. */
async function startsAsJson(file: string): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return false;
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(256), 0, 256, 0);
    const head = buffer.subarray(0, bytesRead).toString('utf8').trimStart();
    return head.startsWith('{') || head.startsWith('[');
  } finally {
    await handle.close();
  }
}
