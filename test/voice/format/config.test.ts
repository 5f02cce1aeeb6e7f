// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parseVoiceConfig, parseVoiceConfigText } from '../../../lib/voice/format/config.js';
import { PiperParallelError } from '../../../lib/core/errors.js';
import { standardPhonemeIdMap } from '../../../lib/voice/format/phoneme-map.js';
import { HAS_SHARED, SHARED_CONFIGS } from '../../helpers/paths.js';

function good(): Record<string, unknown> {
  return {
    audio: { sample_rate: 22050, quality: 'medium' },
    espeak: { voice: 'fr' },
    inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 },
    phoneme_type: 'espeak',
    phoneme_id_map: standardPhonemeIdMap(),
    num_symbols: 256,
    num_speakers: 1,
    speaker_id_map: {},
  };
}

function keyError(value: unknown): string {
  try {
    parseVoiceConfig(value, 'x.onnx.json');
  } catch (err) {
    assert.ok(err instanceof PiperParallelError);
    assert.equal(err.code, 'VOICE_CONFIG');
    return err.message;
  }
  assert.fail('config was accepted');
}

describe('voice config schema', () => {
  it('accepts every real published config', { skip: !HAS_SHARED && 'no ../shared' }, () => {
    const files = readdirSync(SHARED_CONFIGS).filter((f) => f.endsWith('.onnx.json'));
    assert.ok(files.length >= 2);
    for (const f of files) {
      const cfg = parseVoiceConfigText(readFileSync(path.join(SHARED_CONFIGS, f), 'utf8'), f);
      assert.ok(cfg.audio.sample_rate > 0, f);
    }
  });

  it('the standard map equals the one real standard-map voices carry', { skip: !HAS_SHARED && 'no ../shared' }, () => {
    const lessac = JSON.parse(readFileSync(path.join(SHARED_CONFIGS, 'en_US-lessac-medium.onnx.json'), 'utf8')) as {
      phoneme_id_map: unknown;
    };
    assert.deepEqual(standardPhonemeIdMap(), lessac.phoneme_id_map);
  });

  it('accepts a minimal good config', () => {
    assert.equal(parseVoiceConfig(good(), 'x').num_symbols, 256);
  });

  for (const key of ['audio', 'espeak', 'inference', 'phoneme_id_map', 'num_symbols', 'num_speakers']) {
    it(`names the missing key ${key}`, () => {
      const cfg = good();
      delete cfg[key];
      assert.match(keyError(cfg), new RegExp(`key ${key}\\b`));
    });
  }

  it('names nested keys and wrong types', () => {
    const a = good();
    (a.audio as Record<string, unknown>).sample_rate = '22050';
    assert.match(keyError(a), /key audio\.sample_rate/);
    const b = good();
    (b.inference as Record<string, unknown>).noise_w = null;
    assert.match(keyError(b), /key inference\.noise_w/);
    const c = good();
    c.num_speakers = 1.5;
    assert.match(keyError(c), /key num_speakers/);
  });

  it('rejects ids at or above num_symbols', () => {
    const cfg = good();
    cfg.num_symbols = 100;
    assert.match(keyError(cfg), /phoneme_id_map.*not below num_symbols/);
  });

  it('names the file on a JSON syntax error', () => {
    assert.throws(() => parseVoiceConfigText('{"audio": ', 'broken.onnx.json'), /broken\.onnx\.json: not valid JSON/);
  });
});
