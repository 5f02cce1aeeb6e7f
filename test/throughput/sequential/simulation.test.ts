// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/**
 * The sequential rule's error rates in seeded simulated default runs (two voices, four arms, the
 * budget in arm-rounds), under noise fitted to the slow VM, with the same `look` and `finish` the
 * run uses; and two broken designs failing the same checks, so the checks can fail.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SIMULATION, NOISE_SLOW_AMD_ARCHIVES, NOISE_SLOW_AMD_TODAY } from '../../../bench/noise-model/noise.js';
import {
  saysPinningOptional,
  simulate,
  simulateRun,
  type SimulationSetup,
} from '../../../bench/noise-model/simulate.js';

const RUNS = 500;
const run = (over: Partial<SimulationSetup>) => simulate({ ...DEFAULT_SIMULATION, ...over }, RUNS, 11);

describe('the sequential rule, simulated (500 seeded runs of two voices each)', () => {
  for (const [name, noise] of [
    ['the archives of 2026-11-30', NOISE_SLOW_AMD_ARCHIVES],
    ["this VM's default runs of 2026-12-02", NOISE_SLOW_AMD_TODAY],
  ] as const) {
    it(`under the noise of ${name}: equal layouts called different in at most 5% of voices, intervals cover >= 94%`, () => {
      const f = run({ noise, deployment: 1, pinning: 1 });
      assert.ok(f.anyWinner <= 0.05, `a winner where all are equal in ${f.anyWinner} of voices`);
      assert.ok(f.coverage >= 0.94 && f.familyCoverage >= 0.94, `coverage ${f.coverage}, together ${f.familyCoverage}`);
    });
    it(`under the noise of ${name}: a true ratio at the margin called equivalent <= 5%, the wrong sign <= 1%`, () => {
      for (const deployment of [0.94, 1 / 0.94, 1.05, 0.95]) {
        const f = run({ noise, deployment });
        assert.ok(f.falseEquivalent <= 0.05, `at ${deployment}: equivalent in ${f.falseEquivalent}`);
        assert.ok(f.wrongSign <= 0.01, `at ${deployment}: the wrong sign in ${f.wrongSign}`);
        assert.ok(f.coverage >= 0.94, `at ${deployment}: coverage ${f.coverage}`);
      }
    });
  }

  it("answers the deployment question (+27%, as measured) in >= 83% of voices within 10 minutes, under this VM's noise of today", () => {
    const f = run({ noise: NOISE_SLOW_AMD_TODAY });
    assert.ok(f.deploymentAnswered >= 0.83, `answered in ${f.deploymentAnswered}`);
    assert.ok(f.familyCoverage >= 0.94, `coverage together ${f.familyCoverage}`);
  });

  it('pinned truly 10% ahead of free: the line says "pinning optional" in at most 5% of the voices where it weighs pinning', () => {
    const setup = { ...DEFAULT_SIMULATION, noise: NOISE_SLOW_AMD_TODAY, deployment: 1.25, pinning: 1.1 };
    const voices = Array.from({ length: RUNS }, (_, i) => simulateRun(setup, 13 * 100_003 + i)).flat();
    const rate = (rule: 'non-inferior' | 'unresolved') => {
      const weighed = voices.map((v) => saysPinningOptional(v, setup.marginPct, rule)).filter((x) => x !== null);
      return { n: weighed.length, optional: weighed.filter(Boolean).length / weighed.length };
    };
    const rule = rate('non-inferior');
    const old = rate('unresolved');
    assert.ok(rule.n >= 100, `only ${rule.n} voices weighed pinning`);
    assert.ok(rule.optional <= 0.05, `optional in ${rule.optional} of ${rule.n}`);
    // The rule it replaced (optional whenever pinning was not resolved) says so in every such voice.
    assert.ok(old.optional > 0.5, `the old rule: optional in ${old.optional}`);
    // Pinning truly worth nothing: the line may say optional, and does in some voices (the rule is not a "never").
    const equal = simulate({ ...setup, pinning: 1 }, RUNS, 13);
    assert.ok(equal.pinningOptional > 0.05, `pinning equal: optional in ${equal.pinningOptional}`);
  });

  it('a broken design fails: plain 95% intervals at every look call equal layouts different far above 5%', () => {
    const f = run({ noise: NOISE_SLOW_AMD_ARCHIVES, design: 'plain-95', deployment: 1 });
    assert.ok(f.anyWinner > 0.1, `plain 95%: a winner where all are equal in ${f.anyWinner}`);
    assert.ok(f.familyCoverage < 0.94, `plain 95%: coverage together ${f.familyCoverage}`);
  });

  it("a broken design fails: two passes of one worker set counted as two rounds (the worker set's effect ignored)", () => {
    const f = run({ noise: NOISE_SLOW_AMD_ARCHIVES, design: 'passes-as-rounds', passes: 2, deployment: 1 });
    assert.ok(f.anyWinner > 0.05, `passes as rounds: a winner where all are equal in ${f.anyWinner}`);
    assert.ok(f.familyCoverage < 0.94, `passes as rounds: coverage together ${f.familyCoverage}`);
    // The same data, counted by round: it holds.
    const fixed = run({ noise: NOISE_SLOW_AMD_ARCHIVES, passes: 2, deployment: 1 });
    assert.ok(fixed.anyWinner <= 0.05, `by round: ${fixed.anyWinner}`);
  });
});
