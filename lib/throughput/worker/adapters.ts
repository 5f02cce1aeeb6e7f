/**
 * The worker adapters a throughput run uses by default: the shared process and thread adapters,
 * started on this folder's stream entries.
 */
import { fileURLToPath } from 'node:url';
import { ProcessAdapter as WorkerProcessAdapter } from '../../workers/process-adapter.js';
import { ThreadAdapter as WorkerThreadAdapter } from '../../workers/thread-adapter.js';

type ProcessOptions = ConstructorParameters<typeof WorkerProcessAdapter>[0];
type ThreadOptions = ConstructorParameters<typeof WorkerThreadAdapter>[0];

/** Scripts that watch a run's processes find its streams by this file name. */
export const PROCESS_STREAM_ENTRY = fileURLToPath(new URL('./process-stream.js', import.meta.url));
export const THREAD_STREAM_ENTRY = fileURLToPath(new URL('./thread-stream.js', import.meta.url));

/** Each stream in its own Node process (util-linux taskset when pinned); the entry defaults to the stream's. */
export class ProcessAdapter extends WorkerProcessAdapter {
  constructor(options: Partial<ProcessOptions> = {}) {
    super({ ...options, entry: options.entry ?? PROCESS_STREAM_ENTRY });
  }
}

/** Each stream a worker thread of this process (piscina, a shared-memory barrier). */
export class ThreadAdapter extends WorkerThreadAdapter {
  constructor(options: Partial<ThreadOptions> = {}) {
    super({ ...options, entry: options.entry ?? THREAD_STREAM_ENTRY });
  }
}
