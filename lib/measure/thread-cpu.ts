import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The calling thread's kernel id, from /proc/thread-self (-> "<pid>/task/<tid>"). */
export function currentTid(): number {
  const link = readlinkSync('/proc/thread-self');
  const tid = Number(link.split('/').pop());
  if (!Number.isInteger(tid)) throw new Error(`cannot read the thread id from /proc/thread-self (${link})`);
  return tid;
}

/** Thread ids of this process. */
export function processTids(): number[] {
  return readdirSync('/proc/self/task').map(Number).filter(Number.isInteger);
}

/** Nanoseconds a thread spent on CPU: the first field of its schedstat. */
export function parseSchedstat(text: string): number {
  const ns = Number(text.trim().split(/\s+/)[0]);
  if (!Number.isFinite(ns)) throw new Error(`not a schedstat line: "${text.trim()}"`);
  return ns;
}

/**
 * CPU seconds of the given threads of this process. A pool thread that ended counts as 0, but the
 * first thread (the stream's own, alive while it asks) must be readable and non-zero: on a host
 * whose schedstat is missing or all zero the answer is null, unknown, never 0%.
 */
export function threadsCpuSeconds(
  tids: readonly number[],
  read: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): number | null {
  let ns = 0;
  for (const [i, tid] of tids.entries()) {
    let own: number;
    try {
      own = parseSchedstat(read(`/proc/self/task/${tid}/schedstat`));
    } catch {
      if (i === 0) return null;
      continue;
    }
    if (i === 0 && own <= 0) return null;
    ns += own;
  }
  return tids.length === 0 ? null : ns / 1e9;
}

/** Where the calling thread's time went, ms since it started, and its major page faults. */
export interface OwnTimes {
  onCpuMs: number;
  /** Runnable but not running: waiting for a core (schedstat's second field). */
  waitingMs: number;
  majorFaults: number;
}

/** The calling thread's own times from /proc/thread-self; null where they cannot be read (not Linux). */
export function readOwnTimes(read: (path: string) => string = (p) => readFileSync(p, 'utf8')): OwnTimes | null {
  try {
    const [cpu, wait] = read('/proc/thread-self/schedstat').trim().split(/\s+/).map(Number);
    const stat = read('/proc/thread-self/stat');
    // Fields after the command name (which may hold spaces): state is field 3, majflt field 12.
    const majflt = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[9]);
    if (![cpu, wait, majflt].every((x) => Number.isFinite(x))) return null;
    return { onCpuMs: (cpu as number) / 1e6, waitingMs: (wait as number) / 1e6, majorFaults: majflt };
  } catch {
    return null;
  }
}
