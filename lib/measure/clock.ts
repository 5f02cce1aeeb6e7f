import { readFileSync } from 'node:fs';
import os from 'node:os';

/** The system monotonic clock (CLOCK_MONOTONIC) in ms: the same clock in every process of the machine. */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Wait until `atMs` on the monotonic clock: sleep most of the way, spin the last stretch. */
export async function waitUntil(atMs: number, now: () => number = monotonicMs): Promise<void> {
  const spinMs = 3;
  const ahead = atMs - now() - spinMs;
  if (ahead > 0) await new Promise((r) => setTimeout(r, ahead));
  while (now() < atMs) {
    // spin: a timer alone wakes up to a millisecond late
  }
}

/** Parse a kernel CPU list such as "0-2,5" into [0,1,2,5]. */
export function parseCpuList(list: string): number[] {
  const cores: number[] = [];
  for (const part of list.trim().split(',')) {
    if (part === '') continue;
    const [a, b] = part.split('-');
    const from = Number(a);
    const to = b === undefined ? from : Number(b);
    if (!Number.isInteger(from) || !Number.isInteger(to)) throw new Error(`not a CPU list: "${list}"`);
    for (let c = from; c <= to; c += 1) cores.push(c);
  }
  return cores;
}

/** Cores the calling process (or thread, with `thread-self`) may run on, from /proc. */
export function allowedCores(statusPath = '/proc/self/status'): number[] {
  try {
    const status = readFileSync(statusPath, 'utf8');
    const line = status.split('\n').find((l) => l.startsWith('Cpus_allowed_list:'));
    if (line) return parseCpuList(line.slice('Cpus_allowed_list:'.length));
  } catch {
    // not Linux: fall back below
  }
  return Array.from({ length: os.availableParallelism() }, (_, i) => i);
}
