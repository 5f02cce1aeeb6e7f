// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { GENERATOR_VERSION } from '../../lib/voice/synthetic/build.js';
import {
  allVoices,
  findVoice,
  locateVoice,
  syntheticCacheDir,
  voiceHome,
  voicePlaces,
} from '../../lib/voice/places.js';
import { tempDir } from '../helpers/paths.js';

/** A voice's two files, enough to count as installed (not to load). */
function fakeVoice(dir: string, name: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.onnx`), 'x');
  writeFileSync(path.join(dir, `${name}.onnx.json`), '{}');
}

describe('where voices are, and where they go', () => {
  it('the cache is $XDG_CACHE_HOME/piper-parallel/voices, or ~/.cache/... when that is unset or relative', () => {
    const cwd = tempDir('project');
    assert.equal(voicePlaces(undefined, { XDG_CACHE_HOME: '/tmp/xdg' }, cwd).cache, '/tmp/xdg/piper-parallel/voices');
    assert.equal(
      voicePlaces(undefined, { XDG_CACHE_HOME: 'relative' }, cwd).cache,
      path.join(os.homedir(), '.cache', 'piper-parallel', 'voices'),
    );
    assert.equal(voicePlaces(undefined, {}, cwd).cache, path.join(os.homedir(), '.cache', 'piper-parallel', 'voices'));
    const p = voicePlaces('my-voices', { XDG_CACHE_HOME: '/tmp/xdg' }, cwd);
    assert.deepEqual([p.explicit, p.local], [path.join(cwd, 'my-voices'), path.join(cwd, 'voices')]);
    // Keyed by the builder's version: a new builder never reuses an old file.
    assert.equal(syntheticCacheDir(p), `/tmp/xdg/piper-parallel/voices/synthetic-v${GENERATOR_VERSION}`);
  });

  it('new voices go to --voices-dir; else to ./voices when it holds real voices; else to the cache', async () => {
    const cwd = tempDir('project');
    const env = { XDG_CACHE_HOME: tempDir('xdg') };
    const bare = voicePlaces(undefined, env, cwd);
    assert.deepEqual(await voiceHome(bare, true), { dir: syntheticCacheDir(bare), from: 'cache (synthetic)' });
    assert.deepEqual(await voiceHome(bare, false), { dir: bare.cache, from: 'cache' });
    // A ./voices with only synthetic voices (or a README) is not a place of real voices.
    fakeVoice(bare.local, 'synthetic-siwis-medium');
    assert.equal((await voiceHome(bare, true)).from, 'cache (synthetic)');
    fakeVoice(bare.local, 'fr_FR-siwis-medium');
    assert.deepEqual(await voiceHome(bare, true), { dir: bare.local, from: './voices' });
    const explicit = voicePlaces('elsewhere', env, cwd);
    assert.deepEqual(await voiceHome(explicit, true), { dir: path.join(cwd, 'elsewhere'), from: '--voices-dir' });
  });

  it('finds a voice in ./voices before the cache, and only in --voices-dir when it is given', async () => {
    const cwd = tempDir('project');
    const env = { XDG_CACHE_HOME: tempDir('xdg') };
    const p = voicePlaces(undefined, env, cwd);
    fakeVoice(p.cache, 'fr_FR-tom-medium');
    assert.deepEqual(await findVoice('fr_FR-tom-medium', p), { dir: p.cache, from: 'cache' });
    fakeVoice(p.local, 'fr_FR-tom-medium');
    assert.deepEqual(await findVoice('fr_FR-tom-medium', p), { dir: p.local, from: './voices' });
    assert.equal(await findVoice('fr_FR-tom-medium', voicePlaces('other', env, cwd)), undefined);
    assert.deepEqual(
      (await allVoices(p)).map((v) => [v.name, v.from]),
      [
        ['fr_FR-tom-medium', './voices'],
        ['fr_FR-tom-medium', 'cache'],
      ],
    );
    await assert.rejects(
      locateVoice('fr_FR-nobody-medium', p),
      new RegExp(
        `voice "fr_FR-nobody-medium" is not in ${p.local} or ${p.cache} \\(installed: fr_FR-tom-medium\\); run \`piper-parallel voices fetch fr_FR-nobody-medium\` or pass --voices-dir`,
      ),
    );
  });

  it('builds a synthetic voice into the cache, writing nothing into the project', async () => {
    const cwd = tempDir('project');
    const p = voicePlaces(undefined, { XDG_CACHE_HOME: tempDir('xdg') }, cwd);
    const v = await locateVoice('synthetic-siwis-medium', p);
    assert.equal(v.from, 'cache (synthetic)');
    assert.equal(path.dirname(v.onnxPath), syntheticCacheDir(p));
    assert.equal(v.synthetic, true);
    assert.deepEqual(readdirSync(cwd), []);
    // The second time it is checked and reused, from the same place.
    assert.equal((await locateVoice('synthetic-siwis-medium', p)).sha256, v.sha256);
  });
});
