// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  colorEnabled,
  formatDuration,
  paintStatus,
  ProgressReporter,
} from '../../../lib/throughput/report/progress.js';

const condition = { flux: 1, fils: 1, affinite: false, isolation: 'process' as const };

function clock(): { now: () => number; advance: (s: number) => void } {
  let ms = 1000;
  return {
    now: () => ms,
    advance: (s) => {
      ms += s * 1000;
    },
  };
}

describe('progress', () => {
  it('on a terminal: one live line, arm i/N, pass j/P, elapsed and time left from the pace so far', () => {
    const c = clock();
    const out: string[] = [];
    const p = new ProgressReporter({ tty: true, write: (t) => out.push(t), now: c.now });
    p.handle({ kind: 'arm-start', index: 1, total: 2, voice: 'v', condition, round: 1, rounds: 1 });
    assert.equal(out.at(-1), '\r\x1b[2Karm 1/2, loading; elapsed 0 s, time left not known yet');
    c.advance(10);
    p.handle({ kind: 'pass', index: 1, total: 2, pass: 1, passes: 4 });
    // 10 s for 1 pass; 7 passes left (3 in this arm, 4 in the next).
    assert.equal(out.at(-1), '\r\x1b[2Karm 1/2, pass 1/4; elapsed 10 s, about 1m10s left');
    c.advance(30);
    for (const pass of [2, 3, 4]) p.handle({ kind: 'pass', index: 1, total: 2, pass, passes: 4 });
    p.handle({ kind: 'round-arm-end', index: 1, total: 2, voice: 'v', condition, round: 1, state: 'done' });
    p.handle({ kind: 'arm-start', index: 2, total: 2, voice: 'v', condition, round: 1, rounds: 1 });
    // 40 s for 4 passes: the next arm's 4 passes, about 40 s.
    assert.equal(out.at(-1), '\r\x1b[2Karm 2/2, loading; elapsed 40 s, about 40 s left');
    p.clear();
    assert.equal(out.at(-1), '\r\x1b[2K');
    const n = out.length;
    p.clear();
    assert.equal(out.length, n, 'nothing to clear twice');
  });

  it('not on a terminal: one plain line per arm, no escape codes', () => {
    const c = clock();
    const out: string[] = [];
    const p = new ProgressReporter({ tty: false, write: (t) => out.push(t), now: c.now });
    p.handle({ kind: 'arm-start', index: 1, total: 3, voice: 'v', condition, round: 1, rounds: 3 });
    for (const pass of [1, 2]) {
      c.advance(5);
      p.handle({ kind: 'pass', index: 1, total: 3, pass, passes: 2 });
    }
    p.handle({ kind: 'round-arm-end', index: 1, total: 3, voice: 'v', condition, round: 1, state: 'done' });
    assert.deepEqual(out, ['arm 1/3 (round 1/3) done; elapsed 10 s, about 20 s left\n']);
  });

  it('arm rounds carried over by --resume count as done, not as time spent', () => {
    const c = clock();
    const out: string[] = [];
    const p = new ProgressReporter({ tty: false, write: (t) => out.push(t), now: c.now });
    // The resumed run starts at arm 2 of 3: arm 1 is held in the partial file and sends nothing.
    p.handle({ kind: 'arm-start', index: 2, total: 3, voice: 'v', condition, round: 1, rounds: 1 });
    for (const pass of [1, 2]) {
      c.advance(3);
      p.handle({ kind: 'pass', index: 2, total: 3, pass, passes: 2 });
    }
    p.handle({ kind: 'round-arm-end', index: 2, total: 3, voice: 'v', condition, round: 1, state: 'done' });
    assert.equal(out.at(-1), 'arm 2/3 done; elapsed 6 s, about 6 s left\n');
  });

  it('formats durations', () => {
    assert.deepEqual([0, 59.4, 60, 125, 3599, 3600, 3725].map(formatDuration), [
      '0 s',
      '59 s',
      '1m00s',
      '2m05s',
      '59m59s',
      '1h00m',
      '1h02m',
    ]);
  });

  it('colour only on a terminal and never with NO_COLOR', () => {
    assert.equal(colorEnabled({ isTTY: true }, {}), true);
    assert.equal(colorEnabled({ isTTY: true }, { NO_COLOR: '1' }), false);
    assert.equal(colorEnabled({ isTTY: true }, { NO_COLOR: '' }), true);
    assert.equal(colorEnabled({ isTTY: false }, {}), false);
    assert.equal(colorEnabled({}, {}), false);
    assert.equal(paintStatus('x  OK'), 'x  \x1b[32mOK\x1b[0m');
    assert.equal(
      paintStatus('x  OK (2 passes: too few to judge spread)'),
      'x  \x1b[32mOK\x1b[0m (2 passes: too few to judge spread)',
    );
    assert.equal(paintStatus('FAILED cpu_sum: short'), '\x1b[31mFAILED\x1b[0m cpu_sum: short');
  });
});
