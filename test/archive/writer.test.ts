// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { archiveBaseName, checkWritable, writeExclusive } from '../../lib/archive/writer.js';
import { PartialLog } from '../../lib/archive/partial.js';
import { tempDir } from '../helpers/paths.js';

describe('archive naming and writing', () => {
  it('names archives by UTC second', () => {
    assert.equal(archiveBaseName(new Date(Date.UTC(2026, 0, 2, 3, 4, 5))), 'piper-parallel-20260102-030405');
  });

  it('never overwrites: 20 concurrent writers in the same second get 20 files', async () => {
    const dir = tempDir('arch');
    const base = archiveBaseName(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)));
    writeFileSync(path.join(dir, `${base}.json`), 'earlier run');
    const paths = await Promise.all(Array.from({ length: 20 }, (_, i) => writeExclusive(dir, base, `{"n":${i}}`)));
    assert.equal(new Set(paths).size, 20);
    assert.equal(readFileSync(path.join(dir, `${base}.json`), 'utf8'), 'earlier run');
    assert.equal(readdirSync(dir).length, 21);
    const contents = paths.map((p) => (JSON.parse(readFileSync(p, 'utf8')) as { n: number }).n).sort((a, b) => a - b);
    assert.deepEqual(
      contents,
      Array.from({ length: 20 }, (_, i) => i),
    );
  });

  it(
    'detects an unwritable output folder before measuring',
    { skip: process.getuid?.() === 0 && 'root writes anywhere; see the file-in-the-way case' },
    async () => {
      const dir = tempDir('ro');
      chmodSync(dir, 0o500);
      await assert.rejects(checkWritable(dir), /--out-dir .* is not writable/);
    },
  );

  it('detects an output path that is a file', async () => {
    const dir = tempDir('ro');
    const file = path.join(dir, 'afile');
    writeFileSync(file, 'x');
    await assert.rejects(checkWritable(path.join(file, 'sub')), /--out-dir .* is not writable/);
  });

  it('the partial log refuses an arm round it already holds, and takes the same arm in another round', async () => {
    const dir = tempDir('partial');
    mkdirSync(dir, { recursive: true });
    const log = await PartialLog.create(dir, 'run', { x: 1 });
    const entry = { key: 'v|K2|T1|pinned|process', round: 1, order: 3, run: {} };
    await log.append(entry);
    await assert.rejects(
      log.append(entry),
      /already holds arm v\|K2\|T1\|pinned\|process in round 1; refusing a duplicate/,
    );
    await log.append({ ...entry, round: 2 });
    const lines = readFileSync(log.file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; round?: number });
    assert.deepEqual(
      lines.map((l) => [l.kind, l.round]),
      [
        ['header', undefined],
        ['round', 1],
        ['round', 2],
      ],
    );
  });
});
