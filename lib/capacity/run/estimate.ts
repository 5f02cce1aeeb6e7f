/**
 * How long the trials will take, said before the first one: from the calibration (sentence
 * lengths, one worker's load time) and each layout's predicted edges, assuming the search finds
 * them in two steps and later rounds run each edge and the K above it once more per round; a
 * layout's workers load once per round; the reference (run/reference.ts) runs three whole trials on fresh workers.
 */
import { referenceOf } from './reference.js';
import type { Calibration } from '../setup/calibrate.js';
import { workersAt } from '../trial/layouts.js';
import type { CapacityPlan } from '../setup/plan.js';
import type { Sweep } from './sweep.js';

export interface Estimate {
  trials: number;
  seconds: number;
}

export function estimateRun(plan: CapacityPlan, sweeps: Sweep[], calibrations: Map<string, Calibration>): Estimate {
  let trials = 0;
  let seconds = 0;
  const cores = Math.max(1, plan.cores.length);
  for (const s of sweeps) {
    const c = calibrations.get(s.voice);
    if (!c || s.search.cap === 0) continue;
    const text = c.audioSeconds.reduce((a, b) => a + b, 0);
    const mean = text / Math.max(1, c.audioSeconds.length);
    const first = (c.firstSentenceMs[s.layout.threads] ?? c.firstSentenceMs[1] ?? 0) / 1000;
    const load = (k: number): number => c.loadSeconds * Math.max(1, workersAt(s.layout, k) / cores);
    const a = s.search.predicted;
    // Workers load once per layout and round (a turn keeps its pool), as many as the K above the edge needs.
    seconds += plan.rounds * load(Math.min(s.search.cap, a + 1));
    // At the answer and the K above: whole trials, each run to its end (the one above a little behind).
    const atA = plan.rounds;
    const above = a < s.search.cap ? plan.rounds : 0;
    trials += atA + above;
    seconds += atA * (mean + first + text) + above * (mean + first + 1.1 * text);
    const b = s.search.predictedInBound;
    if (s.search.inBoundImpossible || b >= a) continue;
    // (b): first-audio trials, over once every listener has its first audio; a search of a few steps.
    const atB = 2 * plan.rounds + 2;
    trials += atB;
    seconds += atB * (mean + plan.firstAudioMs / 1000);
  }
  const ref = referenceOf(sweeps);
  const c = ref ? calibrations.get(ref.sweep.voice) : undefined;
  if (ref && c) {
    const text = c.audioSeconds.reduce((a, b) => a + b, 0);
    trials += 3;
    seconds += 3 * (c.loadSeconds * Math.max(1, workersAt(ref.sweep.layout, ref.k) / cores) + 1.1 * text);
  }
  return { trials, seconds: Math.round(seconds) };
}
