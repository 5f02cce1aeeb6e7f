// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PiperParallelError } from '../../lib/core/errors.js';
import { parseVoiceConfig } from '../../lib/voice/format/config.js';
import { standardPhonemeIdMap } from '../../lib/voice/format/phoneme-map.js';
import { prepareTextApart } from '../../lib/voice/prepare-apart.js';
import { prepareText } from '../../lib/voice/text.js';

const config = parseVoiceConfig(
  {
    audio: { sample_rate: 22050 },
    espeak: { voice: 'fr' },
    inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 },
    phoneme_id_map: standardPhonemeIdMap(),
    num_symbols: 256,
    num_speakers: 1,
  },
  'test.onnx.json',
);

describe('phonemizing in a thread of its own', () => {
  it('gives what prepareText gives in this thread', async () => {
    const lines = ['Bonjour tout le monde.', 'Le train partira du quai trois. Il a du retard.'];
    const apart = await prepareTextApart(lines, config);
    const here = await prepareText(lines, config);
    assert.deepEqual(
      apart.sentences.map((s) => s.ids),
      here.sentences.map((s) => s.ids),
    );
    assert.equal(apart.sentences.length, 3);
    assert.ok(apart.phonemizeSeconds > 0);
  });

  it('carries a failure back with its code and message', async () => {
    await assert.rejects(prepareTextApart(['Oui.'], { ...config, phoneme_type: 'text' }), (err: unknown) => {
      assert.ok(err instanceof PiperParallelError);
      assert.equal(err.code, 'PHONEMIZE');
      assert.match(err.message, /phoneme_type "text" is not supported/);
      return true;
    });
  });

  it('gives up after its timeout instead of waiting forever', async () => {
    await assert.rejects(
      prepareTextApart(['Oui.'], config, 1),
      /phonemizing the text took over 1 ms; give a shorter text/,
    );
  });
});
