// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { VoiceConfig } from '../../../lib/voice/format/config.js';
import { tokensText } from '../../../lib/voice/sherpa/tokens.js';

const config = (map: Record<string, number[]>, extra: Partial<VoiceConfig> = {}): VoiceConfig =>
  ({ phoneme_id_map: map, ...extra }) as unknown as VoiceConfig;

describe('tokens.txt', () => {
  it('writes one "symbol id" line per phoneme, the space as a line that starts with a space', () => {
    assert.equal(tokensText(config({ _: [0], '^': [1], ' ': [3], ɛ: [61] }), 'v'), '_ 0\n^ 1\n  3\nɛ 61\n');
  });

  it('refuses what sherpa-onnx would end its process over, naming the voice and the other engine', () => {
    assert.throws(
      () => tokensText(config({ a: [1, 2] }), 'v1'),
      /voice v1: phoneme "a" maps to 2 ids.*--engine onnxruntime/,
    );
    assert.throws(
      () => tokensText(config({ ab: [1] }), 'v2'),
      /voice v2: phoneme "ab" is not one printable code point/,
    );
    assert.throws(() => tokensText(config({ '\t': [1] }), 'v3'), /voice v3: phoneme "\\t"/);
    assert.throws(
      () => tokensText(config({ a: [1] }, { phoneme_map: { a: ['b'] } }), 'v4'),
      /voice v4 has a phoneme_map/,
    );
  });
});
