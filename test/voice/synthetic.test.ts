// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import * as ort from 'onnxruntime-node';
import { parseVoiceConfig } from '../../lib/voice/format/config.js';
import { resolveVoice } from '../../lib/voice/load.js';
import { standardPhonemeIdMap } from '../../lib/voice/format/phoneme-map.js';
import {
  buildSyntheticVoice,
  ensureSyntheticVoice,
  sha256Hex,
  SYNTHETIC_VOICES,
} from '../../lib/voice/synthetic/build.js';
import { drawFrameTable, MEDIUM } from '../../lib/voice/synthetic/medium.js';
import { decodeModel } from '../../lib/voice/synthetic/onnx-proto.js';
import { Synthesizer } from '../../lib/voice/synthesizer.js';
import { sharedVoicesDir } from '../helpers/paths.js';
import { quietTelemetry } from '../../lib/voice/onnxruntime.js';

// As the library does before any session: onnxruntime's telemetry leaves files in /tmp otherwise.
quietTelemetry();

const [siwis, tom] = SYNTHETIC_VOICES;

describe('synthetic voices', () => {
  it('the same seed gives a byte-identical .onnx; another seed does not', () => {
    const a = buildSyntheticVoice(siwis!);
    const b = buildSyntheticVoice(siwis!);
    assert.equal(a.sha256, b.sha256);
    assert.equal(sha256Hex(a.onnx), sha256Hex(b.onnx));
    assert.notEqual(buildSyntheticVoice(tom!).sha256, a.sha256);
  });

  it('has about as many parameters as a Piper medium voice (15.8 M, within 5%)', () => {
    const v = buildSyntheticVoice(siwis!);
    assert.ok(Math.abs(v.parameterCount - 15.8e6) / 15.8e6 <= 0.05, `${v.parameterCount}`);
    // The count is the sum of the float initializers' sizes, less shape and noise constants.
    const model = decodeModel(v.onnx);
    const floats = model.graph.initializer
      .filter((t) => t.dataType === 1)
      .reduce((n, t) => n + t.dims.reduce((a, d) => a * Number(d), 1), 0);
    assert.ok(floats >= v.parameterCount && floats - v.parameterCount < 2000, `${floats} vs ${v.parameterCount}`);
  });

  it('is opset 15 with Piper inputs and a config that marks it synthetic', () => {
    const v = buildSyntheticVoice(tom!);
    const model = decodeModel(v.onnx);
    assert.deepEqual(
      model.opsetImport.map((o) => [o.domain, Number(o.version)]),
      [['', 15]],
    );
    assert.deepEqual(
      model.graph.input.map((i) => i.name),
      ['input', 'input_lengths', 'scales'],
    );
    assert.deepEqual(
      model.graph.output.map((o) => o.name),
      ['output'],
    );
    const cfg = parseVoiceConfig(JSON.parse(JSON.stringify(v.config)), 'built');
    assert.equal(cfg.audio.sample_rate, 44100);
    assert.equal(cfg.espeak.voice, 'fr');
    assert.deepEqual(cfg.phoneme_id_map, standardPhonemeIdMap());
    assert.equal(cfg.synthetic?.parameter_count, v.parameterCount);
    assert.equal(cfg.synthetic?.onnx_sha256, v.sha256);
  });

  it('outputs frames x 256 samples, frames = sum of ceil(table[id] x length_scale), finite and not saturated', async () => {
    const voice = await resolveVoice(siwis!.name, sharedVoicesDir());
    const session = await ort.InferenceSession.create(voice.onnxPath, { intraOpNumThreads: 1, interOpNumThreads: 1 });
    const ids = [1, 0, 15, 0, 54, 0, 141, 0, 108, 0, 120, 0, 33, 0, 94, 0, 10, 0, 2];
    const table = drawFrameTable(siwis!.seed, siwis!.sampleRate);
    for (const lengthScale of [1, 1.37]) {
      const frames = ids.reduce(
        (n, id) => n + Math.ceil(Math.fround(Math.fround(table[id]!) * Math.fround(lengthScale))),
        0,
      );
      const out = await session.run({
        input: new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, ids.length]),
        input_lengths: new ort.Tensor('int64', BigInt64Array.from([BigInt(ids.length)]), [1]),
        scales: new ort.Tensor('float32', Float32Array.from([0.667, lengthScale, 0.8]), [3]),
      });
      const data = out.output!.data as Float32Array;
      assert.deepEqual(out.output!.dims, [1, 1, 1, frames * MEDIUM.hop]);
      let peak = 0;
      let saturated = 0;
      for (const x of data) {
        assert.ok(Number.isFinite(x));
        peak = Math.max(peak, Math.abs(x));
        if (Math.abs(x) > 0.99) saturated += 1;
      }
      assert.ok(peak > 0.01, `peak ${peak}`);
      assert.ok(saturated / data.length < 0.01, `saturated share ${saturated / data.length}`);
    }
    await session.release();
  });

  it('is reused after a checksum check, and rebuilt when the file was damaged', async () => {
    const dir = sharedVoicesDir();
    const first = await ensureSyntheticVoice(siwis!, dir);
    const again = await ensureSyntheticVoice(siwis!, dir);
    assert.equal(again.rebuilt, false);
    assert.equal(again.sha256, first.sha256);
    const { writeFileSync } = await import('node:fs');
    const bytes = readFileSync(first.onnxPath);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0xff;
    writeFileSync(first.onnxPath, bytes);
    const repaired = await ensureSyntheticVoice(siwis!, dir);
    assert.equal(repaired.rebuilt, true);
    assert.equal(repaired.sha256, first.sha256);
  });

  it('synthesizes through the Synthesizer with timings per sentence', async () => {
    const voice = await resolveVoice(siwis!.name, sharedVoicesDir());
    const s = await Synthesizer.create(voice, { threads: 1 });
    const { prepareText } = await import('../../lib/voice/text.js');
    const prepared = await prepareText(['Bonjour. Au revoir.'], voice.config);
    assert.equal(prepared.sentences.length, 2);
    const r = await s.synthesize(s.feedsFor(prepared), true);
    assert.equal(r.sentences.length, 2);
    assert.equal(r.samples, r.sentences[0]!.samples + r.sentences[1]!.samples);
    assert.equal(r.audio?.length, r.samples);
    assert.ok(r.inferenceSeconds > 0 && r.audioSeconds > 0);
    assert.equal(r.samples % MEDIUM.hop, 0);
    assert.ok(r.phonemizeSeconds > 0 && Math.abs(r.phonemizeSeconds - prepared.phonemizeSeconds) < 0.05);
    await s.release();
  });
});

describe('speaker selection', () => {
  it('refuses an unknown speaker of a multi-speaker voice, and --speaker on a single-speaker one', async () => {
    const voice = await resolveVoice(siwis!.name, sharedVoicesDir());
    const multi = {
      ...voice,
      config: { ...voice.config, num_speakers: 3, speaker_id_map: { alice: 0, bob: 1, carol: 2 } },
    };
    await assert.rejects(
      Synthesizer.create(multi, { speaker: 'dave' }),
      /--speaker "dave" is not a speaker .* \(ids 0-2; names: alice, bob, carol\)/,
    );
    await assert.rejects(Synthesizer.create(multi, { speaker: 3 }), /--speaker "3" is not a speaker/);
    await assert.rejects(Synthesizer.create(voice, { speaker: 0 }), /has a single speaker; drop --speaker/);
  });
});
