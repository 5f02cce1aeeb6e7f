import type * as Ort from 'onnxruntime-node';
import { PiperParallelError, toError } from '../core/errors.js';

let loading: Promise<typeof Ort> | undefined;

/**
 * onnxruntime-node, loaded on first use. Its native binding may be missing or unloadable (an install
 * whose script failed part way, another platform): that is one line saying what to do, never a stack.
 */
export function loadOnnxruntime(): Promise<typeof Ort> {
  quietTelemetry();
  loading ??= import('onnxruntime-node').catch((err: unknown) => {
    loading = undefined;
    const why = toError(err).message.split('\n')[0];
    throw new PiperParallelError(
      'RUNTIME',
      `onnxruntime-node could not be loaded (${why}); install it again with ONNXRUNTIME_NODE_INSTALL=skip ` +
        `npm install (its install script otherwise fetches CUDA libraries a CPU benchmark never uses; ` +
        `see "Use it from your own project" in the README)`,
      { cause: err },
    );
  });
  return loading;
}

/**
 * onnxruntime-node 1.30 on Linux starts a telemetry client with every session unless
 * ORT_DISABLE_TELEMETRY is set: a background uploader inside the processes being timed, and two files
 * per process left in the temporary folder (an empty mat-debug-PID.log and a .ses). Read when a
 * session is created, so setting it here, before any, is enough; a value the user set is kept.
 */
export function quietTelemetry(): void {
  process.env.ORT_DISABLE_TELEMETRY ??= '1';
}
