import type { Condition } from '../archive/schema.js';

/** How a server is built: W workers (one per stream, or a fixed count) of T threads each. */
export interface Layout {
  /** 'K': one worker per listener; a number: a fixed pool. */
  workers: 'K' | number;
  threads: number;
  pinned: boolean;
  isolation: Condition['isolation'];
}

/** The workers serving K listeners. */
export const workersAt = (l: Layout, k: number): number => (l.workers === 'K' ? k : l.workers);

/**
 * The default layouts on C cores: one process per stream (free and pinned), one process with C
 * threads, and a pool of C one-thread processes.
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
  const unit = l.isolation === 'thread' ? 'thread worker' : 'process';
  const who = l.workers === 'K' ? `one ${unit} per stream` : `${l.workers} ${unit}${l.workers > 1 ? (l.isolation === 'thread' ? 's' : 'es') : ''}`;
  return `${who} x ${l.threads} thread${l.threads > 1 ? 's' : ''}, ${l.pinned ? 'pinned' : 'free'}`;
}
