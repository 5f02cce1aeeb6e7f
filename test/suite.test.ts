// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { it } from 'node:test';
import { fileSeconds } from './helpers/file-times.js';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LIGHT_MARK, phases, SLOW_LIGHT_FILES } from './helpers/suite.js';

it('npm test: only files whose first line is the mark run two at a time; any other file runs alone', () => {
  const lines: Record<string, string> = {
    'b.test.js': `${LIGHT_MARK}: asserts no timing`,
    'a.test.js': "import assert from 'node:assert/strict';",
    'c.test.js': `/** ${LIGHT_MARK} in a comment is not the mark */`,
    'd.test.js': LIGHT_MARK,
  };
  assert.deepEqual(
    phases(Object.keys(lines), (f) => lines[f] ?? ''),
    { light: ['b.test.js', 'd.test.js'], alone: ['a.test.js', 'c.test.js'] },
  );
});

it('the slow light files start first, in the order listed; an alone file is never moved into the light phase', () => {
  const line = (f: string): string => (f.startsWith('x/') ? "import 'x';" : LIGHT_MARK);
  const files = ['t/a.test.js', 't/b/slow.test.js', 't/c.test.js', 't/slower.test.js', 'x/slow.test.js'];
  assert.deepEqual(phases(files, line, ['slower.test.js', 'b/slow.test.js', 'gone.test.js']), {
    light: ['t/slower.test.js', 't/b/slow.test.js', 't/a.test.js', 't/c.test.js'],
    alone: ['x/slow.test.js'],
  });
  // Every listed file exists and is light: a rename or a move to the alone phase shows here.
  const tests = path.dirname(fileURLToPath(import.meta.url));
  for (const f of SLOW_LIGHT_FILES) {
    const file = path.join(tests, f);
    assert.ok(existsSync(file), `${f} is listed as slow but does not exist`);
    assert.ok(readFileSync(file, 'utf8').startsWith(LIGHT_MARK), `${f} is listed as slow but is not light`);
  }
});

it("each file's time is the sum of its top-level tests, slowest first", () => {
  const pass = (file: string, nesting: number, ms: number) => ({
    type: 'test:pass',
    data: { file, nesting, details: { duration_ms: ms } },
  });
  assert.deepEqual(
    fileSeconds([
      pass('a', 0, 1000),
      pass('a', 1, 900),
      pass('b', 0, 3000),
      { type: 'test:fail', data: { file: 'a', nesting: 0, details: { duration_ms: 500 } } },
      { type: 'test:diagnostic' },
    ]),
    [
      { file: 'b', seconds: 3 },
      { file: 'a', seconds: 1.5 },
    ],
  );
});

it("a test file's temporary folders are gone when it exits, unless PIPER_PARALLEL_KEEP_TEMP=1", () => {
  const paths = new URL('./helpers/paths.js', import.meta.url).href;
  const make = (env: NodeJS.ProcessEnv): string =>
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { tempDir } = await import(${JSON.stringify(paths)}); const d = tempDir('suite-check'); (await import('node:fs')).writeFileSync(d + '/f', 'x'); console.log(d);`,
      ],
      { env, encoding: 'utf8' },
    ).trim();
  const { PIPER_PARALLEL_KEEP_TEMP: _keep, ...env } = process.env;
  const removed = make(env);
  assert.match(removed, /pp-suite-check-/);
  assert.equal(existsSync(removed), false);
  const kept = make({ ...env, PIPER_PARALLEL_KEEP_TEMP: '1' });
  assert.equal(existsSync(`${kept}/f`), true);
  rmSync(kept, { recursive: true });
});
