import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultLayouts, layoutName, layoutsNamed } from '../../../lib/capacity/trial/layouts.js';

const names = (ls: ReturnType<typeof defaultLayouts>): string[] => ls.map(layoutName);

describe('capacity layouts', () => {
  it('the default is one process per stream (free), one process with C threads and a pool of C: no pinned one', () => {
    assert.deepEqual(names(defaultLayouts(4)), [
      'one process per stream x 1 thread, free',
      '1 process x 4 threads, free',
      'pool of 4 processes x 1 thread, free',
    ]);
  });

  it('--layouts names them in its order, each once; a pool needs two cores', () => {
    assert.deepEqual(names(layoutsNamed(['pool', 'stream-pinned', 'pool'], 2, 'thread')), [
      'pool of 2 thread workers x 1 thread, free',
      'one thread worker per stream x 1 thread, pinned',
    ]);
    assert.deepEqual(names(layoutsNamed(['pool', 'threads'], 1)), ['1 process x 1 thread, free']);
  });
});
