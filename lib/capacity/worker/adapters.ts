/** The worker adapters a capacity run uses by default: the shared adapters on this folder's serving entries. */
import { fileURLToPath } from 'node:url';
import { ProcessAdapter } from '../../workers/process-adapter.js';
import { ThreadAdapter } from '../../workers/thread-adapter.js';
import type { WorkerAdapter } from '../../workers/worker.js';

const PROCESS_ENTRY = fileURLToPath(new URL('./capacity-process.js', import.meta.url));
const THREAD_ENTRY = fileURLToPath(new URL('./capacity-thread.js', import.meta.url));

export function capacityAdapters(given: { process?: WorkerAdapter; thread?: WorkerAdapter } = {}): {
  process: WorkerAdapter;
  thread: WorkerAdapter;
} {
  return {
    process: given.process ?? new ProcessAdapter({ entry: PROCESS_ENTRY }),
    thread: given.thread ?? new ThreadAdapter({ entry: THREAD_ENTRY }),
  };
}
