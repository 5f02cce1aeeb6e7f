/** A check that can fail; any failure means nothing from the run may be published. */
import { maxOf, minOf } from '../core/extremes.js';
export interface Control {
  name:
    | 'cpu_max'
    | 'cpu_sum'
    | 'affinity'
    | 'start_skew'
    | 'overlap'
    | 'outside_load'
    | 'memory'
    | 'arrivals'
    | 'client_cpu';
  threshold: number;
  /** null: the figure could not be read, so the control could not check and does not hold. */
  measured: number | null;
  unit: string;
  held: boolean;
  /** What it means, with the figures; for a failure, by how much. */
  message: string;
}

const round = (x: number, digits = 1): number => Number(x.toFixed(digits));

/** A control whose figure is unknown: it says it could not check, and does not hold. */
function unknown(name: Control['name'], threshold: number, unit: string, what: string): Control {
  return {
    name,
    threshold,
    measured: null,
    unit,
    held: false,
    message: `${what} could not be read, so ${name} could not be checked`,
  };
}

/** Every stream's max CPU% stays under 110% per thread: its threads did not grow. */
export function cpuMaxControl(maxCpuPercentPerChild: readonly (number | null)[], threads: number): Control {
  const threshold = 110 * threads;
  const missing = maxCpuPercentPerChild.findIndex((v) => v === null || !Number.isFinite(v));
  if (missing >= 0) return unknown('cpu_max', threshold, '%', `stream ${missing}'s CPU`);
  const known = maxCpuPercentPerChild as readonly number[];
  const measured = maxOf(known);
  const worst = known.indexOf(measured);
  const held = measured < threshold;
  return {
    name: 'cpu_max',
    threshold,
    measured: round(measured),
    unit: '%',
    held,
    message: held
      ? `every stream stayed under ${threshold}% CPU (highest ${round(measured)}%)`
      : `stream ${worst} reached ${round(measured)}% CPU, over the ${threshold}% limit for ${threads} thread(s) by ${round(measured - threshold)} points`,
  };
}

/**
 * With K >= 2, the streams' median CPU% add up to more than 75% of what they could use: they really
 * ran together. What a stream can use is min(its threads, the cores it may run on): a pinned stream
 * tops out at one core whatever its T. `usableCoresPerStream` holds that figure for each stream.
 */
export function cpuSumControl(
  medianCpuPercentPerChild: readonly (number | null)[],
  usableCoresPerStream: readonly number[],
  cores: number,
): Control | undefined {
  const k = medianCpuPercentPerChild.length;
  if (k < 2) return undefined;
  const usable = usableCoresPerStream.reduce((a, b) => a + b, 0);
  const threshold = 75 * Math.min(usable, cores);
  const missing = medianCpuPercentPerChild.findIndex((v) => v === null || !Number.isFinite(v));
  if (missing >= 0) return unknown('cpu_sum', threshold, '%', `stream ${missing}'s CPU`);
  const measured = (medianCpuPercentPerChild as readonly number[]).reduce((a, b) => a + b, 0);
  const held = measured > threshold;
  return {
    name: 'cpu_sum',
    threshold,
    measured: round(measured),
    unit: '%',
    held,
    message: held
      ? `the ${k} streams' median CPU adds up to ${round(measured)}% (> ${threshold}%): they ran together`
      : `the ${k} streams' median CPU adds up to ${round(measured)}%, ${round(threshold - measured)} points short of ${threshold}%: they did not run together`,
  };
}

/**
 * Pinned: each stream sees one core and the cores are distinct (min(K, cores) of them).
 * Free: each stream sees every core the run may use.
 */
export function affinityControl(
  seen: readonly (readonly number[])[],
  requested: boolean,
  allCores: readonly number[],
): Control {
  const k = seen.length;
  if (requested) {
    const expected = Math.min(k, allCores.length);
    const single = seen.every((s) => s.length === 1);
    const distinct = new Set(seen.map((s) => s.join(','))).size;
    const held = single && distinct === expected;
    return {
      name: 'affinity',
      threshold: expected,
      measured: distinct,
      unit: 'distinct cores',
      held,
      message: held
        ? `each stream saw one core, ${distinct} distinct as expected`
        : `pinning did not hold: streams saw ${seen.map((s) => `[${s.join(',')}]`).join(' ')}, expected one core each on ${expected} distinct cores`,
    };
  }
  const full = [...allCores].sort((a, b) => a - b).join(',');
  const withFull = seen.filter((s) => [...s].sort((a, b) => a - b).join(',') === full).length;
  const held = withFull === k;
  return {
    name: 'affinity',
    threshold: k,
    measured: withFull,
    unit: 'streams seeing every core',
    held,
    message: held
      ? `every stream saw all ${allCores.length} cores`
      : `${k - withFull} of ${k} streams did not see every core [${full}]: ${seen.map((s) => `[${s.join(',')}]`).join(' ')}`,
  };
}

/** With K >= 2, the largest start skew of any pass is at most 2% of the median pass compute time. */
export function skewControl(
  skewsMs: readonly number[],
  medianComputeSeconds: number,
  streams: number,
): Control | undefined {
  if (streams < 2) return undefined;
  const threshold = 0.02 * medianComputeSeconds * 1000;
  const measured = maxOf(skewsMs);
  if (!Number.isFinite(measured) || !Number.isFinite(threshold))
    return unknown('start_skew', Number.isFinite(threshold) ? round(threshold, 3) : 0, 'ms', 'the start skew');
  const held = measured <= threshold;
  return {
    name: 'start_skew',
    threshold: round(threshold, 3),
    measured: round(measured, 3),
    unit: 'ms',
    held,
    message: held
      ? `passes started within ${round(measured, 3)} ms of each other (limit ${round(threshold, 1)} ms)`
      : `a pass started ${round(measured, 3)} ms apart, over the ${round(threshold, 1)} ms limit (2% ` +
        `of the median pass) by ${round(measured - threshold, 3)} ms`,
  };
}

/** Below this share of the shortest stream's window with every stream computing, the streams did not run together. */
export const MIN_OVERLAP = 0.75;

/**
 * With K >= 2, in every timed pass the share of the shortest stream's own window (its start to its
 * end) during which all K streams were computing (latest start to earliest end) is at least 75%.
 * cpu_sum reads each stream over its own window, so a stream that starts late and then spins flat
 * out passes it; this reads the windows against each other. The shortest window, not the pass's
 * span: on a rented VM one core now and then runs a third faster than the other (K=2 streams started
 * together, one done after 5.0 s, the other 7.0 s), and that stream still computed beside the
 * other from its first instant to its last; judged on the span, such passes fell to 38-74% and
 * failed. A stream that starts half-way through the others' pass and runs as long gives 50%.
 */
export function overlapControl(
  passes: ReadonlyArray<{ startsMs: readonly number[]; endsMs: readonly number[] }>,
  streams: number,
): Control | undefined {
  if (streams < 2) return undefined;
  const shares = passes.map((p) => {
    const shortest = minOf(p.startsMs.map((start, i) => (p.endsMs[i] ?? Number.NaN) - start));
    return shortest > 0 ? Math.max(0, minOf(p.endsMs) - maxOf(p.startsMs)) / shortest : Number.NaN;
  });
  const measured = minOf(shares);
  if (shares.length === 0 || !Number.isFinite(measured))
    return unknown('overlap', MIN_OVERLAP * 100, '%', "the passes' start and end times");
  const held = measured >= MIN_OVERLAP;
  const pct = round(measured * 100);
  return {
    name: 'overlap',
    threshold: MIN_OVERLAP * 100,
    measured: pct,
    unit: '%',
    held,
    message: held
      ? `every pass had all ${streams} streams computing together for at least ${pct}% of its shortest stream's time (limit ${MIN_OVERLAP * 100}%)`
      : `in one pass all ${streams} streams computed together for only ${pct}% of its shortest stream's ` +
        `time, under the ${MIN_OVERLAP * 100}% limit by ${round(MIN_OVERLAP * 100 - pct)} points: a ` +
        `stream ran apart from the others`,
  };
}

/**
 * Outside load during the arm's timed passes, on the cores the run may use: CPU used by other
 * programs stays at or under 10% of one core.
 */
export function outsideLoadControl(outsideCores: number | null): Control {
  const threshold = 10;
  if (outsideCores === null || !Number.isFinite(outsideCores))
    return unknown('outside_load', threshold, '% of one core', "the machine's CPU");
  const measured = round(outsideCores * 100);
  const held = measured <= threshold;
  return {
    name: 'outside_load',
    threshold,
    measured,
    unit: '% of one core',
    held,
    message: held
      ? `other programs used ${measured}% of a core during this arm's timed passes (limit ${threshold}%)`
      : `another program used ${measured}% of a core during this arm's timed passes, over the ${threshold}% limit by ${round(measured - threshold)} points`,
  };
}

/**
 * Measuring a server: the parent, which asks for every listener's sentences and reads every answer, used at most
 * half a core during the trial, so it was not what held the listeners back.
 */
export function clientCpuControl(clientCores: number | null): Control {
  const threshold = 50;
  if (clientCores === null || !Number.isFinite(clientCores))
    return unknown('client_cpu', threshold, '% of one core', "the measuring process's CPU");
  const measured = round(clientCores * 100);
  const held = measured <= threshold;
  return {
    name: 'client_cpu',
    threshold,
    measured,
    unit: '% of one core',
    held,
    message: held
      ? `the measuring side used ${measured}% of a core (limit ${threshold}%): it did not hold the server back`
      : `the measuring side used ${measured}% of a core, over the ${threshold}% limit: it may have been the bottleneck, not the server`,
  };
}

/** Major page faults that code run for the first time brings (shared-library pages read from disk); a machine short of memory makes far more. */
export const MAJOR_FAULTS_ALLOWED = 64;

/**
 * Memory: the machine swapped no page during the arm, and the streams took at most a few major
 * page faults in their timed passes. A machine short of memory measures its disk, not the layout.
 * `majorFaultsPerStream` counts each stream's faults from the pass before each timed pass to its end.
 */
export function memoryControl(swapPages: number | null, majorFaultsPerStream: readonly (number | null)[]): Control {
  const threshold = MAJOR_FAULTS_ALLOWED;
  if (swapPages === null) return unknown('memory', threshold, 'pages', "the machine's swap counters (/proc/vmstat)");
  const missing = majorFaultsPerStream.findIndex((v) => v === null);
  if (missing >= 0) return unknown('memory', threshold, 'pages', `stream ${missing}'s major page faults`);
  const faults = (majorFaultsPerStream as readonly number[]).reduce((a, b) => a + b, 0);
  const measured = swapPages + faults;
  const held = swapPages === 0 && faults <= threshold;
  return {
    name: 'memory',
    threshold,
    measured,
    unit: 'pages',
    held,
    message: held
      ? `no page swapped and ${faults} major page fault(s) in the timed work (at most ${threshold}, what code run for the first time brings)`
      : swapPages > 0
        ? `the machine swapped ${swapPages} page(s) during the arm (and the streams took ${faults} major ` +
          `page faults): memory ran short; run fewer streams or free memory`
        : `the streams took ${faults} major page faults in the timed work, over ${threshold}: memory ran short; run fewer streams or free memory`,
  };
}

/**
 * Capacity: every listener arrived when planned, within 5 ms (a late arrival flatters the layout),
 * leaving out the time the whole machine stopped (workers too, so the load was not lightened):
 * `machineStoppedMs`, the most of that in one arrival, is said.
 */
export function arrivalsControl(worstLatenessMs: number | null, machineStoppedMs = 0): Control {
  const threshold = 5;
  if (worstLatenessMs === null || !Number.isFinite(worstLatenessMs))
    return unknown('arrivals', threshold, 'ms', 'the arrival times');
  const measured = round(worstLatenessMs, 2);
  const held = measured <= threshold;
  return {
    name: 'arrivals',
    threshold,
    measured,
    unit: 'ms',
    held,
    message: held
      ? `every listener arrived within ${measured} ms of its plan` +
        (machineStoppedMs > 0 ? ` (leaving out up to ${round(machineStoppedMs, 1)} ms the whole machine stopped)` : '')
      : `a listener arrived ${measured} ms after its plan, over the ${threshold} ms limit: the parent was too busy ` +
        `(its own work, or waiting for a core) to keep time`,
  };
}
