import { PiperParallelError } from '../../core/errors.js';

/** A whole number from the command line, or a one-line usage error naming the option. */
export function parseWhole(raw: string, option: string, min: number): number {
  const value = Number(raw);
  if (!/^\s*-?\d+\s*$/.test(raw) || !Number.isSafeInteger(value) || value < min) {
    throw new PiperParallelError(
      'USAGE',
      `${option} must be a whole number >= ${min}, got "${raw}"; e.g. ${option === 'passes' ? 'piper-parallel 6' : `${option} ${Math.max(min, 1)}`}`,
    );
  }
  return value;
}

/** "1,2,4" -> [1, 2, 4]. */
export function parseList(raw: string, option: string, min: number): number[] {
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.some((p) => p === ''))
    throw new PiperParallelError(
      'USAGE',
      `${option} takes a comma-separated list of whole numbers, got "${raw}"; e.g. ${option} 1,2`,
    );
  return parts.map((p) => parseWhole(p, option, min));
}

/** A number above 0 (a percentage, minutes), or a one-line usage error naming the option. */
export function parsePositive(raw: string, option: string, example: string): number {
  const value = Number(raw);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(raw) || !(value > 0))
    throw new PiperParallelError(
      'USAGE',
      `${option} must be a number above 0, got "${raw}"; e.g. ${option} ${example}`,
    );
  return value;
}

export function parseChoice<T extends string>(raw: string, option: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(raw)) {
    throw new PiperParallelError('USAGE', `${option} must be one of ${choices.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

/** The environment variable that sets --settle where the option is not given (tests, CI). */
export const SETTLE_ENV = 'PIPER_PARALLEL_SETTLE';

/** --settle, else PIPER_PARALLEL_SETTLE, else undefined (the library's default, 30 s). */
export function settleSeconds(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): number | undefined {
  if (flag !== undefined) return parseWhole(flag, '--settle', 0);
  const raw = env[SETTLE_ENV];
  if (raw === undefined || raw === '') return undefined;
  if (!/^\s*\d+\s*$/.test(raw))
    throw new PiperParallelError(
      'USAGE',
      `${SETTLE_ENV} must be a whole number of seconds >= 0, got "${raw}"; e.g. ${SETTLE_ENV}=0, or unset it`,
    );
  return Number(raw);
}

export const TEXT_ENV = 'PIPER_PARALLEL_TEXT_FILE';

/**
 * --text-file, else PIPER_PARALLEL_TEXT_FILE (a default text for every run of a shell or a CI job),
 * else undefined (the built-in text). A resumed run keeps its own text: the variable is not read.
 */
export function textFile(
  flag: string | undefined,
  resume: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (flag !== undefined || resume !== undefined) return flag;
  const raw = env[TEXT_ENV];
  return raw === undefined || raw === '' ? undefined : raw;
}
