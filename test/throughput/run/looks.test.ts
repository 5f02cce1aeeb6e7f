// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/** A sequential run's arms: which run in a round, as its questions close. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expandConditions } from '../../../lib/throughput/arm/conditions.js';
import { SequentialRun } from '../../../lib/throughput/run/looks.js';
import type { Plan } from '../../../lib/throughput/run/plan.js';

/** Two voices of the four default conditions, as a plan holds them (only what the rule reads). */
function plan(): Plan & { looks: number[] } {
  const arms = ['a', 'b'].flatMap((name) =>
    expandConditions({}).map((condition) => ({
      key: `${name}|${JSON.stringify(condition)}`,
      voice: { name },
      condition,
    })),
  );
  return { arms, looks: [4, 6, 8, 10, 12], cores: [0, 1], marginPct: 6, maxMinutes: 10 } as unknown as Plan & {
    looks: number[];
  };
}

describe('a sequential run, arm by arm', () => {
  it('runs every arm up to the first look, then only the arms an open question needs', () => {
    const p = plan();
    const seq = new SequentialRun(p);
    assert.equal(seq.questions.length, 6);
    assert.ok(p.arms.every((a) => seq.runs(a, 4)));
    // No question closed: after the first look, 1 process x 1 thread stops (no question needs it).
    const after = p.arms.filter((a) => seq.runs(a, 5));
    assert.deepEqual(
      after.map((a) => [a.voice.name, a.condition.flux, a.condition.fils]),
      ['a', 'b'].flatMap((v) => [
        [v, 2, 1],
        [v, 2, 1],
        [v, 1, 2],
      ]),
    );
    // Voice a's questions all closed: its arms stop; voice b's deployment questions closed: only pinned and free go on.
    for (const q of seq.questions) if (q.voice === 'a' || q.kind === 'deployment') q.closed = 'settled';
    assert.deepEqual(
      p.arms.filter((a) => seq.runs(a, 7)).map((a) => [a.voice.name, a.condition.flux, a.condition.affinite]),
      [
        ['b', 2, false],
        ['b', 2, true],
      ],
    );
  });

  it("each voice's level is that of its own questions", () => {
    const seq = new SequentialRun(plan());
    assert.ok(Math.abs(seq.confidence('a') - 0.99545) < 0.0002, `${seq.confidence('a')}`);
  });
});
