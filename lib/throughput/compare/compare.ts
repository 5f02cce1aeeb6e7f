import { mdRow, mdText, stripControl } from '../../report/markdown.js';
import { studentQuantile } from '../../measure/student.js';
import { num } from '../report/format.js';
import { toComparable, type ComparableArm, type ComparablePair, type ComparableRun } from './read.js';

const change = (pct: number | null): string => (pct === null ? '-' : `${pct > 0 ? '+' : ''}${pct.toFixed(1)}%`);

/** One layout ratio in both runs, B's turned to read A over B the same way round as A's. */
export interface RatioRow {
  voice: string;
  k: number;
  a: string;
  b: string;
  inA: { ratio: number | null; interval: [number, number] | null; resolved: boolean };
  inB: { ratio: number | null; interval: [number, number] | null; resolved: boolean };
  /** Resolved in both runs, in opposite directions: the first thing to read. */
  contradiction: boolean;
}

export type MetricVerdict =
  | 'FASTER'
  | 'SLOWER'
  | 'HIGHER'
  | 'LOWER'
  | 'SAME'
  | 'NOISY'
  | 'INCOMPARABLE'
  | 'CONTROLS FAILED'
  | 'ONLY IN A'
  | 'ONLY IN B';

export interface MetricRow {
  arm: string;
  metric: 'aggregate' | 'per_stream' | 'cpu_percent';
  a: number | null;
  b: number | null;
  changePercent: number | null;
  verdict: MetricVerdict;
  why: string;
}

export interface Comparison {
  a: string;
  b: string;
  tolerancePercent: number;
  /** Why the runs cannot be compared at all (different machines or tools), when not forced. */
  refused: string | null;
  /** What --force overrode. */
  forced: string[];
  /** Workload differences: every metric of every arm is INCOMPARABLE. */
  workloadDiffers: string[];
  rows: MetricRow[];
  /** A throughput metric SLOWER beyond the tolerance, in an arm whose controls held in both runs. */
  regression: boolean;
  /** Arms whose throughput was compared (FASTER, SLOWER or SAME); 0 means nothing could be, and says nothing of regressions. */
  comparedArms: number;
  /** Every layout ratio both verdicts have, A beside B (none when the workload differs). */
  ratios: RatioRow[];
}

const invert = (p: ComparablePair): RatioRow['inB'] => ({
  ratio: p.ratio === null ? null : 1 / p.ratio,
  interval: p.interval ? [1 / p.interval[1], 1 / p.interval[0]] : null,
  resolved: p.resolved,
});

/** The layout ratios of A with the same pair in B (in either order), contradictions first. */
export function ratioRows(a: ComparableRun, b: ComparableRun): RatioRow[] {
  const rows = a.pairs.flatMap((p): RatioRow[] => {
    const same = b.pairs.find((q) => q.voice === p.voice && q.k === p.k && q.a === p.a && q.b === p.b);
    const reversed = same
      ? undefined
      : b.pairs.find((q) => q.voice === p.voice && q.k === p.k && q.a === p.b && q.b === p.a);
    const inB = same
      ? { ratio: same.ratio, interval: same.interval, resolved: same.resolved }
      : reversed
        ? invert(reversed)
        : undefined;
    if (!inB) return [];
    const contradiction =
      p.resolved && inB.resolved && p.ratio !== null && inB.ratio !== null && p.ratio > 1 !== inB.ratio > 1;
    return [
      {
        voice: p.voice,
        k: p.k,
        a: p.a,
        b: p.b,
        inA: { ratio: p.ratio, interval: p.interval, resolved: p.resolved },
        inB,
        contradiction,
      },
    ];
  });
  return [...rows.filter((r) => r.contradiction), ...rows.filter((r) => !r.contradiction)];
}

const COUNTED: readonly MetricVerdict[] = ['FASTER', 'SLOWER', 'SAME'];

export interface CompareOptions {
  tolerancePercent?: number;
  force?: boolean;
}

function workloadDifferences(a: ComparableRun, b: ComparableRun): string[] {
  const out: string[] = [];
  const check = (name: string, x: unknown, y: unknown): void => {
    if (x === null && y === null) return;
    if (x === null || y === null) out.push(`${name} unknown in ${x === null ? 'A' : 'B'}`);
    else if (x !== y) out.push(`${name} ${String(x)} vs ${String(y)}`);
  };
  check('text', a.workload.text, b.workload.text);
  check('passes', a.workload.passes, b.workload.passes);
  check('warm-up', a.workload.warmup, b.workload.warmup);
  check('onnxruntime session settings', a.workload.session, b.workload.session);
  return out;
}

const METRICS = [
  {
    metric: 'aggregate',
    of: (x: ComparableArm) => x.aggregate,
    rounds: (x: ComparableArm) => x.rounds?.aggregate,
    throughput: true,
    meaning: (x: ComparableArm) => x.aggregateMeaning,
  },
  {
    metric: 'per_stream',
    of: (x: ComparableArm) => x.perStream,
    rounds: (x: ComparableArm) => x.rounds?.perStream,
    throughput: true,
    meaning: () => 'same',
  },
  {
    metric: 'cpu_percent',
    of: (x: ComparableArm) => x.cpuPercent,
    rounds: () => undefined,
    throughput: false,
    meaning: () => 'same',
  },
] as const;

/**
 * B over A from the two runs' round figures: the Welch 95% interval of the difference of their mean
 * logs (each run's rounds are its replicates; the runs are independent). null below 2 rounds in either.
 */
export function welchRatio(a: readonly number[], b: readonly number[]): [number, number] | null {
  if (a.length < 2 || b.length < 2) return null;
  const stats = (v: readonly number[]) => {
    const logs = v.map(Math.log);
    const mean = logs.reduce((s, x) => s + x, 0) / logs.length;
    return {
      mean,
      varOfMean: logs.reduce((s, x) => s + (x - mean) ** 2, 0) / (logs.length - 1) / logs.length,
      n: logs.length,
    };
  };
  const x = stats(a);
  const y = stats(b);
  const se2 = x.varOfMean + y.varOfMean;
  const diff = y.mean - x.mean;
  if (se2 === 0) return [Math.exp(diff), Math.exp(diff)];
  const df = se2 ** 2 / (x.varOfMean ** 2 / (x.n - 1) + y.varOfMean ** 2 / (y.n - 1));
  const half = studentQuantile(0.975, df) * Math.sqrt(se2);
  return [Math.exp(diff - half), Math.exp(diff + half)];
}

/**
 * A throughput change judged on the two runs' rounds: SLOWER or FASTER only when the whole interval
 * lies beyond the tolerance, SAME when it lies within it, NOISY when it straddles a bound.
 */
function throughputVerdict(interval: [number, number], tol: number): { verdict: MetricVerdict; why: string } {
  const t = tol / 100;
  const text = `B/A ${interval[0].toFixed(3)} to ${interval[1].toFixed(3)} (95%, between the runs' rounds)`;
  if (interval[0] > 1 + t) return { verdict: 'FASTER', why: `${text}: faster by more than ${tol}%` };
  if (interval[1] < 1 - t) return { verdict: 'SLOWER', why: `${text}: slower by more than ${tol}%` };
  if (interval[0] >= 1 - t && interval[1] <= 1 + t) return { verdict: 'SAME', why: `${text}: within ${tol}%` };
  return { verdict: 'NOISY', why: `${text}: the rounds cannot tell a ${tol}% change from none` };
}

const spreadText = (s: number | null): string => (s === null ? 'unknown (too few passes)' : `${(s * 100).toFixed(1)}%`);
const tooSpread = (s: number | null, tol: number): boolean => s === null || s * 100 > tol;

/**
 * Arms of A and B paired by identity; an arm left alone in each run with the same layout on
 * another engine or scope is paired with it, to be called INCOMPARABLE rather than missing.
 */
function matchArms(
  as: readonly ComparableArm[],
  bs: readonly ComparableArm[],
): Array<{ key: string; x?: ComparableArm; y?: ComparableArm; engines?: string }> {
  const out: Array<{ key: string; x?: ComparableArm; y?: ComparableArm; engines?: string }> = [];
  const lonelyB = bs.filter((y) => !as.some((x) => x.key === y.key));
  for (const x of as) {
    const y = bs.find((r) => r.key === x.key);
    if (y) {
      out.push({ key: x.key, x, y });
      continue;
    }
    const other = lonelyB.find((r) => r.layout === x.layout);
    if (!other) {
      out.push({ key: x.key, x });
      continue;
    }
    lonelyB.splice(lonelyB.indexOf(other), 1);
    out.push({
      key: `${x.layout} [A: ${x.engine}; B: ${other.engine}]`,
      x,
      y: other,
      engines: `engine and scope differ (A: ${x.engine}; B: ${other.engine}): different work is timed`,
    });
  }
  for (const y of lonelyB) out.push({ key: y.key, y });
  return out;
}

function isComparable(x: unknown): x is ComparableRun {
  return typeof x === 'object' && x !== null && 'arms' in x && 'tool' in x && 'workload' in x;
}

type Metric = (typeof METRICS)[number];
type Pair = ReturnType<typeof matchArms>[number];

/** The change of one metric from A to B, in percent (null where either is missing or A is 0). */
function changeOf(m: Metric, { x, y }: Pair): { a: number | null; b: number | null; change: number | null } {
  const a = x ? m.of(x) : null;
  const b = y ? m.of(y) : null;
  return { a, b, change: a !== null && b !== null && a !== 0 ? ((b - a) / a) * 100 : null };
}

/** One metric of one pair of arms: its verdict and why, workload and controls first, then the rounds or the spread. */
function judgeMetric(
  m: Metric,
  pair: Pair,
  workloadDiffers: readonly string[],
  tol: number,
): { verdict: MetricVerdict; why: string } {
  const { x, y, engines } = pair;
  if (!x || !y) return { verdict: x ? 'ONLY IN A' : 'ONLY IN B', why: 'no such arm in the other run' };
  const { change } = changeOf(m, pair);
  const armWorkload = [...workloadDiffers, ...(engines ? [engines] : [])];
  if (x.voiceSha256 !== y.voiceSha256)
    armWorkload.push(x.voiceSha256 && y.voiceSha256 ? 'voice checksum differs' : 'voice checksum unknown');
  if (!x.held || !y.held)
    return {
      verdict: 'CONTROLS FAILED',
      why: `controls failed in ${!x.held && !y.held ? 'both runs' : !x.held ? 'A' : 'B'}; shown, not counted`,
    };
  if (armWorkload.length > 0) return { verdict: 'INCOMPARABLE', why: armWorkload.join('; ') };
  if (m.meaning(x) !== m.meaning(y))
    return { verdict: 'INCOMPARABLE', why: `the ${m.metric} means ${m.meaning(x)} in A and ${m.meaning(y)} in B` };
  if (change === null) return { verdict: 'INCOMPARABLE', why: 'a figure is missing' };
  if (m.throughput && m.rounds(x) && m.rounds(y)) {
    // Both runs have rounds: the change is judged on them, never on two points alone.
    const interval = welchRatio(m.rounds(x) ?? [], m.rounds(y) ?? []);
    return interval
      ? throughputVerdict(interval, tol)
      : { verdict: 'NOISY', why: 'fewer than 2 rounds in a run: no interval between rounds' };
  }
  if (m.throughput && (tooSpread(x.spread, tol) || tooSpread(y.spread, tol)))
    return {
      verdict: 'NOISY',
      why: `own spread ${spreadText(x.spread)} / ${spreadText(y.spread)} is not within the ${tol}% tolerance`,
    };
  if (Math.abs(change) <= tol) return { verdict: 'SAME', why: `within ${tol}%` };
  const signed = `${change > 0 ? '+' : ''}${change.toFixed(1)}%, beyond ${tol}%`;
  if (m.throughput) return { verdict: change > 0 ? 'FASTER' : 'SLOWER', why: signed };
  return { verdict: change > 0 ? 'HIGHER' : 'LOWER', why: `${signed} (CPU is not a regression by itself)` };
}

/** Why two runs do not compare at all: another tool, or another machine. */
function obstaclesOf(a: ComparableRun, b: ComparableRun): string[] {
  if (a.tool !== b.tool) return [`different tools (A by ${a.tool}, B by ${b.tool})`];
  if (a.machine !== b.machine) return [`different machines (A: ${a.machine}; B: ${b.machine})`];
  return [];
}

/**
 * Pair arms by voice, K, T, affinity and isolation and give each metric a verdict. Takes two
 * archives as objects (either tool's, as parsed from JSON) or as read by readComparable.
 */
export function compareArchives(
  first: ComparableRun | unknown,
  second: ComparableRun | unknown,
  options: CompareOptions = {},
): Comparison {
  const a = isComparable(first) ? first : toComparable(first, 'A');
  const b = isComparable(second) ? second : toComparable(second, 'B');
  const tol = options.tolerancePercent ?? 5;
  const result: Comparison = {
    a: a.file,
    b: b.file,
    tolerancePercent: tol,
    refused: null,
    forced: [],
    workloadDiffers: [],
    rows: [],
    regression: false,
    comparedArms: 0,
    ratios: [],
  };
  const obstacles = obstaclesOf(a, b);
  if (obstacles.length > 0) {
    if (!options.force) {
      result.refused = `${obstacles.join('; ')}; figures from different machines or tools do not compare (--force to compare anyway)`;
      return result;
    }
    result.forced = obstacles;
  }
  result.workloadDiffers = workloadDifferences(a, b);
  if (result.workloadDiffers.length === 0) result.ratios = ratioRows(a, b);
  for (const pair of matchArms(a.arms, b.arms))
    for (const m of METRICS) {
      const { verdict, why } = judgeMetric(m, pair, result.workloadDiffers, tol);
      if (verdict === 'SLOWER') result.regression = true;
      const { a: va, b: vb, change } = changeOf(m, pair);
      result.rows.push({ arm: pair.key, metric: m.metric, a: va, b: vb, changePercent: change, verdict, why });
    }
  result.comparedArms = new Set(
    result.rows.filter((r) => r.metric !== 'cpu_percent' && COUNTED.includes(r.verdict)).map((r) => r.arm),
  ).size;
  return result;
}

const ratioText = (r: RatioRow['inA']): string =>
  r.ratio === null
    ? '-'
    : `${num(r.ratio, 3)}${r.interval ? ` [${num(r.interval[0], 3)}, ${num(r.interval[1], 3)}]` : ''}${r.resolved ? ' resolved' : ''}`;

/** The layout ratios of both runs, contradictions first, as Markdown lines. */
function ratioLines(c: Comparison): string[] {
  if (c.ratios.length === 0) return [];
  const lines = c.ratios
    .filter((r) => r.contradiction)
    .map((r) =>
      mdText(
        `CONTRADICTION: ${r.voice}, K=${r.k}: ${r.a} over ${r.b} is ${ratioText(r.inA)} in A and ${ratioText(r.inB)} ` +
          `in B; the layout decision went one way in A and the other in B`,
      ),
    );
  lines.push('', '| voice | K | A over B | in A | in B |', '| --- | --- | --- | --- | --- |');
  for (const r of c.ratios)
    lines.push(mdRow([r.voice, String(r.k), `${r.a} over ${r.b}`, ratioText(r.inA), ratioText(r.inB)]));
  return lines;
}

/** The comparison as a Markdown table. */
export function comparisonMarkdown(c: Comparison): string {
  const lines = [
    `# piper-parallel compare`,
    '',
    `A: ${mdText(c.a)}`,
    `B: ${mdText(c.b)}`,
    `tolerance: ${c.tolerancePercent}%`,
  ];
  if (c.refused) return stripControl([...lines, '', `REFUSED: ${mdText(c.refused)}`].join('\n'));
  const contradictions = ratioLines(c).filter((l) => l.startsWith('CONTRADICTION'));
  if (contradictions.length > 0) lines.splice(1, 0, ...contradictions, '');
  if (c.forced.length > 0) lines.push(mdText(`FORCED despite: ${c.forced.join('; ')}`));
  if (c.workloadDiffers.length > 0) lines.push(mdText(`workload differs: ${c.workloadDiffers.join('; ')}`));
  lines.push('', '| arm | metric | A | B | change | verdict | why |', '| --- | --- | --- | --- | --- | --- | --- |');
  for (const r of c.rows) {
    lines.push(mdRow([r.arm, r.metric, num(r.a), num(r.b), change(r.changePercent), r.verdict, r.why]));
  }
  const arms = new Set(c.rows.map((r) => r.arm)).size;
  const notCounted = arms - c.comparedArms;
  const uncounted = `; ${notCounted} not counted (controls failed, incomparable, noisy or in one run only)`;
  const scope = `${c.comparedArms} of ${arms} arm(s) compared${notCounted > 0 ? uncounted : ''}`;
  lines.push(...ratioLines(c).filter((l) => !l.startsWith('CONTRADICTION')));
  if (c.comparedArms === 0) {
    lines.push('', `NOTHING COMPARED: ${scope}; no conclusion, neither regression nor its absence`);
    return stripControl(lines.join('\n'));
  }
  lines.push(
    '',
    c.regression
      ? `REGRESSION: a throughput fell by more than ${c.tolerancePercent}% (${scope})`
      : `no regression beyond ${c.tolerancePercent}% (${scope})`,
  );
  return stripControl(lines.join('\n'));
}
