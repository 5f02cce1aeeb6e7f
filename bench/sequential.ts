/**
 * node dist/bench/sequential.js [RUNS]: the sequential rule's error rates and answers in seeded
 * simulated default runs, under the slow VM's noise fitted from ../shared/archives (an older
 * protocol) and from this VM's default runs of 2026-12-02, for the design and two broken ones.
 */
import { NOISE_SLOW_AMD_ARCHIVES, NOISE_SLOW_AMD_TODAY, DEFAULT_SIMULATION } from './noise-model/noise.js';
import { simulate, type SimulationSetup } from './noise-model/simulate.js';

const runs = Number(process.argv[2] ?? 1000);
const pct = (v: number): string => `${(100 * v).toFixed(1)}%`;
const cases: Array<[string, Partial<SimulationSetup>]> = [
  ['deployment +27%, pinning equal', { deployment: 1.27, pinning: 1 }],
  ['all equal', { deployment: 1, pinning: 1 }],
  ['deployment at the margin 0.94', { deployment: 0.94, pinning: 1 }],
  ['deployment at the margin 1.064', { deployment: 1 / 0.94, pinning: 1 }],
  ['deployment +5%', { deployment: 1.05, pinning: 1 }],
];
for (const [noiseName, noise] of [
  ['archives of 2026-11-30', NOISE_SLOW_AMD_ARCHIVES],
  ['default runs of 2026-12-02', NOISE_SLOW_AMD_TODAY],
] as const) {
  for (const design of ['sequential', 'plain-95', 'passes-as-rounds'] as const) {
    for (const [name, truth] of cases) {
      const f = simulate(
        { ...DEFAULT_SIMULATION, noise, design, ...(design === 'passes-as-rounds' ? { passes: 2 } : {}), ...truth },
        runs,
        7,
      );
      console.log(
        `${noiseName} | ${design} | ${name}: coverage ${pct(f.coverage)} (together ${pct(f.familyCoverage)}), any winner ${pct(f.anyWinner)}, ` +
          `false equivalence ${pct(f.falseEquivalent)}, wrong sign ${pct(f.wrongSign)}, deployment answered ${pct(f.deploymentAnswered)}, median rounds ${f.medianRounds}, ` +
          `wall ${Math.round(f.medianSeconds)} s median, ${Math.round(f.maxSeconds)} s at most (6 fixed rounds: ${Math.round(f.fixedSeconds)} s)`,
      );
    }
  }
}

// What the archives' noise would need: the same rule with a longer budget and later looks.
for (const [number, minutes] of [
  [6, 10],
  [6, 30],
  [12, 30],
  [12, 60],
] as const) {
  const f = simulate({ ...DEFAULT_SIMULATION, number, budgetSeconds: minutes * 60 }, runs, 7);
  console.log(
    `archives of 2026-11-30 | sequential ${number}, ${minutes} minutes | deployment +27%: deployment answered ${pct(f.deploymentAnswered)}, ` +
      `coverage ${pct(f.coverage)}, median rounds ${f.medianRounds}`,
  );
}
