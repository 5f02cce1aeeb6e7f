/**
 * The capacity rules' error rates by seeded simulation, printed as the tables docs/contributing/statistics.md quotes:
 * `npm run build && node dist/bench/capacity-simulation.js [runs]` (default 800 pairs of a run and its
 * rerun per row). The same machines and seeds as test/capacity/answer/drift.test.ts, which asserts on the
 * bounds; this prints them, with each rate's 95% Wilson interval.
 */
import {
  simulateCoverage,
  simulatePlanning,
  wilson,
  type SimCoverage,
  type SimMachine,
  type SimVariant,
} from '../test/capacity/answer/drift-simulation.js';

const runs = Number(process.argv[2] ?? 800);
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const rate = (share: number, n: number): string => {
  const [lo, hi] = wilson(share, n);
  return `${pct(share)} [${pct(lo)}, ${pct(hi)}]`;
};
const row = (cells: string[]): string => `| ${cells.join(' | ')} |`;

function table(title: string, head: string[], rows: string[][]): void {
  console.log(`\n${title}\n`);
  console.log(row(head));
  console.log(row(head.map(() => '---')));
  for (const r of rows) console.log(row(r));
}

const cover = (c: SimCoverage): string => rate(c.covered, c.pairs);

function drift(): void {
  const layouts = [10, 8, 12, 9];
  const steady: SimMachine = { layouts, noise: 0.08, between: 0.04, dropTo: 1, recovers: 0 };
  const machines: Array<[string, SimMachine]> = [
    ['steady', steady],
    ['drops 25%, back half the time', { ...steady, dropTo: 0.75, recovers: 0.5 }],
    ['drops 25%, stays slow', { ...steady, dropTo: 0.75, recovers: 0 }],
  ];
  table(
    `Drift during a run (seed 21, ${runs} pairs): reruns inside the prediction`,
    ['machine', 'covered', 'drift seen', 'mean width', 'covered, drift left out'],
    machines.map(([name, m]) => {
      const rule = simulateCoverage(21, m, { foldDrift: true }, runs);
      const broken = simulateCoverage(21, m, { foldDrift: false }, runs);
      return [name, cover(rule), pct(rule.seenShare), rule.meanWidth.toFixed(2), cover(broken)];
    }),
  );
}

function clustering(): void {
  const rows = [0, 0.05, 0.1].flatMap((turn) => {
    const m: SimMachine = { layouts: [12, 9, 6, 4], noise: 0.04, between: 0.04, dropTo: 1, recovers: 0, turn };
    return (['round', 'trial'] as const).map((unit) => {
      const c = simulateCoverage(41, m, { foldDrift: true, unit }, runs);
      return [String(turn), unit, rate(c.speedCovered, c.speedIntervals), cover(c), c.meanWidth.toFixed(2)];
    });
  });
  table(
    `A round's trials sharing their workers (seed 41, ${runs} pairs; trials 4% apart, turns of sd "turn")`,
    ['turn sd', 'unit counted', "S's 95% interval holds the truth", 'reruns inside the prediction', 'mean width'],
    rows,
  );
}

function steal(): void {
  const base: SimMachine = { layouts: [10, 8, 12, 9], noise: 0.06, between: 0.03, dropTo: 1, recovers: 0 };
  const rows = [1, 6].flatMap((trials) =>
    (['keep', 'control', 'covariate'] as const).map((use) => {
      const v: SimVariant = { foldDrift: true, steal: use };
      const c = simulateCoverage(31, { ...base, steal: { chance: 0.35, max: 0.3, trials } }, v, runs);
      return [String(trials), use, cover(c), pct(c.below), c.meanWidth.toFixed(2)];
    }),
  );
  table(
    `Steal on 35% of the trials, 5-30% of the CPU (seed 31, ${runs} pairs)`,
    ['episode (trials)', 'use', 'covered', 'missed below', 'mean width'],
    rows,
  );
}

function planning(): void {
  const rows = [
    [10, 10, 10, 10],
    [10, 8, 12, 9],
  ].map((layouts) => {
    const f = simulatePlanning(51, { layouts, noise: 0.08, between: 0.04, dropTo: 1, recovers: 0, turn: 0.05 }, runs);
    return [
      layouts.map((x) => `x${x}`).join(', '),
      rate(f.safe, f.plans),
      f.meanPlan.toFixed(2),
      rate(f.leastSafe, f.plans),
      f.leastMeanPlan.toFixed(2),
      rate(f.brokenSafe, f.plans),
      f.brokenMeanPlan.toFixed(2),
    ];
  });
  table(
    `The number to plan on among four layouts (seed 51, ${runs} pairs): a rerun of the layout named serves it`,
    [
      'layouts',
      'highest low end read to hold at once (the rule)',
      'mean plan',
      'least low end of those not told apart (before)',
      'mean plan',
      'highest 95% low end',
      'mean plan',
    ],
    rows,
  );
}

/** A machine whose noise moves between runs: a quiet run's narrow S interval read as the rerun's width too. */
function noiseBetweenRuns(): void {
  const base: SimMachine = { layouts: [12, 9, 6, 4], noise: 0.04, between: 0.04, dropTo: 1, recovers: 0 };
  const machines: Array<[string, SimMachine]> = [
    ['turn 0.05 in every run', { ...base, turn: 0.05 }],
    ['turn 0.01 to 0.15, drawn per run', { ...base, turnPerRun: [0.01, 0.15] }],
    ['turn 0.01 to 0.25, drawn per run', { ...base, turnPerRun: [0.01, 0.25] }],
  ];
  table(
    `Noise that moves between runs (seed 51, ${runs} pairs): reruns inside the prediction`,
    ['machine', 'covered', 'below its low end', 'above its high end', 'mean width'],
    machines.map(([name, m]) => {
      const c = simulateCoverage(51, m, { foldDrift: true }, runs);
      return [name, cover(c), pct(c.below), pct(c.above), c.meanWidth.toFixed(2)];
    }),
  );
}

drift();
clustering();
steal();
planning();
noiseBetweenRuns();
