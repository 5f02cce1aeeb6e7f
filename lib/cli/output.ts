import { randomUUID } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PiperParallelError } from '../core/errors.js';

/**
 * Write what --out names: whole to a temporary file beside it, then renamed over the name, so a
 * reader never sees half a page and a failure leaves the earlier file as it was. A failure is one
 * line naming the file and what to do.
 */
export async function writeOut(file: string, text: string): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`);
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
