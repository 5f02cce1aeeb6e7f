import type * as Ort from 'onnxruntime-node';
import { PiperParallelError, toError } from '../errors.js';

let loading: Promise<typeof Ort> | undefined;

/**
 * onnxruntime-node, loaded on first use. Its native binding may be missing or unloadable (an install
 * whose script failed part way, another platform): that is one line saying what to do, never a stack.
 */
export function loadOnnxruntime(): Promise<typeof Ort> {
  loading ??= import('onnxruntime-node').catch((err: unknown) => {
    loading = undefined;
    const why = toError(err).message.split('\n')[0];
    throw new PiperParallelError('RUNTIME', `onnxruntime-node could not be loaded (${why}); install it again with ONNXRUNTIME_NODE_INSTALL=skip npm install (its install script otherwise fetches CUDA libraries a CPU benchmark never uses; see "Use it from your own project" in the README)`, { cause: err });
  });
  return loading;
}
