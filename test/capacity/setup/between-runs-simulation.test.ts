// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_DRIFT_SD,
  liveAnswer,
  prediction,
  speedEstimate,
  type SpeedEstimate,
} from '../../../lib/capacity/answer/live.js';
import { measuredDrift, speedDraw, type EarlierSpeed } from '../../../lib/capacity/setup/history.js';
import { betweenRuns } from '../../../lib/measure/between-runs.js';
import { Prng } from '../../../lib/core/prng.js';
import { wilson } from '../answer/drift-simulation.js';

interface SimRun {
  answer: number;
  held: number;
  speed: SpeedEstimate;
  draw: EarlierSpeed;
}

function normal(prng: Prng): number {
  const u = 1 - prng.nextUint32() / 2 ** 32;
  const v = prng.nextUint32() / 2 ** 32;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** One run: its level drawn between runs (log sd `between`), 3 independent trials a K up its staircase, S at the edge. */
function simulateRun(prng: Prng, m: { s0: number; between: number; noise: number }): SimRun | null {
  const level = m.s0 * Math.exp(m.between * normal(prng));
  const trial = (): number => level * Math.exp(m.noise * normal(prng));
  let held = 0;
  let edge: number[] = [];
  for (let k = 1; k <= 64; k += 1) {
    const t = [trial(), trial(), trial()];
    if (!t.every((s) => s >= k)) {
      edge = [...edge, ...t];
      break;
    }
    held = k;
    edge = t;
  }
  const speed = speedEstimate(edge);
  if (!speed || speed.low === null || speed.high === null) return null;
  const draw = speedDraw({
    debit_vivant: speed.centre,
    debit_vivant_ic95: [speed.low, speed.high],
    debit_vivant_essais: speed.n,
  });
  return draw ? { answer: liveAnswer(held, speed), held, speed, draw } : null;
}

type Rule = 'upper bound' | 'estimate' | 'assumed';

/** The drift between runs each rule allows, from two earlier runs and this one. */
function driftOf(rule: Rule, earlier: EarlierSpeed[], now: EarlierSpeed): number {
  if (rule === 'assumed') return DEFAULT_DRIFT_SD;
  if (rule === 'upper bound') return Math.max(DEFAULT_DRIFT_SD, measuredDrift(earlier, now) ?? 0);
  const all = [...earlier, now];
  const split = betweenRuns(
    all.map((s) => s.centre),
    all.map((s) => s.within),
  );
  return Math.max(DEFAULT_DRIFT_SD, Math.log(1 + (split?.betweenPct ?? 0) / 100));
}

/** Runs of one machine: two earlier runs, this run and its rerun; is the rerun's answer inside this run's range? */
function betweenRunsCoverage(seed: number, between: number, rule: Rule, runs: number) {
  const prng = new Prng(seed);
  const m = { s0: 14, between, noise: 0.06 };
  let inside = 0;
  let pairs = 0;
  let width = 0;
  for (let i = 0; i < runs; i += 1) {
    const [e1, e2, a, b] = [simulateRun(prng, m), simulateRun(prng, m), simulateRun(prng, m), simulateRun(prng, m)];
    if (!e1 || !e2 || !a || !b) continue;
    const driftSd = driftOf(rule, [e1.draw, e2.draw], a.draw);
    const p = prediction({ answer: a.answer, held: a.held, speed: a.speed, cap: 64, driftSd });
    if (!p) continue;
    pairs += 1;
    width += p[1] - p[0];
    if (b.answer >= p[0] && b.answer <= p[1]) inside += 1;
  }
  return { covered: inside / pairs, pairs, meanWidth: width / pairs };
}

/**
 * The drift between runs, read from two earlier runs and this one (3 values, 2 degrees of freedom): used as known, its
 * estimate is often far below the truth, and a rerun falls outside the range; its upper confidence bound holds it.
 * A grid of true drifts between runs, 2% to 15% (the slow VM moved 10-30% between runs minutes apart). docs/contributing/statistics.md
 * quotes these lines.
 */
describe('the drift between runs from history, by seeded simulation', () => {
  it('its upper confidence bound covers a rerun at 95% at every drift; the estimate used as known does not at 10-15%', (t) => {
    const runs = 2000;
    const rows = [0.02, 0.05, 0.1, 0.15].map((between) => ({
      between,
      upper: betweenRunsCoverage(61, between, 'upper bound', runs),
      estimate: betweenRunsCoverage(61, between, 'estimate', runs),
      assumed: betweenRunsCoverage(61, between, 'assumed', runs),
    }));
    for (const r of rows) t.diagnostic(JSON.stringify(r));
    for (const { between, upper, estimate, assumed } of rows) {
      assert.ok(wilson(upper.covered, upper.pairs)[1] >= 0.95, `upper bound at ${between}: ${upper.covered}`);
      if (between >= 0.1) {
        assert.ok(wilson(estimate.covered, estimate.pairs)[1] < 0.95, `estimate at ${between}: ${estimate.covered}`);
        assert.ok(wilson(assumed.covered, assumed.pairs)[1] < 0.95, `assumed at ${between}: ${assumed.covered}`);
      }
    }
    // Where the machine is steadier than assumed, the bound costs little: under a listener of width on average.
    const steady = rows[0] as (typeof rows)[number];
    assert.ok(steady.upper.meanWidth - steady.assumed.meanWidth < 1, JSON.stringify(steady));
  });
});
