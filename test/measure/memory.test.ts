// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { memoryControl, MAJOR_FAULTS_ALLOWED } from '../../lib/measure/controls.js';
import { parseMajorFaults, parseSwapPages, readOwnMajorFaults, readSwapPages } from '../../lib/measure/memory.js';
import { timedMajorFaults } from '../../lib/throughput/arm/record.js';
import type { ChildRecord } from '../../lib/throughput/arm/arm.js';

const pass = (n: number, warmup: boolean, majorFaults: number | undefined, round = 1) => ({
  type: 'pass' as const,
  pass: n,
  warmup,
  computeSeconds: 1,
  inferenceSeconds: 1,
  audioSeconds: 1,
  cpuSeconds: 1,
  startMs: 0,
  endMs: 1,
  round,
  ...(majorFaults === undefined ? {} : { majorFaults }),
});

describe('memory pressure', () => {
  it('reads swap pages from /proc/vmstat text and major faults from /proc/<pid>/stat text', () => {
    assert.equal(parseSwapPages('nr_free_pages 1\npswpin 12\npswpout 30\npgfault 9\n'), 42);
    assert.equal(parseSwapPages('pswpin 12\n'), null);
    // The command name may hold spaces and parentheses: fields count from the last ')'.
    assert.equal(parseMajorFaults('4242 (node (x) y) S 1 4242 4242 0 -1 4194560 1500 0 77 0 10 2'), 77);
    assert.equal(parseMajorFaults('garbage'), null);
    assert.equal(typeof readSwapPages(), 'number');
    assert.equal(typeof readOwnMajorFaults(), 'number');
  });

  it('holds with no swap and a few major faults; fails on any swapped page or on many faults; unknown does not hold', () => {
    assert.equal(memoryControl(0, [1, 0]).held, true);
    const swapped = memoryControl(3, [0, 0]);
    assert.deepEqual([swapped.held, swapped.measured], [false, 3]);
    assert.match(swapped.message, /swapped 3 page\(s\) during the arm/);
    const faulted = memoryControl(0, [MAJOR_FAULTS_ALLOWED, 1]);
    assert.deepEqual([faulted.held, faulted.measured], [false, MAJOR_FAULTS_ALLOWED + 1]);
    assert.match(faulted.message, /65 major page faults in the timed work, over 64/);
    assert.equal(memoryControl(null, [0]).held, false);
    assert.match(memoryControl(0, [0, null]).message, /stream 1's major page faults could not be read/);
  });

  it("counts a stream's faults over its timed passes only, round by round", () => {
    const c: ChildRecord = {
      rang: 0,
      pid: 1,
      core: undefined,
      passes: [
        pass(0, true, 100),
        pass(1, false, 103),
        pass(2, false, 103),
        pass(3, true, 50, 2),
        pass(4, false, 58, 2),
      ],
    };
    // 3 in round 1 (after the warm-up), 8 in round 2 (a new process, its own count).
    assert.equal(timedMajorFaults(c), 11);
    assert.equal(timedMajorFaults({ ...c, passes: [pass(0, true, 1), pass(1, false, undefined)] }), null);
  });
});
