import { readFileSync } from 'node:fs';

/** Linux reports /proc/stat and /proc/<pid>/stat times in USER_HZ, which the ABI fixes at 100. */
export const TICKS_PER_SECOND = 100;

export interface CpuSnapshot {
  /** Busy ticks of the whole machine (all cores): user, nice, system, irq, softirq, steal. */
  systemBusyTicks: number;
  /** Ticks of this process and its reaped children: utime, stime, cutime, cstime. */
  ownTicks: number;
  atMs: number;
}

export interface CpuSampler {
  snapshot(): CpuSnapshot;
}

export function parseProcStatBusy(text: string): number {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) throw new Error('no aggregate cpu line in /proc/stat');
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = f;
  return user + nice + system + irq + softirq + steal;
}

export function parseSelfStatTicks(text: string): number {
  // The command name may hold spaces and parentheses: fields start after the last ')'.
  const rest = text.slice(text.lastIndexOf(')') + 2).trim().split(/\s+/).map(Number);
  // rest[0] is field 3 (state); utime..cstime are fields 14..17.
  return (rest[11] ?? 0) + (rest[12] ?? 0) + (rest[13] ?? 0) + (rest[14] ?? 0);
}

export const procSampler: CpuSampler = {
  snapshot: () => ({
    systemBusyTicks: parseProcStatBusy(readFileSync('/proc/stat', 'utf8')),
    ownTicks: parseSelfStatTicks(readFileSync('/proc/self/stat', 'utf8')),
    atMs: performance.now(),
  }),
};

/** Average CPU other programs used between two snapshots, in cores (0.35 = 35% of one core). */
export function outsideCores(a: CpuSnapshot, b: CpuSnapshot): number {
  const seconds = (b.atMs - a.atMs) / 1000;
  if (seconds <= 0) return 0;
  const outsideTicks = b.systemBusyTicks - a.systemBusyTicks - (b.ownTicks - a.ownTicks);
  // Tick rounding can make a quiet machine read a hair below zero; that is still no outside load.
  return Math.max(0, outsideTicks / TICKS_PER_SECOND / seconds);
}
