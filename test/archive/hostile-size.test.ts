// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/**
 * A hostile archive as large as a run's could be: refused in one line, in seconds. Its one bound is a hang guard
 * (20 s against the 26 s a character-at-a-time reader took, 5 s here alone): sharing the cores cannot cross it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { BIN, tempDir } from '../helpers/paths.js';

const MIB = 2 ** 20;

describe('a 64 MiB hostile file of zeros and a NaN', () => {
  for (const [name, text] of [
    // Cut short with a NaN at its end: no Python fallback is tried on a file that does not close.
    ['truncated', `[${'0,'.repeat(32 * MIB - 1)}NaN`],
    // Whole, its NaN first: the fallback reads it all, once, linearly (a character at a time it took 26 s).
    ['whole', `[NaN${',0'.repeat(32 * MIB - 4)}]`],
  ] as const)
    it(`${name}: report answers one line and exit 2 well within 20 s`, () => {
      const file = path.join(tempDir('hostile-size'), `${name}.json`);
      writeFileSync(file, text);
      const r = spawnSync(process.execPath, [BIN, 'report', file], { encoding: 'utf8', timeout: 20_000 });
      assert.equal(r.signal, null, `${name}: still reading after 20 s`);
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`${name}\\.json (is not valid JSON|is not a piper-parallel archive)`));
    });
});
