/**
 * A throwaway process that loads a sherpa-ready voice in sherpa-onnx and synthesizes one text:
 * sherpa-onnx ends its process on a fatal error (exit 255), so it is tried here, never in the
 * parent. Optionally writes the WAV (`synth --engine sherpa`). Prints one JSON line.
 */
import { writeFile } from 'node:fs/promises';
import { toError } from '../../core/errors.js';
import { encodeWav, floatToInt16 } from '../format/wav.js';
import { SherpaSynthesizer, sherpaVersions } from './engine.js';
import { ProbeRequestSchema } from './schema.js';

try {
  const request = ProbeRequestSchema.parse(JSON.parse(process.argv[2] ?? '{}'));
  const t0 = performance.now();
  const synth = SherpaSynthesizer.create(request.voice, request.threads, request.speakerId);
  const t1 = performance.now();
  const out = synth.synthesize(request.text);
  const t2 = performance.now();
  const pcm = floatToInt16(out.samples);
  if (request.wav) await writeFile(request.wav, encodeWav(pcm, request.voice.sampleRate));
  process.stdout.write(
    `${JSON.stringify({
      ok: true,
      samples: pcm.length,
      audioSeconds: out.audioSeconds,
      loadSeconds: (t1 - t0) / 1000,
      synthSeconds: (t2 - t1) / 1000,
      versions: sherpaVersions(),
    })}\n`,
  );
} catch (err) {
  process.stdout.write(`${JSON.stringify({ ok: false, message: toError(err).message })}\n`);
  process.exitCode = 1;
}
