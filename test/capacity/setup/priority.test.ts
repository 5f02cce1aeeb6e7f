// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { raiseParentPriority } from '../../../lib/capacity/setup/priority.js';

describe("the parent's priority", () => {
  it('a refused SCHED_FIFO keeps normal priority and says, for the terminal, what that risks and how to permit it', () => {
    // No process has this pid (above Linux's pid_max of 2^22): chrt fails as it does without CAP_SYS_NICE.
    const p = raiseParentPriority(2 ** 22 + 17);
    assert.equal(p.kind, 'normal');
    assert.match(p.why, /^the parent kept its normal priority \(.+\); workers at nice 10 only$/);
    assert.match(
      p.note ?? '',
      /^the parent could not run SCHED_FIFO \(.+\): on a busy machine a listener may arrive late and fail the arrivals control; run as root, or in a container with CAP_SYS_NICE \(docker run --cap-add SYS_NICE\)$/,
    );
    assert.doesNotThrow(() => p.restore());
  });

  it('a granted one has nothing to say', (t) => {
    const p = raiseParentPriority();
    try {
      if (p.kind === 'normal') return t.skip(`SCHED_FIFO is not permitted here: ${p.why}`);
      assert.equal(p.note, undefined);
      assert.match(p.why, /SCHED_FIFO 10 \(reset on fork\)/);
    } finally {
      p.restore();
    }
  });
});
