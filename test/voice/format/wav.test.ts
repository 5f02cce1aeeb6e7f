// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeWav, floatToInt16, parseWavHeader } from '../../../lib/voice/format/wav.js';

describe('WAV', () => {
  it('writes a 16-bit mono PCM header that reads back', () => {
    const buf = encodeWav(Int16Array.from([0, 1, -1, 32767]), 22050);
    assert.equal(buf.length, 44 + 8);
    assert.deepEqual(parseWavHeader(buf), { channels: 1, sampleRate: 22050, bitsPerSample: 16, dataBytes: 8 });
    assert.equal(buf.readUInt32LE(4), 36 + 8);
    assert.equal(buf.readUInt32LE(28), 44100);
    assert.equal(buf.readInt16LE(44 + 6), 32767);
  });

  it('refuses what is not a WAV', () => {
    assert.throws(() => parseWavHeader(Buffer.from('not a wav file at all, no header here........')), /RIFF/);
  });
});

describe('float to int16 as Piper does', () => {
  it('scales by 32767 / max(0.01, peak)', () => {
    assert.deepEqual([...floatToInt16(Float32Array.from([0.5, -0.25, 0]))], [32767, -16383, 0]);
  });

  it('does not blow up near-silence: the peak floor is 0.01', () => {
    assert.deepEqual([...floatToInt16(Float32Array.from([0.001, -0.005]))], [3276, -16383]);
  });
});
