/**
 * Entry of the short-lived thread that phonemizes a stream's text. The WebAssembly phonemizer
 * keeps tens of MiB once loaded; running it here and ending the thread gives that memory back
 * before the passes, so a stream's resident size is its voice, not its phonemizer.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PiperParallelError, toError } from '../core/errors.js';
import { prepareText } from './text.js';
import type { PrepareReply, PrepareRequest } from './prepare-messages.js';

const request = workerData as PrepareRequest;
let reply: PrepareReply;
try {
  reply = { state: 'done', prepared: await prepareText(request.lines, request.config) };
} catch (err) {
  const e = toError(err);
  reply = { state: 'failed', message: e.message, code: e instanceof PiperParallelError ? e.code : undefined };
}
parentPort?.postMessage(reply);
