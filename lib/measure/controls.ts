/** A check that can fail; any failure means nothing from the run may be published. */
export interface Control {
  name: 'cpu_max' | 'cpu_sum' | 'affinity' | 'start_skew' | 'outside_load';
  threshold: number;
  measured: number;
  unit: string;
  held: boolean;
  /** What it means, with the figures; for a failure, by how much. */
  message: string;
}

const round = (x: number, digits = 1): number => Number(x.toFixed(digits));

/** Every stream's max CPU% stays under 110% per thread: its threads did not grow. */
export function cpuMaxControl(maxCpuPercentPerChild: readonly number[], threads: number): Control {
  const threshold = 110 * threads;
  const measured = Math.max(...maxCpuPercentPerChild);
  const worst = maxCpuPercentPerChild.indexOf(measured);
  const held = Number.isFinite(measured) && measured < threshold;
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

/** With K >= 2, the streams' median CPU% add up to more than 75% of what they could use: they really ran together. */
export function cpuSumControl(medianCpuPercentPerChild: readonly number[], threads: number, cores: number): Control | undefined {
  const k = medianCpuPercentPerChild.length;
  if (k < 2) return undefined;
  const threshold = 75 * Math.min(k * threads, cores);
  const measured = medianCpuPercentPerChild.reduce((a, b) => a + b, 0);
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
export function affinityControl(seen: readonly (readonly number[])[], requested: boolean, allCores: readonly number[]): Control {
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
export function skewControl(skewsMs: readonly number[], medianComputeSeconds: number, streams: number): Control | undefined {
  if (streams < 2) return undefined;
  const threshold = 0.02 * medianComputeSeconds * 1000;
  const measured = Math.max(...skewsMs);
  const held = Number.isFinite(measured) && measured <= threshold;
  return {
    name: 'start_skew',
    threshold: round(threshold, 3),
    measured: round(measured, 3),
    unit: 'ms',
    held,
    message: held
      ? `passes started within ${round(measured, 3)} ms of each other (limit ${round(threshold, 1)} ms)`
      : `a pass started ${round(measured, 3)} ms apart, over the ${round(threshold, 1)} ms limit (2% of the median pass) by ${round(measured - threshold, 3)} ms`,
  };
}

/** Outside load during the arm: CPU used by other programs stays at or under 10% of one core. */
export function outsideLoadControl(outsideCores: number): Control {
  const threshold = 10;
  const measured = round(outsideCores * 100);
  const held = Number.isFinite(measured) && measured <= threshold;
  return {
    name: 'outside_load',
    threshold,
    measured,
    unit: '% of one core',
    held,
    message: held
      ? `other programs used ${measured}% of a core during this arm (limit ${threshold}%)`
      : `another program used ${measured}% of a core during this arm, over the ${threshold}% limit by ${round(measured - threshold)} points`,
  };
}
