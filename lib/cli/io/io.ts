/**
 * The terminal a command writes to, and the exit code of an error: kept apart from the commands so
 * the command line's entry loads them without loading any experiment.
 */
import { PiperParallelError } from '../../core/errors.js';

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Raw stderr for the live progress line (no newline added); absent: no live line. */
  errRaw?: (text: string) => void;
  /** Whether stdout / stderr are terminals (the live progress line). */
  outTty?: boolean;
  errTty?: boolean;
  /** Whether stdout / stderr take colour (colorEnabled: FORCE_COLOR, NO_COLOR, TERM=dumb); absent: decided from the Tty flags. */
  outColour?: boolean;
  errColour?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** 2 usage, 130 or 143 interrupted (128 + SIGINT's 2 or SIGTERM's 15), 1 anything else. */
export function exitCodeFor(err: unknown, signal?: 'SIGINT' | 'SIGTERM'): number {
  if (err instanceof PiperParallelError) {
    if (err.code === 'USAGE') return 2;
    if (err.code === 'ABORTED') return signal === 'SIGTERM' ? 143 : 130;
  }
  return 1;
}
