/** Every failure the library reports is one of these: a stable `code`, a one-line message that says what to do, and the original `cause`. */
export type ErrorCode =
  | 'USAGE'
  | 'VOICE_CONFIG'
  | 'VOICE_MISSING'
  | 'VOICE_LOAD'
  | 'PHONEMIZE'
  | 'SYNTHESIS'
  | 'FETCH'
  | 'DIGEST_MISMATCH'
  | 'TEXT'
  | 'OUTPUT'
  | 'WORKER'
  | 'BARRIER'
  | 'TIMEOUT'
  | 'ABORTED'
  | 'ARCHIVE'
  | 'AFFINITY'
  | 'RUNTIME'
  | 'SERVER';

export class PiperParallelError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PiperParallelError';
    this.code = code;
  }
}

/** Turn any thrown value into an Error where it crosses a boundary. */
export function toError(value: unknown): Error {
  if (value instanceof Error) return value;
  if (typeof value === 'string') return new Error(value);
  try {
    return new Error(JSON.stringify(value));
  } catch {
    return new Error(String(value));
  }
}
