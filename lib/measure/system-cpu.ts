import { readFileSync } from 'node:fs';

/** Linux reports /proc/stat and /proc/<pid>/stat times in USER_HZ, which the ABI fixes at 100. */
export const TICKS_PER_SECOND = 100;

export interface CpuSnapshot {
  /**
   * Busy ticks (user, nice, system, irq, softirq) of the cores the run may use. Steal is left out: it is time the
   * hypervisor gave the vCPUs to another tenant, no program of this machine, and a rented machine's own condition
   * (kept apart in stealTicks, archived and said), so it never fails the outside-load control.
   */
  systemBusyTicks: number;
  /** Ticks of this process, its reaped children, and the live stream processes named. */
  ownTicks: number;
  /** Steal ticks of those cores: time the hypervisor gave their vCPUs to someone else (absent: not read). */
  stealTicks?: number;
  atMs: number;
}

export interface CpuSampler {
  /** `pids`: live stream processes whose CPU is the run's own, not outside load. */
  snapshot(pids?: readonly number[]): CpuSnapshot;
}

function busyOf(fields: number[]): number {
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = fields;
  return user + nice + system + irq + softirq;
}

/** The `cpu` fields of the whole machine (`cores` undefined) or of each listed core's `cpuN` line. */
function statFields(text: string, cores?: readonly number[]): number[][] {
  const lines = text.split('\n');
  const fields = (l: string): number[] => l.trim().split(/\s+/).slice(1).map(Number);
  if (cores === undefined) {
    const line = lines.find((l) => l.startsWith('cpu '));
    if (!line) throw new Error('no aggregate cpu line in /proc/stat');
    return [fields(line)];
  }
  return cores.map((core) => {
    const line = lines.find((l) => l.startsWith(`cpu${core} `));
    if (!line) throw new Error(`no cpu${core} line in /proc/stat`);
    return fields(line);
  });
}

/** Busy ticks of the whole machine (`cores` undefined) or of the listed cores' `cpuN` lines. */
export function parseProcStatBusy(text: string, cores?: readonly number[]): number {
  return statFields(text, cores).reduce((n, f) => n + busyOf(f), 0);
}

/** Steal ticks (the 8th field) of the whole machine or of the listed cores. */
export function parseProcStatSteal(text: string, cores?: readonly number[]): number {
  return statFields(text, cores).reduce((n, f) => n + (f[7] ?? 0), 0);
}

/** utime + stime (+ cutime + cstime with `withChildren`) of a /proc/<pid>/stat line. */
export function parseSelfStatTicks(text: string, withChildren = true): number {
  // The command name may hold spaces and parentheses: fields start after the last ')'.
  const rest = text
    .slice(text.lastIndexOf(')') + 2)
    .trim()
    .split(/\s+/)
    .map(Number);
  // rest[0] is field 3 (state); utime..cstime are fields 14..17.
  const own = (rest[11] ?? 0) + (rest[12] ?? 0);
  return withChildren ? own + (rest[13] ?? 0) + (rest[14] ?? 0) : own;
}

/** How the sampler reads /proc and the clock: the machine's, or a test's. */
export interface ProcReader {
  read: (path: string) => string;
  nowMs: () => number;
}

const machineProc: ProcReader = { read: (p) => readFileSync(p, 'utf8'), nowMs: () => performance.now() };

function pidTicks(pid: number, read: ProcReader['read']): number {
  try {
    return parseSelfStatTicks(read(`/proc/${pid}/stat`), false);
  } catch {
    // Gone: its time is in our cutime once reaped; a pass it did not finish fails anyway.
    return 0;
  }
}

/** Reads /proc for the cores the run may use (all cores when none are named). */
export function procCpuSampler(cores?: readonly number[], proc: ProcReader = machineProc): CpuSampler {
  return {
    snapshot: (pids = []) => {
      const stat = proc.read('/proc/stat');
      return {
        systemBusyTicks: parseProcStatBusy(stat, cores),
        stealTicks: parseProcStatSteal(stat, cores),
        ownTicks:
          parseSelfStatTicks(proc.read('/proc/self/stat')) +
          [...new Set(pids)].filter((p) => p !== process.pid).reduce((sum, p) => sum + pidTicks(p, proc.read), 0),
        atMs: proc.nowMs(),
      };
    },
  };
}

/**
 * The share of the cores' time the hypervisor stole between two snapshots (0.07 = 7% of every core),
 * null when either snapshot has no steal figure or no time passed.
 */
export function stealShare(a: CpuSnapshot, b: CpuSnapshot, cores: number): number | null {
  if (a.stealTicks === undefined || b.stealTicks === undefined || cores <= 0) return null;
  const seconds = (b.atMs - a.atMs) / 1000;
  if (seconds <= 0) return null;
  return Math.max(0, (b.stealTicks - a.stealTicks) / TICKS_PER_SECOND / seconds / cores);
}

/** Average CPU other programs used between two snapshots, in cores (0.35 = 35% of one core). */
export function outsideCores(a: CpuSnapshot, b: CpuSnapshot): number {
  return outsideCoresOver([{ before: a, after: b }]);
}

/** The same over several windows (the timed passes of an arm): their outside ticks over their seconds. */
export function outsideCoresOver(windows: ReadonlyArray<{ before: CpuSnapshot; after: CpuSnapshot }>): number {
  let seconds = 0;
  let ticks = 0;
  for (const { before, after } of windows) {
    seconds += (after.atMs - before.atMs) / 1000;
    ticks += after.systemBusyTicks - before.systemBusyTicks - (after.ownTicks - before.ownTicks);
  }
  if (seconds <= 0) return 0;
  // Tick rounding can make a quiet machine read a hair below zero; that is still no outside load.
  return Math.max(0, ticks / TICKS_PER_SECOND / seconds);
}
