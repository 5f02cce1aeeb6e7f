// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { combineRuns, pairedRounds } from '../../lib/summary/combine.js';
import { machineShortName } from '../../lib/summary/machine-name.js';
import { costOf, parsePrices } from '../../lib/summary/price.js';
import { capacityFigures } from '../../lib/summary/capacity.js';
import type { CapacityInput } from '../../lib/summary/types.js';

const near = (a: number | undefined, b: number): void =>
  assert.ok(a !== undefined && Math.abs(a - b) < 1e-6, `${a} instead of ${b}`);

describe('several runs into one figure', () => {
  it('one run: its own t interval between rounds', () => {
    // logs 0, 2 ln 1.1: mean ln 1.1; sd / sqrt 2 = ln 1.1; t(1) 12.706: half-width 12.706 ln 1.1.
    const c = combineRuns([{ rounds: [1, 1.21], point: null }]);
    assert.equal(c?.method, 'one run');
    near(c?.centre, 1.1);
    near(c?.interval?.[0], 1.1 * Math.exp(-12.706 * Math.log(1.1)));
  });

  it('never pools rounds of different runs: each run is one draw, even when their intervals overlap', () => {
    const c = combineRuns([
      { rounds: [1, 1.21], point: null },
      { rounds: [1.1, 1.1], point: null },
    ]);
    assert.deepEqual([c?.method, c?.disagree, c?.perRun.length], ['runs as draws', false, 2]);
    // Draws 1.1 and 1.1: centre 1.1, no spread between them, so the interval is [1.1, 1.1]; pooled,
    // the four rounds would have given 3.182 ln 1.1 sqrt(2/3) / 2 either side.
    near(c?.centre, 1.1);
    near(c?.interval?.[1], 1.1);
  });

  it('splits the spread between runs from the spread inside them, and predicts a rerun', () => {
    // Three runs, each steady inside (no spread), at x1, x1.1, x1.21: all the spread is between runs.
    const steady = combineRuns([1, 1.1, 1.21].map((v) => ({ rounds: [v, v, v], point: null })));
    const l = Math.log(1.1);
    // logs 0, l, 2l: sd l; between-run sd l, so exp(l) - 1 = 10%.
    near(steady?.betweenPct ?? undefined, 10);
    // Prediction: ln 1.1 +- t(2) 4.303 l sqrt(1 + 1/3).
    near(steady?.rerun?.[1], Math.exp(l + 4.303 * l * Math.sqrt(4 / 3)));
    // The same figures with each run as noisy inside as between them: nothing left between runs.
    const noisy = combineRuns([1, 1.1, 1.21].map((v) => ({ rounds: [v / 1.2, v * 1.2], point: null })));
    assert.equal(noisy?.betweenPct, 0);
    // The prediction does not depend on that split: it is the draws' own spread either way.
    near(noisy?.rerun?.[1], steady?.rerun?.[1] ?? NaN);
  });

  it('a seeded simulation: the rerun range holds a new run 95% of the time, pooled rounds far less', (t) => {
    // Runs drift 10% (sd) between each other and move 3% inside; 3 runs of 6 rounds, then one more run.
    let seed = 20261202;
    const uniform = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) + 0.5) / 2 ** 31;
    const normal = (): number => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
    const run = (): number[] => {
      const level = 0.1 * normal();
      return Array.from({ length: 6 }, () => Math.exp(level + 0.03 * normal()));
    };
    let held = 0;
    let pooledHeld = 0;
    const trials = 2000;
    for (let i = 0; i < trials; i += 1) {
      const c = combineRuns([run(), run(), run()].map((rounds) => ({ rounds, point: null })));
      const next = run().reduce((p, v) => p * v, 1) ** (1 / 6);
      if (c?.rerun && next >= c.rerun[0] && next <= c.rerun[1]) held += 1;
      // What the rule before did when the runs overlapped: the 18 rounds as one sample.
      const all = combineRuns([{ rounds: [run(), run(), run()].flat(), point: null }]);
      if (all?.interval && next >= all.interval[0] && next <= all.interval[1]) pooledHeld += 1;
    }
    t.diagnostic(`rerun range held one more run ${held} of ${trials}; pooled rounds ${pooledHeld} of ${trials}`);
    assert.ok(held / trials >= 0.93 && held / trials <= 0.97, `rerun range held ${held} of ${trials}`);
    assert.ok(pooledHeld / trials < 0.5, `a pooled interval held a new run ${pooledHeld} of ${trials} times`);
  });

  it('archives without rounds: one figure each, no interval from one', () => {
    assert.deepEqual(combineRuns([{ rounds: [], point: 2 }]), {
      centre: 2,
      interval: null,
      method: 'no rounds',
      perRun: [2],
      disagree: false,
      rerun: null,
      betweenPct: null,
    });
    assert.equal(
      combineRuns([
        { rounds: [], point: 2 },
        { rounds: [2.2, 2.4], point: null },
      ])?.method,
      'runs as draws',
    );
  });

  it('pairs rounds only where both arms ran', () => {
    assert.deepEqual(pairedRounds([2, null, 3], [1, 1, 1.5]), [2, 2]);
  });
});

describe('machine names and prices', () => {
  it('a name from the fingerprint: architecture, model words, usable cores, memory, and a hash that tells twins apart', () => {
    const name = machineShortName('x64|AMD EPYC 7B13 64-Core Processor|2 cores|2 usable|24 GiB');
    assert.match(name, /^x64-epyc-7b13-2c-24g-[0-9a-f]{4}$/);
    assert.notEqual(
      name,
      machineShortName('x64|AMD EPYC 7B13 64-Core Processor|2 cores|2 usable|23 GiB').replace(/23g/, '24g'),
    );
  });

  it('--price: LABEL=AMOUNT and AMOUNT; anything else one error naming the option', () => {
    const p = parsePrices(['pi5=0.012', '0.05', 'my vm=1']);
    assert.deepEqual(
      [p.fallback, [...p.byLabel]],
      [
        0.05,
        [
          ['pi5', 0.012],
          ['my vm', 1],
        ],
      ],
    );
    for (const bad of ['pi5=', '=3', 'pi5=-1', 'pi5=0', 'cheap', '1e3'])
      assert.throws(() => parsePrices([bad]), /^PiperParallelError: --price must be LABEL=AMOUNT or AMOUNT/);
  });

  it('costs: the price over the live streams and over the speech made, ranges carried through', () => {
    const row = {
      bestCapacity: {
        layout: 'l',
        noGap: {
          k: 8,
          range: { min: 8, max: 12 },
          perRun: [8],
          sessions: 18,
          gapRateMax: 0.15,
          evidence: null,
          firstAudioP95Ms: null,
        },
        inBound: {
          k: 4,
          range: { min: 4, max: 4 },
          perRun: [4],
          sessions: null,
          gapRateMax: null,
          evidence: null,
          firstAudioP95Ms: 300,
        },
        runsLeftOut: 0,
        liveSpeed: null,
        planningK: null,
      },
      bestPerK: [],
      singleStream: {
        centre: 4,
        interval: [2, 5] as [number, number],
        method: 'one run' as const,
        perRun: [4],
        disagree: false,
        rerun: null,
        betweenPct: null,
      },
    };
    const c = costOf(row, 0.24);
    assert.deepEqual(c.perStreamHour, { centre: 0.03, range: [0.02, 0.03] });
    assert.deepEqual(c.perSpeechHour, { centre: 0.06, interval: [0.048, 0.12] });
  });
});

describe('capacity over runs: the drift between them and a planning K', () => {
  const run = (k: number, centre: number, low: number, high: number): CapacityInput =>
    ({
      kind: 'capacity',
      view: {
        answers: [
          {
            voice: 'v',
            layout: 'pool',
            noGap: {
              k,
              range: { min: k, max: k },
              sessions: 0,
              gapRateMax: null,
              evidence: '',
              speed: { centre, low, high, trials: 6 },
              headroom: null,
            },
            inBound: { k, range: { min: k, max: k }, firstAudioP95Ms: null },
            controlsHeld: true,
            phrase: '',
          },
        ],
      },
    }) as unknown as CapacityInput;

  it('three runs: each S one draw, the spread between them beyond the one inside, a rerun at 95%, planning K its floor', () => {
    // S x14, x13, x12.5, each run's own interval +-3% (6 trials: within variance (ln 1.03 / 2.571)^2).
    const runs = [
      run(13, 14, 14 / 1.03, 14 * 1.03),
      run(12, 13, 13 / 1.03, 13 * 1.03),
      run(12, 12.5, 12.5 / 1.03, 12.5 * 1.03),
    ];
    const f = capacityFigures(runs, 'v');
    const s = f.layouts[0]?.liveSpeed;
    assert.ok(s && s.rerun && s.betweenPct !== null);
    // log S: 2.639, 2.565, 2.526; mean 2.5766 (x13.15), sd 0.0576; t(2) = 4.303: a rerun 13.15 x e^(-4.303 x 0.0576 x
    // sqrt(4/3)) = x9.88 at the least.
    assert.ok(Math.abs(s.rerun[0] - 9.881) < 0.01, String(s.rerun));
    // Between runs: 0.0576^2 - (ln 1.03 / 2.571)^2 = 0.00332 - 0.00013: 5.8% (one sd).
    assert.ok(Math.abs(s.betweenPct - 5.8) < 0.2, String(s.betweenPct));
    assert.equal(f.layouts[0]?.planningK, Math.floor(s.rerun[0]));
    assert.equal(f.layouts[0]?.planningK, 9);
    // Two runs: the spread is estimated, no planning K yet.
    assert.equal(capacityFigures(runs.slice(0, 2), 'v').layouts[0]?.planningK, null);
  });
});
