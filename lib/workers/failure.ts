/** Any thrown value as the one message a worker sends when it fails: the error's text and its code. */
import { PiperParallelError, toError } from '../core/errors.js';
import type { WorkerMessage } from './messages.js';

export function failureMessage(err: unknown): WorkerMessage {
  const e = toError(err);
  return { type: 'failed', message: e.message, code: e instanceof PiperParallelError ? e.code : undefined };
}
