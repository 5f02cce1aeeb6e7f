import { PiperParallelError } from '../core/errors.js';

/** A machine's name in summaries: short, printable, one line. */
export function checkLabel(label: string | undefined): string | null {
  if (label === undefined) return null;
  if (!/^[\w.+@-][\w .+@-]{0,39}$/.test(label))
    throw new PiperParallelError(
      'USAGE',
      `--label must be 1 to 40 letters, digits, spaces or . _ + @ -, got "${label}"; e.g. --label pi5-8gb`,
    );
  return label.trim();
}
