/**
 * Memory pressure, read from /proc: pages the machine swapped (in and out, machine-wide) and major
 * page faults of a process. A swapping machine's figures are not the layout's.
 */
import { readFileSync } from 'node:fs';

/** pswpin + pswpout from /proc/vmstat text; null when either is missing. */
export function parseSwapPages(vmstat: string): number | null {
  const read = (key: string): number | undefined => {
    const m = new RegExp(`^${key} (\\d+)$`, 'm').exec(vmstat);
    return m ? Number(m[1]) : undefined;
  };
  const pagesIn = read('pswpin');
  const pagesOut = read('pswpout');
  return pagesIn === undefined || pagesOut === undefined ? null : pagesIn + pagesOut;
}

/** majflt (field 12) from /proc/<pid>/stat text; the command name in parentheses may hold spaces. */
export function parseMajorFaults(stat: string): number | null {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const value = Number(fields[9]);
  return Number.isInteger(value) && value >= 0 ? value : null;
}

/** The machine's swapped pages so far; null where /proc/vmstat cannot be read. */
export function readSwapPages(file = '/proc/vmstat'): number | null {
  try {
    return parseSwapPages(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Peak resident memory of this process so far (VmHWM), in bytes; undefined where unreadable. */
export function readOwnPeakRss(): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** This process's major page faults so far; undefined where unreadable. */
export function readOwnMajorFaults(): number | undefined {
  try {
    return parseMajorFaults(readFileSync('/proc/self/stat', 'utf8')) ?? undefined;
  } catch {
    return undefined;
  }
}

/** MemAvailable from /proc/meminfo, in bytes; null where unreadable. */
export function readMemAvailable(): number | null {
  try {
    const m = /^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}
