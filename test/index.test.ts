// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { it } from 'node:test';

it('the package exports its API by name (exports map, types first)', async () => {
  const m = await import('piper-parallel');
  assert.equal(typeof m.runArms, 'function');
  assert.equal(typeof m.ArchiveSchema.parse, 'function');
  assert.equal(typeof m.PiperParallelError, 'function');
});
