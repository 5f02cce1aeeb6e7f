/**
 * Before any stream starts: a run whose largest arm would not fit in memory, or whose threads are far
 * more than the cores, is refused (exit 2) naming the option, what it would need and what there is;
 * `force` runs it anyway.
 */
import { PiperParallelError } from '../../core/errors.js';
import { maxOf } from '../../core/extremes.js';
import type { Condition } from '../schema.js';
import { guessedStreamBytes } from './stream-memory.js';

/** More threads per stream than this many per usable core is a typing error, not a layout. */
export const MAX_THREADS_PER_CORE = 8;

const mib = (bytes: number): string => `${Math.round(bytes / 2 ** 20)} MiB`;

export interface SizeCheck {
  conditions: readonly Condition[];
  /** The largest voice model of the run, bytes. */
  modelBytes: number;
  cores: number;
  memAvailableBytes: number | null;
  force: boolean;
}

export function checkRunSize({ conditions, modelBytes, cores, memAvailableBytes, force }: SizeCheck): void {
  if (force) return;
  const streams = maxOf([0, ...conditions.map((c) => c.flux)]);
  const threads = maxOf([0, ...conditions.map((c) => c.fils)]);
  if (threads > MAX_THREADS_PER_CORE * cores)
    throw new PiperParallelError(
      'USAGE',
      `--threads ${threads} is over ${MAX_THREADS_PER_CORE} per usable core (${cores} cores): onnxruntime would start ${threads} ` +
        `threads in every stream; give at most --threads ${MAX_THREADS_PER_CORE * cores}, or --force to run it anyway`,
    );
  if (memAvailableBytes === null) return;
  // Each stream is a process (or thread) with its own session: K of them at their expected peak at once.
  const needBytes = streams * guessedStreamBytes(modelBytes);
  if (needBytes > 0.9 * memAvailableBytes)
    throw new PiperParallelError(
      'USAGE',
      `--streams ${streams} would need about ${mib(needBytes)} (${streams} streams x ${mib(guessedStreamBytes(modelBytes))}) ` +
        `and MemAvailable is ${mib(memAvailableBytes)}; give fewer --streams, or --force to run it anyway`,
    );
}
