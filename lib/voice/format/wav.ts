/** A 16-bit PCM mono WAV file (RIFF, 44-byte header). */
export function encodeWav(samples: Int16Array, sampleRate: number): Buffer {
  const dataBytes = samples.length * 2;
  const buf = Buffer.alloc(44 + dataBytes);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + dataBytes, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16); // fmt chunk size
  buf.writeUInt16LE(1, 20); // PCM
  buf.writeUInt16LE(1, 22); // mono
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * 2, 28); // byte rate
  buf.writeUInt16LE(2, 32); // block align
  buf.writeUInt16LE(16, 34); // bits per sample
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < samples.length; i += 1) buf.writeInt16LE(samples[i] ?? 0, 44 + i * 2);
  return buf;
}

export interface WavHeader {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  dataBytes: number;
}

/** Read back the header fields (used by tests and by `synth` to check its own output). */
export function parseWavHeader(buf: Buffer): WavHeader {
  if (buf.length < 44 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  if (buf.toString('ascii', 12, 16) !== 'fmt ' || buf.toString('ascii', 36, 40) !== 'data') {
    throw new Error('unexpected WAV chunk layout');
  }
  return {
    channels: buf.readUInt16LE(22),
    sampleRate: buf.readUInt32LE(24),
    bitsPerSample: buf.readUInt16LE(34),
    dataBytes: buf.readUInt32LE(40),
  };
}

/** Piper's conversion: scale each sentence by 32767 / max(0.01, max|x|), clip, truncate to int16. */
export function floatToInt16(audio: Float32Array): Int16Array {
  let peak = 0;
  for (let i = 0; i < audio.length; i += 1) {
    const a = Math.abs(audio[i] ?? 0);
    if (a > peak) peak = a;
  }
  const scale = 32767 / Math.max(0.01, peak);
  const out = new Int16Array(audio.length);
  for (let i = 0; i < audio.length; i += 1) {
    const v = (audio[i] ?? 0) * scale;
    out[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : Math.trunc(v);
  }
  return out;
}
