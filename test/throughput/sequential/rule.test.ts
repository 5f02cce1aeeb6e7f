// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expandConditions } from '../../../lib/throughput/arm/conditions.js';
import { closeUnsettled, judgeLogs, roundsToSettle } from '../../../lib/throughput/sequential/answer.js';
import { lookRounds, missRate, questionLevel } from '../../../lib/throughput/sequential/design.js';
import { finish, look, neededArms, presetQuestions } from '../../../lib/throughput/sequential/rule.js';
import { conditionShape } from '../../../lib/throughput/sequential/shapes.js';

const at = { lastRounds: 12, confidence: () => 0.995, marginPct: 6 };

describe('the questions a default run sets, and its looks', () => {
  it('asks each K-process layout against 1 process x K threads, and pinned against free; nothing of 1 x 1', () => {
    const qs = presetQuestions(expandConditions({}), (c) => conditionShape(c, 'v'));
    assert.deepEqual(
      qs.map((q) => [q.kind, q.a.affinite, q.b.flux, q.b.fils]),
      [
        ['deployment', false, 1, 2],
        ['deployment', true, 1, 2],
        ['pinning', true, 2, 1],
      ],
    );
    // Threads and processes are not asked against each other.
    const both = presetQuestions(expandConditions({ isolation: 'both' }), (c) => conditionShape(c, 'v'));
    assert.equal(both.length, 6);
    assert.ok(both.every((q) => q.a.isolation === q.b.isolation));
  });

  it('looks after 2N/3 rounds (at least 3), then every N/3', () => {
    assert.deepEqual(lookRounds(6), [4, 6, 8, 10, 12]);
    assert.deepEqual(lookRounds(2), [3, 4, 5, 6, 7]);
    assert.deepEqual(lookRounds(12), [8, 12, 16, 20, 24]);
  });

  it("sets one level for every look that holds a question's 5%/3 over all five (checked on a fresh seed), where 5%/3 at each look does not", () => {
    const looks = lookRounds(6);
    const level = questionLevel(looks, 3);
    assert.ok(level.confidence > 1 - 0.05 / 3 && level.confidence < 1 - 0.05 / 15, `${level.confidence}`);
    assert.ok(Math.abs((level.spentAlpha.at(-1) ?? 0) - 0.05 / 3) < 0.002);
    assert.ok(level.spentAlpha.every((a, i) => i === 0 || a >= (level.spentAlpha[i - 1] ?? 0)));
    // Another seed's simulated runs: the level found keeps its miss rate; the plain level misses more.
    const found = missRate(looks, level.confidence, 40_000, 7);
    const plain = missRate(looks, 1 - 0.05 / 3, 40_000, 7);
    assert.ok(Math.abs(found - 0.05 / 3) < 0.003, `miss rate at the level found: ${found}`);
    assert.ok(plain > 0.03, `miss rate at 5%/3 each look: ${plain}`);
  });
});

describe('a look', () => {
  const questions = () => presetQuestions(expandConditions({}), (c) => conditionShape(c, 'v'));
  it('closes a settled question, and the arms no open question needs stop', () => {
    const qs = questions();
    const logs = (q: (typeof qs)[number]): number[] =>
      q.kind === 'pinning' ? [0.01, -0.02, 0.03, 0.0] : [0.24, 0.25, 0.23, 0.26];
    look(qs, { ...at, look: 1 }, logs);
    assert.deepEqual(
      qs.map((q) => [q.kind, q.closed, q.judged?.state]),
      [
        ['deployment', 'settled', 'winner'],
        ['deployment', 'settled', 'winner'],
        ['pinning', undefined, 'open'],
      ],
    );
    // 1 process x 2 threads is in no open question any more: it stops; pinned and free go on.
    assert.deepEqual(
      [...neededArms(qs)].map((c) => [c.flux, c.fils, c.affinite]),
      [
        [2, 1, true],
        [2, 1, false],
      ],
    );
  });

  it('closes, unsettled, a question that even the last look could not settle at the spread seen', () => {
    const qs = questions();
    look(qs, { ...at, look: 1 }, () => [0.3, -0.2, 0.25, -0.28]);
    assert.ok(qs.every((q) => q.closed === 'futile' && q.judged?.state === 'not-resolved'));
    assert.ok((qs[0]?.judged?.moreRounds ?? 0) > 8);
  });

  it('an arm without its controls closes its questions; pinned against free closes as non-inferior, the deployment question goes on', () => {
    const qs = questions();
    look(qs, { ...at, look: 1 }, (q) => (q.kind === 'deployment' ? null : [0.05, 0.07, 0.04, 0.06, 0.05, 0.2]));
    assert.deepEqual(
      qs.map((q) => [q.closed, q.judged?.state, q.judged?.protects]),
      [
        ['controls', undefined, undefined],
        ['controls', undefined, undefined],
        ['settled', 'non-inferior', 'a'],
      ],
    );
    const dep = questions();
    look(dep, { ...at, look: 1 }, () => [0.05, 0.07, 0.04, 0.06, 0.05, 0.2]);
    assert.deepEqual(
      dep.map((q) => [q.closed, q.judged?.state]),
      [
        [undefined, 'open'],
        [undefined, 'open'],
        ['settled', 'non-inferior'],
      ],
    );
  });

  it('the run end closes what is open with what its last look can say', () => {
    const qs = questions();
    // Far from settled, yet within reach of a last look at 100 rounds: open after this look.
    look(qs, { ...at, lastRounds: 100, look: 1 }, () => [0.05, -0.1, 0.2]);
    assert.ok(qs.every((q) => q.closed === undefined));
    finish(qs, 'budget', at, () => [0.05, -0.1, 0.2]);
    assert.ok(qs.every((q) => q.closed === 'budget' && q.judged?.state === 'not-resolved'));
    assert.ok((qs[0]?.judged?.moreRounds ?? 0) > 20, `${qs[0]?.judged?.moreRounds}`);
  });
});

describe('an answer', () => {
  it('a winner excludes 1; an equivalence lies within [0.94, 1.064]; else open', () => {
    assert.equal(judgeLogs([0.1, 0.12, 0.11], 0.95, 6).state, 'winner');
    assert.equal(judgeLogs([0.01, -0.01, 0.005, 0.0], 0.95, 6).state, 'equivalent');
    assert.equal(judgeLogs([0.1, -0.1, 0.05], 0.95, 6).state, 'open');
  });

  it('more rounds: the first n whose interval at the spread seen would settle it', () => {
    const logs = [0.1, -0.05, 0.08, 0.0];
    const n = roundsToSettle(logs, 0.995, 6) ?? 0;
    assert.ok(n > logs.length);
    const more = closeUnsettled(judgeLogs(logs, 0.995, 6), logs, 0.995, 6);
    assert.equal(more.moreRounds, n - logs.length);
  });
});
