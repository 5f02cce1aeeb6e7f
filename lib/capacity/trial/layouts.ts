import type { Condition } from '../../archive/common-schema.js';

/**
 * How a server is built. `workers: 'K'`: each listener gets a worker of its own, which serves only
 * that listener's sentences, in order (a process per call). A number: a pool of that many workers
 * serving every listener from one queue.
 */
export interface Layout {
  workers: 'K' | number;
  threads: number;
  pinned: boolean;
  /** `server`: a running server, a connection per listener (see run/server.ts). */
  isolation: Condition['isolation'] | 'server';
}

/** The workers serving K listeners. */
export const workersAt = (l: Layout, k: number): number => (l.workers === 'K' ? k : l.workers);

/** Each listener has its own worker. */
export const dedicated = (l: Layout): boolean => l.workers === 'K';

/**
 * The default layouts on C cores: one process per stream (free and pinned), a pool of C one-thread
 * processes, and one process with C threads.
 */
export function defaultLayouts(cores: number, isolation: Condition['isolation'] = 'process'): Layout[] {
  const out: Layout[] = [
    { workers: 'K', threads: 1, pinned: false, isolation },
    { workers: 'K', threads: 1, pinned: true, isolation },
    { workers: 1, threads: cores, pinned: false, isolation },
  ];
  if (cores > 1) out.push({ workers: cores, threads: 1, pinned: false, isolation });
  return out;
}

export function layoutName(l: Layout): string {
  if (l.isolation === 'server') return 'a connection per listener';
  const unit = l.isolation === 'thread' ? 'thread worker' : 'process';
  const units = l.isolation === 'thread' ? 'thread workers' : 'processes';
  const who =
    l.workers === 'K' ? `one ${unit} per stream` : l.workers === 1 ? `1 ${unit}` : `pool of ${l.workers} ${units}`;
  return `${who} x ${l.threads} thread${l.threads > 1 ? 's' : ''}, ${l.pinned ? 'pinned' : 'free'}`;
}
