import { Worker } from 'node:worker_threads';
import { PiperParallelError, toError } from '../core/errors.js';
import type { VoiceConfig } from './format/config.js';
import type { PreparedText } from './text.js';
import type { PrepareReply, PrepareRequest } from './prepare-messages.js';

const ENTRY = new URL('./prepare-text-entry.js', import.meta.url);

/**
 * prepareText in a thread of its own that ends when it is done, so the phonemizer's memory
 * leaves with it. Rejects after `timeoutMs` (the thread is stopped) rather than wait forever.
 */
export async function prepareTextApart(
  lines: readonly string[],
  config: VoiceConfig,
  timeoutMs = 120_000,
): Promise<PreparedText> {
  const worker = new Worker(ENTRY, { workerData: { lines: [...lines], config } satisfies PrepareRequest });
  try {
    const reply = await new Promise<PrepareReply>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new PiperParallelError(
              'TIMEOUT',
              `phonemizing the text took over ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}; give a shorter text`,
            ),
          ),
        timeoutMs,
      );
      worker.once('message', (m: PrepareReply) => {
        clearTimeout(timer);
        resolve(m);
      });
      worker.once('error', (err) => {
        clearTimeout(timer);
        reject(
          new PiperParallelError('PHONEMIZE', `the phonemizer thread failed (${toError(err).message})`, { cause: err }),
        );
      });
      worker.once('exit', (code) => {
        clearTimeout(timer);
        reject(new PiperParallelError('PHONEMIZE', `the phonemizer thread ended (exit ${code}) without an answer`));
      });
    });
    if (reply.state === 'failed') throw new PiperParallelError(reply.code ?? 'PHONEMIZE', reply.message);
    return reply.prepared;
  } finally {
    await worker.terminate();
  }
}
