// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import path from 'node:path';
import { runCapacity } from '../../../lib/capacity/run/run-capacity.js';
import { raiseParentPriority } from '../../../lib/capacity/setup/priority.js';
import { sharedVoicesDir, tempDir } from '../../helpers/paths.js';

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

  it('a run whose parent was refused says the note on its progress, before any trial', async () => {
    const controller = new AbortController();
    const notes: string[] = [];
    const restored: boolean[] = [];
    const err = await runCapacity({
      voices: ['synthetic-siwis-medium'],
      voicesDir: sharedVoicesDir(),
      lines: ['Oui.'],
      maxStreams: 1,
      rounds: 1,
      settleSeconds: 0,
      outDir: path.join(tempDir('capacity-priority'), 'm'),
      signal: controller.signal,
      priority: () => ({ kind: 'normal', why: 'refused here', note: 'the note', restore: () => restored.push(true) }),
      onProgress: (e) => {
        if (e.kind !== 'note') return;
        notes.push(e.text);
        // Nothing more is needed of this run: stop it before it calibrates.
        if (e.text === 'the note') controller.abort();
      },
    }).then(
      () => undefined,
      (e: Error & { code?: string }) => e,
    );
    assert.equal(err?.code, 'ABORTED', err?.message);
    assert.ok(notes.includes('the note'), notes.join(' | '));
    assert.deepEqual(restored, [true]);
  });
});
