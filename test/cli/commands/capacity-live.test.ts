// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/* eslint-disable no-control-regex -- the live line is made of terminal control codes */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CapacityLiveLine } from '../../../lib/cli/commands/capacity-live.js';

describe("capacity's live line", () => {
  it('draws the trial under way with the time gone and left, in place, and clears itself before another line', () => {
    const written: string[] = [];
    let ms = 0;
    const live = new CapacityLiveLine(
      (t) => written.push(t),
      () => ms,
    );
    const trial = {
      kind: 'trial-start',
      voice: 'v',
      layout: 'pool of 2 processes x 1 thread, free',
      k: 6,
      round: 2,
      index: 14,
      purpose: 'sans_trou',
    } as const;
    live.clear();
    assert.deepEqual(written, [], 'nothing to clear before anything was drawn');
    live.handle(trial);
    assert.equal(
      written.at(-1),
      '\r\x1b[2Ktrial 14 (round 2): v, pool of 2 processes x 1 thread, free, K=6 whole; elapsed 0 s, time left not known yet',
    );
    live.handle({
      kind: 'plan',
      trials: 100,
      seconds: 300,
      seed: 1,
      seedDrawn: false,
      prebuffersMs: [0],
      maxMinutes: 7.5,
    });
    ms = 90_000;
    live.handle({ ...trial, index: 15, purpose: 'premier_son' });
    assert.match(
      written.at(-1) ?? '',
      /^\r\x1b\[2Ktrial 15 \(round 2\): .* K=6 first audio; elapsed 1m30s, about 3m30s left$/,
    );
    live.clear();
    assert.equal(written.at(-1), '\r\x1b[2K');
    const n = written.length;
    live.clear();
    assert.equal(written.length, n, 'cleared once');
    // A voice named with an escape sequence (a file name is anyone's) reaches the terminal without it.
    live.handle({ ...trial, voice: 'v\u001b]0;pwned\u0007\u001b[31m' });
    assert.match(written.at(-1) ?? '', /^\r\x1b\[2Ktrial 14 \(round 2\): v\]0;pwned\[31m, pool/);
  });
});
