// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ArmRun } from '../../../lib/throughput/arm/arm.js';
import { heldFromResume } from '../../../lib/throughput/run/execute.js';
import type { Plan } from '../../../lib/throughput/run/plan.js';

const run = (state: ArmRun['state']): ArmRun => ({ state, children: [], sync: [], timedCpu: [], wallSeconds: 1 });
const arm = (voice: string, c: string) =>
  ({ key: `${voice}|${c}`, voice: { name: voice }, condition: {} }) as unknown as Plan['arms'][number];

describe('--resume: which finished arm rounds a resumed run keeps', () => {
  const arms = [arm('v', 'a'), arm('v', 'b'), arm('w', 'a'), arm('w', 'b')];
  const held = (entries: Array<[string, number, ArmRun['state']]>): Pick<Plan, 'arms' | 'resumed'> => ({
    arms,
    resumed: {
      file: 'f',
      header: {} as never,
      rounds: new Map(
        entries.map(([key, round, state], i) => [`${key}#${round}`, { key, round, order: i + 1, run: run(state) }]),
      ),
    },
  });

  it("keeps a voice's round only when whole; a voice's round cut off part-way is run again", () => {
    const kept = heldFromResume(
      held([
        ['v|a', 1, 'done'],
        ['v|b', 1, 'done'],
        ['w|a', 1, 'done'],
        ['v|a', 2, 'done'],
      ]),
    );
    assert.deepEqual(kept.map((e) => `${e.key}#${e.round}`).sort(), ['v|a#1', 'v|b#1']);
  });

  it('an arm that failed in an earlier round is not awaited: the round is whole without it', () => {
    const kept = heldFromResume(
      held([
        ['v|a', 1, 'failed'],
        ['v|b', 1, 'done'],
        ['v|b', 2, 'done'],
      ]),
    );
    assert.deepEqual(kept.map((e) => `${e.key}#${e.round}`).sort(), ['v|a#1', 'v|b#1', 'v|b#2']);
  });
});
