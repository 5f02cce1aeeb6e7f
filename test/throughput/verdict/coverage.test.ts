// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/**
 * Seeded simulations of layout ratios under the noise these machines show: drift carried from round
 * to round (a random walk), drift within a round between one arm and the next, heavy-tailed pass
 * noise, and now and then an arm running 2.4 times slower. Each shows an interval keeping its 95%
 * and a broken one that does not, so the simulation itself can fail.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { median } from '../../../lib/measure/stats.js';
import { Prng } from '../../../lib/core/prng.js';
import { ratioInterval } from '../../../lib/throughput/verdict/index.js';

const rng = new Prng(2027);
const gauss = (): number => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
/** Student t with 3 degrees of freedom: heavy tails. */
const t3 = (): number => gauss() / Math.sqrt((gauss() ** 2 + gauss() ** 2 + gauss() ** 2) / 3);
/** One pass's log figure: heavy-tailed noise, and in 1% of passes 2.4 times slower. */
const passNoise = (): number => 0.02 * t3() - (rng.next() < 0.01 ? Math.log(2.4) : 0);

/**
 * A run of two arms, A truly `ratio` times B: `rounds` rounds of `passes` passes each, the arms
 * back to back in an order that reverses every other round. The machine's log speed walks: a jump
 * between rounds (carried, 10%), a step between consecutive passes (2%). Returns each arm's pass
 * logs per round.
 */
function simulate(ratio: number, rounds: number, passes: number): { a: number[][]; b: number[][] } {
  let level = 0;
  const a: number[][] = [];
  const b: number[][] = [];
  for (let r = 0; r < rounds; r += 1) {
    level += 0.1 * gauss();
    const arms = r % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
    const round: Record<string, number[]> = { a: [], b: [] };
    for (const arm of arms) {
      for (let p = 0; p < passes; p += 1) {
        level += 0.02 * gauss();
        (round[arm] as number[]).push(level + (arm === 'a' ? Math.log(ratio) : 0) + passNoise());
      }
    }
    a.push(round.a as number[]);
    b.push(round.b as number[]);
  }
  return { a, b };
}

/**
 * The same two arms with a lasting speed of their own per set of workers (`workerSd`, log scale),
 * drawn anew for every round (`shared` false) or once for each pair of rounds the workers serve.
 */
function simulateWorkers(ratio: number, rounds: number, workerSd: number, shared: boolean): number[] {
  let level = 0;
  let own = { a: 0, b: 0 };
  const logs: number[] = [];
  for (let r = 0; r < rounds; r += 1) {
    if (!shared || r % 2 === 0) own = { a: workerSd * gauss(), b: workerSd * gauss() };
    level += 0.1 * gauss();
    const v = { a: 0, b: 0 };
    for (const arm of r % 2 === 0 ? (['a', 'b'] as const) : (['b', 'a'] as const)) {
      level += 0.02 * gauss();
      v[arm] = level + own[arm] + (arm === 'a' ? Math.log(ratio) : 0) + passNoise();
    }
    logs.push(v.a - v.b);
  }
  return logs;
}

/** The tool's ratio: per round, the ratio of the arms' median passes; the t interval of their logs. */
const paired = (s: { a: number[][]; b: number[][] }): number[] =>
  s.a.map((ra, i) => median(ra) - median(s.b[i] as number[]));
const covers = (ic: [number, number] | null, truth: number): boolean => ic !== null && ic[0] <= truth && truth <= ic[1];

/** Broken on purpose: every pass taken as independent, the spread within rounds only (the drift between rounds ignored). */
function pooledWithinRounds(s: { a: number[][]; b: number[][] }): [number, number] {
  const mean = (v: number[]): number => v.reduce((x, y) => x + y, 0) / v.length;
  const within = (rounds: number[][]): number =>
    rounds.reduce((sum, r) => sum + r.reduce((q, v) => q + (v - mean(r)) ** 2, 0), 0) /
    rounds.reduce((n, r) => n + r.length - 1, 0);
  const n = s.a.flat().length;
  const d = mean(s.a.flat()) - mean(s.b.flat());
  const half = 1.96 * Math.sqrt((within(s.a) + within(s.b)) / n);
  return [Math.exp(d - half), Math.exp(d + half)];
}

describe('coverage of the layout ratio under realistic noise (seeded simulation)', () => {
  it('the paired ratio keeps 95% with 6 rounds of 1 pass and 3 rounds of 2; the pooled-pass interval does not', (t) => {
    const trials = 3000;
    const figures: string[] = [];
    for (const [rounds, passes] of [
      [6, 1],
      [3, 2],
    ] as const) {
      let ok = 0;
      let broken = 0;
      for (let i = 0; i < trials; i += 1) {
        const s = simulate(1.25, rounds, passes);
        if (covers(ratioInterval(paired(s), 0.95), 1.25)) ok += 1;
        if (passes > 1 && covers(pooledWithinRounds(s), 1.25)) broken += 1;
      }
      figures.push(
        `${rounds} rounds x ${passes} pass(es): ${((ok / trials) * 100).toFixed(1)}%${passes > 1 ? `, pooled passes ${((broken / trials) * 100).toFixed(1)}%` : ''}`,
      );
      assert.ok(ok / trials >= 0.94, figures.at(-1));
      if (passes > 1) assert.ok(broken / trials < 0.9, figures.at(-1));
    }
    t.diagnostic(`coverage of 1.25 over ${trials} runs: ${figures.join('; ')}`);
  });

  it('workers kept for two rounds keep 95% only while workers differ little; fresh workers every round keep it whatever they differ by', (t) => {
    const trials = 3000;
    const cover = (workerSd: number, shared: boolean): number =>
      Array.from({ length: trials }, () =>
        covers(ratioInterval(simulateWorkers(1.25, 6, workerSd, shared), 0.95), 1.25),
      ).filter(Boolean).length / trials;
    const figures = [0.005, 0.03].flatMap((sd) =>
      [false, true].map((shared) => ({ sd, shared, cover: cover(sd, shared) })),
    );
    t.diagnostic(
      `6 rounds, over ${trials} runs each: ${figures.map((f) => `workers ${f.shared ? 'kept for 2 rounds' : 'fresh'}, sd ${f.sd * 100}%: ${(f.cover * 100).toFixed(1)}%`).join('; ')}`,
    );
    for (const f of figures.filter((x) => !x.shared)) assert.ok(f.cover >= 0.94, JSON.stringify(f));
    const [small, large] = figures.filter((x) => x.shared) as [(typeof figures)[0], (typeof figures)[0]];
    assert.ok(small.cover >= 0.94, JSON.stringify(small));
    // Two rounds on the same workers are not two independent draws of them: the interval is too narrow.
    assert.ok(large.cover < 0.93, JSON.stringify(large));
  });
});
