// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { combineRuns, pairedRounds } from '../../lib/summary/combine.js';
import { machineShortName } from '../../lib/summary/machine-name.js';
import { costOf, parsePrices } from '../../lib/summary/price.js';

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

  it('runs whose intervals overlap pool their rounds', () => {
    const c = combineRuns([
      { rounds: [1, 1.21], point: null },
      { rounds: [1.1, 1.1], point: null },
    ]);
    assert.deepEqual([c?.method, c?.disagree, c?.perRun.length], ['pooled rounds', false, 2]);
    // Four logs 0, l, l, 2l (l = ln 1.1): centre 1.1, sd l sqrt(2/3), t(3) 3.182: half-width 3.182 l sqrt(2/3) / 2.
    near(c?.centre, 1.1);
    near(c?.interval?.[1], 1.1 * Math.exp((3.182 * Math.log(1.1) * Math.sqrt(2 / 3)) / 2));
  });

  it('runs whose intervals do not overlap disagree: each is one draw, and the interval says so by its width', () => {
    // Steady runs at x1.0 and x1.21: intervals [1, 1] and [1.21, 1.21] do not overlap.
    const c = combineRuns([
      { rounds: [1, 1, 1], point: null },
      { rounds: [1.21, 1.21, 1.21], point: null },
    ]);
    assert.deepEqual([c?.method, c?.disagree], ['runs as draws', true]);
    near(c?.centre, 1.1);
    // Two draws, 0 and 2 ln 1.1: 12.706 ln 1.1 either side of ln 1.1.
    near(c?.interval?.[0], 1.1 * Math.exp(-12.706 * Math.log(1.1)));
    // Pooled, the same six rounds would claim [1.0, 1.21] at most: the disagreement would be hidden.
    assert.ok((c?.interval?.[1] ?? 0) > 3);
  });

  it('archives without rounds: one figure each, no interval from one', () => {
    assert.deepEqual(combineRuns([{ rounds: [], point: 2 }]), {
      centre: 2,
      interval: null,
      method: 'no rounds',
      perRun: [2],
      disagree: false,
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
        noGap: { k: 8, range: { min: 8, max: 12 }, perRun: [8], sessions: 18, gapRateMax: 0.15, firstAudioP95Ms: null },
        inBound: {
          k: 4,
          range: { min: 4, max: 4 },
          perRun: [4],
          sessions: null,
          gapRateMax: null,
          firstAudioP95Ms: 300,
        },
        runsLeftOut: 0,
      },
      bestPerK: [],
      singleStream: {
        centre: 4,
        interval: [2, 5] as [number, number],
        method: 'one run' as const,
        perRun: [4],
        disagree: false,
      },
    };
    const c = costOf(row, 0.24);
    assert.deepEqual(c.perStreamHour, { centre: 0.03, range: [0.02, 0.03] });
    assert.deepEqual(c.perSpeechHour, { centre: 0.06, interval: [0.048, 0.12] });
  });
});
