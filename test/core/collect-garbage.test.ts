// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { collectGarbage } from '../../lib/core/collect-garbage.js';

/** The heap while 40 MiB of objects live, made and dropped inside: nothing refers to them once it returns. */
function heapWithGarbage(): number {
  const garbage = Array.from({ length: 40 }, () => Array.from({ length: 128 * 1024 }, (_, i) => i + 0.5));
  assert.equal(garbage.length, 40);
  return process.memoryUsage().heapUsed;
}

it('collects this process garbage when asked: the heap a dropped 40 MiB of objects held is given back', () => {
  const held = heapWithGarbage();
  assert.equal(collectGarbage(), true);
  const after = process.memoryUsage().heapUsed;
  // 40 arrays of 128 Ki doubles: 40 MiB; without a collection the heap keeps all of it (nothing allocates here).
  assert.ok(held - after > 30 * 2 ** 20, `heap ${held} bytes before, ${after} after`);
  // Asked again, it still works (the flag is set once).
  assert.equal(collectGarbage(), true);
});
