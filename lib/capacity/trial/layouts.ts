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
  /** `server`: a running server, a connection per listener (see setup/server.ts). */
  isolation: Condition['isolation'] | 'server';
}

/** The workers serving K listeners. */
export const workersAt = (l: Layout, k: number): number => (l.workers === 'K' ? k : l.workers);

/** Each listener has its own worker. */
export const dedicated = (l: Layout): boolean => l.workers === 'K';

/** The layouts `--layouts` names: one process per stream (free or pinned), one process with C threads, a pool of C. */
export const LAYOUT_CHOICES = ['stream', 'stream-pinned', 'threads', 'pool'] as const;
export type LayoutChoice = (typeof LAYOUT_CHOICES)[number];

/**
 * The default: one process per stream (free), one process with C threads, a pool of C one-thread processes. The
 * pinned per-stream layout is asked for by name: a per-stream turn spends 10-13 s starting its workers on a
 * 2-vCPU VM, and the two per-stream layouts took two thirds of a default run (docs/capacity.md).
 */
export const DEFAULT_LAYOUT_CHOICES: readonly LayoutChoice[] = ['stream', 'threads', 'pool'];

/** The layouts named, on C cores, in the order named; a pool needs more than one core. */
export function layoutsNamed(
  names: readonly LayoutChoice[],
  cores: number,
  isolation: Condition['isolation'] = 'process',
): Layout[] {
  const of: Record<LayoutChoice, Layout | null> = {
    stream: { workers: 'K', threads: 1, pinned: false, isolation },
    'stream-pinned': { workers: 'K', threads: 1, pinned: true, isolation },
    threads: { workers: 1, threads: cores, pinned: false, isolation },
    pool: cores > 1 ? { workers: cores, threads: 1, pinned: false, isolation } : null,
  };
  return [...new Set(names)].flatMap((n) => (of[n] ? [of[n]] : []));
}

/** The default layouts on C cores (DEFAULT_LAYOUT_CHOICES). */
export function defaultLayouts(cores: number, isolation: Condition['isolation'] = 'process'): Layout[] {
  return layoutsNamed(DEFAULT_LAYOUT_CHOICES, cores, isolation);
}

export function layoutName(l: Layout): string {
  if (l.isolation === 'server') return 'a connection per listener';
  const unit = l.isolation === 'thread' ? 'thread worker' : 'process';
  const units = l.isolation === 'thread' ? 'thread workers' : 'processes';
  const who =
    l.workers === 'K' ? `one ${unit} per stream` : l.workers === 1 ? `1 ${unit}` : `pool of ${l.workers} ${units}`;
  return `${who} x ${l.threads} thread${l.threads > 1 ? 's' : ''}, ${l.pinned ? 'pinned' : 'free'}`;
}
