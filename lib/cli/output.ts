import { writeFile } from 'node:fs/promises';
import { PiperParallelError } from '../core/errors.js';

/** Write what --out names; a failure is one line naming the file and what to do. */
export async function writeOut(file: string, text: string): Promise<void> {
  try {
    await writeFile(file, text);
  } catch (err) {
    throw new PiperParallelError(
      'OUTPUT',
      `--out ${file} cannot be written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); choose a writable file`,
      { cause: err },
    );
  }
}
