/**
 * Noise models of the slow 2-vCPU AMD VM, fitted to default runs' archives (log scale; each arm's
 * round figures double-centred by arm and round within a voice, robust spread by the median
 * absolute deviation, "far off" beyond three of it: sequential/fit.ts). test/throughput/sequential/
 * noise.test.ts fits them again: today's from its fixture, the archives' where ../shared is at hand.
 */
import type { NoiseModel, SimulationSetup } from './simulate.js';

/** ../shared/archives/slow-amd-2026-11-30: 3 runs of 3 rounds x 2 passes (that day's protocol). */
export const NOISE_SLOW_AMD_ARCHIVES: NoiseModel = {
  roundSd: 0.078,
  armSd: 0.14,
  passSd: 0.051,
  outlierRate: 2 / 72,
  outlierSd: 0.572,
};

/**
 * This VM's seven default runs of 2026-12-02 (6 rounds of 1 pass; the pass is the round), their
 * round figures in test/fixtures/noise/slow-amd-2026-12-02.json.
 */
export const NOISE_SLOW_AMD_TODAY: NoiseModel = {
  roundSd: 0.068,
  armSd: 0.046,
  passSd: 0,
  outlierRate: 18 / 336,
  outlierSd: 0.277,
};

/**
 * A default run on that VM: `piper-parallel 6`, 6% margin, a 10-minute budget; an arm-round there
 * took about 8.3 s (66 s for a round of 8 arms), and starting, settling and publishing about 60 s.
 */
export const DEFAULT_SIMULATION: SimulationSetup = {
  noise: NOISE_SLOW_AMD_ARCHIVES,
  deployment: 1.27,
  pinning: 1,
  passes: 1,
  design: 'sequential',
  number: 6,
  marginPct: 6,
  budgetSeconds: 600,
  armRoundSeconds: 8.3,
  overheadSeconds: 60,
};
