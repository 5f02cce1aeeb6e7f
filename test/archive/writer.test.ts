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
    assert.deepEqual(contents, Array.from({ length: 20 }, (_, i) => i));
  });

  it('detects an unwritable output folder before measuring', { skip: process.getuid?.() === 0 && 'root writes anywhere; see the file-in-the-way case' }, async () => {
    const dir = tempDir('ro');
    chmodSync(dir, 0o500);
    await assert.rejects(checkWritable(dir), /--out-dir .* is not writable/);
  });

  it('detects an output path that is a file', async () => {
    const dir = tempDir('ro');
    const file = path.join(dir, 'afile');
    writeFileSync(file, 'x');
    await assert.rejects(checkWritable(path.join(file, 'sub')), /--out-dir .* is not writable/);
  });

  it('the partial log refuses an arm it already holds', async () => {
    const dir = tempDir('partial');
    mkdirSync(dir, { recursive: true });
    const log = await PartialLog.create(dir, 'run', { x: 1 });
    const arm = { voix: 'v', flux_simultanes: 2, fils_par_flux: 1, affinite_demandee: true, isolation: 'process' } as never;
    await log.append(arm);
    await assert.rejects(log.append(arm), /already holds arm v\|K2\|T1\|pinned\|process/);
    const lines = readFileSync(log.file, 'utf8').trim().split('\n');
    assert.equal(lines.length, 2);
  });
});
