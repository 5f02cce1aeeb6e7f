// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFile, cp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { resolveVoice, sha256File, type VoiceInfo } from '../../../lib/voice/load.js';
import { readModelMetadata } from '../../../lib/voice/sherpa/metadata.js';
import { checkSherpaVoice, sherpaReadyVoice, type SherpaVoice } from '../../../lib/voice/sherpa/prepare.js';
import { probeSherpaVoice } from '../../../lib/voice/sherpa/probe.js';
import { Synthesizer } from '../../../lib/voice/synthesizer.js';
import { prepareText } from '../../../lib/voice/text.js';
import { tempDir, sharedVoicesDir } from '../../helpers/paths.js';

const TEXT = 'Bonjour, ceci est un essai.';
const cache = tempDir('sherpa-cache');

/** The int16 samples of a 16-bit mono WAV written by encodeWav (44-byte header). */
async function wavSamples(file: string): Promise<Int16Array> {
  const buf = await readFile(file);
  return new Int16Array(buf.buffer.slice(buf.byteOffset + 44, buf.byteOffset + buf.length));
}

async function onnxruntimeSamples(voice: VoiceInfo): Promise<Int16Array> {
  const synth = await Synthesizer.create(voice, { threads: 1 });
  const r = await synth.synthesize(synth.feedsFor(await prepareText([TEXT], voice.config)), true);
  await synth.release();
  return r.audio ?? new Int16Array(0);
}

/** A copy of a sherpa-ready folder to break, so the shared one stays good. */
async function brokenCopy(ready: SherpaVoice, name: string): Promise<SherpaVoice> {
  const dir = path.join(tempDir('sherpa-broken'), name);
  await cp(ready.dir, dir, { recursive: true });
  return {
    ...ready,
    dir,
    model: path.join(dir, 'model.onnx'),
    tokens: path.join(dir, 'tokens.txt'),
    provider: `cpu:${path.join(dir, 'session.cfg')}`,
  };
}

describe('sherpa-ready voices', () => {
  const voices: Record<string, { voice: VoiceInfo; ready: SherpaVoice; sha256: string }> = {};
  before(async () => {
    for (const name of ['synthetic-siwis-medium', 'synthetic-tom-medium']) {
      const voice = await resolveVoice(name, sharedVoicesDir());
      voices[name] = { voice, ready: await sherpaReadyVoice(voice, cache), sha256: voice.sha256 };
    }
  });

  it("makes a copy with sherpa-onnx's metadata in the cache, and never touches the user's model", async () => {
    for (const { voice, ready, sha256 } of Object.values(voices)) {
      assert.ok(
        ready.dir.startsWith(cache) && ready.dir.includes(sha256.slice(0, 16)),
        `${ready.dir} is in the cache, keyed by the sha256`,
      );
      const meta = readModelMetadata(await readFile(ready.model));
      assert.equal(meta.get('sample_rate'), String(voice.config.audio.sample_rate));
      assert.equal(meta.get('voice'), voice.config.espeak.voice);
      assert.match(meta.get('comment') ?? '', /piper.*SYNTHETIC/);
      assert.equal(readModelMetadata(await readFile(voice.onnxPath)).has('n_speakers'), false);
      assert.equal(await sha256File(voice.onnxPath), sha256);
    }
  });

  it('gives the same audio as onnxruntime-node within 1 LSB, same length, for both synthetic voices', async () => {
    for (const [name, { voice, ready }] of Object.entries(voices)) {
      const wav = path.join(tempDir('sherpa-wav'), 'a.wav');
      const probe = await probeSherpaVoice({ voice: ready, threads: 1, text: TEXT, wav });
      const theirs = await wavSamples(wav);
      const ours = await onnxruntimeSamples(voice);
      assert.equal(theirs.length, ours.length, `${name}: sample counts`);
      assert.equal(probe.samples, ours.length);
      assert.ok(ours.length > voice.config.audio.sample_rate, `${name}: over a second of audio`);
      let worst = 0;
      for (let i = 0; i < ours.length; i += 1)
        worst = Math.max(worst, Math.abs((ours[i] as number) - (theirs[i] as number)));
      assert.ok(worst <= 1, `${name}: largest sample difference ${worst}`);
      assert.match(probe.versions.sherpa, /^\d+\.\d+\.\d+$/);
    }
  });

  it("sherpa-onnx reads Piper's session settings from the copy's provider config", async () => {
    const { ready } = voices['synthetic-siwis-medium']!;
    const cfg = path.join(tempDir('sherpa-cfg'), 'session.cfg');
    // The copy's own settings, with sherpa-onnx's DEBUG key so it prints what it read.
    await writeFile(cfg, `${await readFile(ready.provider.slice('cpu:'.length), 'utf8')}DEBUG=1\n`);
    const entry = fileURLToPath(new URL('../../../lib/voice/sherpa/probe-entry.js', import.meta.url));
    const r = spawnSync(
      process.execPath,
      [entry, JSON.stringify({ voice: { ...ready, provider: `cpu:${cfg}` }, threads: 1, text: TEXT })],
      { encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(r.status, 0, r.stderr);
    const read = [...r.stderr.matchAll(/Provider config: (\w+=\d+)/g)].map((m) => m[1]).sort();
    assert.deepEqual(read, ['DEBUG=1', 'EnableCpuMemArena=0', 'EnableMemPattern=0', 'GraphOptimizationLevel=1']);
  });

  it('a model without metadata is one line naming the voice and the fix, before sherpa-onnx sees it', async () => {
    const { voice, ready } = voices['synthetic-siwis-medium']!;
    const broken = await brokenCopy(ready, 'no-metadata');
    await copyFile(voice.onnxPath, broken.model);
    await assert.rejects(checkSherpaVoice(broken), (e: Error) => {
      assert.match(
        e.message,
        /^voice synthetic-siwis-medium: model \S+ has no sherpa-onnx metadata sample_rate, n_speakers, language, comment; delete \S+ and run again/,
      );
      assert.doesNotMatch(e.message, /\n/);
      return true;
    });
    // Given to sherpa-onnx anyway, it ends its process with 255: the probe turns that into one line too.
    await assert.rejects(probeSherpaVoice({ voice: broken, threads: 1, text: TEXT }), (e: Error) => {
      assert.match(
        e.message,
        /^voice synthetic-siwis-medium: sherpa-onnx ended its process with exit code 255 while loading its sherpa-ready copy \(it said: 'sample_rate' does not exist in the metadata\); delete \S+ to have it made anew, or use --engine onnxruntime$/,
      );
      return true;
    });
  });

  it('a missing espeak-ng-data folder is one line naming it and the fix', async () => {
    const { ready } = voices['synthetic-tom-medium']!;
    const gone = path.join(tempDir('no-espeak'), 'espeak-ng-data');
    await assert.rejects(
      checkSherpaVoice({ ...ready, dataDir: gone }),
      new RegExp(
        `: voice synthetic-tom-medium: the espeak-ng-data folder ${gone} is missing or incomplete; delete it and run again`,
      ),
    );
    await mkdir(gone);
    await assert.rejects(checkSherpaVoice({ ...ready, dataDir: gone }), /is missing or incomplete/);
  });

  it('a voice sherpa-onnx cannot load (a damaged model) is one line naming the voice, never a bare exit code', async () => {
    const { ready } = voices['synthetic-siwis-medium']!;
    const broken = await brokenCopy(ready, 'damaged');
    const bytes = await readFile(broken.model);
    // Metadata kept (the check passes), the graph's weights cut short.
    await writeFile(broken.model, Buffer.concat([bytes.subarray(0, 4096), bytes.subarray(bytes.length - 2048)]));
    await assert.rejects(probeSherpaVoice({ voice: broken, threads: 1, text: TEXT }), (e: Error) => {
      assert.match(e.message, /^voice synthetic-siwis-medium: /);
      assert.match(e.message, /delete \S+ to have it made anew, or use --engine onnxruntime$/);
      assert.doesNotMatch(e.message, /\n/);
      return true;
    });
    await rm(broken.dir, { recursive: true, force: true });
    assert.equal(await stat(ready.model).then(() => true), true);
  });

  it('a child whose line starts with "{" but is not JSON, and says far too much, is one line; the parent never crashes', async () => {
    const { ready } = voices['synthetic-siwis-medium']!;
    const entry = fileURLToPath(new URL('../../fixtures/garbage-probe.js', import.meta.url));
    await assert.rejects(probeSherpaVoice({ voice: ready, threads: 1, text: TEXT }, { entry }), (e: Error) => {
      assert.match(
        e.message,
        /^voice synthetic-siwis-medium: sherpa-onnx ended its process with exit code 0 while loading/,
      );
      assert.doesNotMatch(e.message, /\n/);
      return true;
    });
  });
});
