/**
 * node dist/bench/session-noise.js [RUNS] [SCALE...]: how often the sequential default answers under each session
 * profile's noise. libpiper: the slow VM's noise of 2026-12-02 (its default runs were libpiper's), an arm-round of
 * 8.3 s; piper-tts: that noise with every sd scaled by SCALE (the ratio of the pooled round-to-round sd measured by
 * bench/session-profiles.ts: 0.84 and 0.51 in two runs of 2026-12-04), an arm-round of 3.3 s. Seeded.
 */
import { DEFAULT_SIMULATION, NOISE_SLOW_AMD_TODAY } from './noise-model/noise.js';
import { simulate, type NoiseModel } from './noise-model/simulate.js';

const runs = Number(process.argv[2] ?? 2000);
const scales = process.argv.slice(3).map(Number);
const pct = (v: number): string => `${(100 * v).toFixed(1)}%`;
const scaled = (n: NoiseModel, s: number): NoiseModel => ({
  ...n,
  roundSd: n.roundSd * s,
  armSd: n.armSd * s,
  passSd: n.passSd * s,
  outlierSd: n.outlierSd * s,
});
const profiles: Array<[string, NoiseModel, number]> = [
  ['libpiper noise, 8.3 s', NOISE_SLOW_AMD_TODAY, 8.3],
  ...(scales.length > 0 ? scales : [0.84, 0.51]).map((s): [string, NoiseModel, number] => [
    `piper-tts noise (x${s}), 3.3 s`,
    scaled(NOISE_SLOW_AMD_TODAY, s),
    3.3,
  ]),
];
const cases: Array<[string, number]> = [
  ['all equal', 1],
  ['deployment +5%', 1.05],
  ['deployment +10%', 1.1],
  ['deployment +27%', 1.27],
];
for (const [name, noise, armRoundSeconds] of profiles)
  for (const [label, deployment] of cases) {
    const f = simulate({ ...DEFAULT_SIMULATION, noise, armRoundSeconds, deployment, pinning: 1 }, runs, 7);
    console.log(
      `${name} | ${label}: deployment answered ${pct(f.deploymentAnswered)}, coverage ${pct(f.coverage)}, ` +
        `wrong sign ${pct(f.wrongSign)}, median rounds ${f.medianRounds}, wall ${Math.round(f.medianSeconds)} s median`,
    );
  }
