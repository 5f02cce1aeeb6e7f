// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { closest, editDistance } from '../../../lib/cli/args/suggest.js';

describe('did you mean', () => {
  it('counts edits, and offers only a name a typo away', () => {
    assert.deepEqual(
      [editDistance('', 'abc'), editDistance('kitten', 'sitting'), editDistance('--sesion', '--session')],
      [3, 3, 1],
    );
    const flags = ['--session', '--sessions', '--server', '--rounds', '--seed'];
    assert.equal(closest('--sesion', flags), '--session');
    assert.equal(closest('--roundz', flags), '--rounds');
    // Two short words differ too much for a guess: nothing offered.
    assert.equal(closest('--x', flags), undefined);
    assert.equal(closest('--bogus', flags), undefined);
    assert.equal(closest('--version', flags), undefined, '--version is not a typo of --session');
  });
});
