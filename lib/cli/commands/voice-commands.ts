import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PiperParallelError } from '../../core/errors.js';
import { fetchVoices } from '../../voice/fetch.js';
import { readVoice, type VoiceInfo } from '../../voice/load.js';
import { sherpaReadyVoice } from '../../voice/sherpa/prepare.js';
import { probeSherpaVoice } from '../../voice/sherpa/probe.js';
import { allVoices, locateVoice, voiceHome, type VoicePlaces } from '../../voice/places.js';
import { phonemesToIds, phonemizeLine } from '../../voice/phonemize.js';
import { SYNTHETIC_VOICES, writeSyntheticVoice } from '../../voice/synthetic/build.js';
import { Synthesizer } from '../../voice/synthesizer.js';
import { prepareText } from '../../voice/text.js';
import { encodeWav } from '../../voice/format/wav.js';
import { parseChoice, parseWhole } from '../args/parse.js';
import type { Io } from '../io/io.js';

/** Every voice with where it comes from: --voices-dir, ./voices, the cache, or the cache's synthetic folder. */
export async function listVoices(places: VoicePlaces, io: Io): Promise<number> {
  const found = await allVoices(places);
  if (found.length === 0) {
    const where = places.explicit ?? `${places.local} or ${places.cache}`;
    io.out(
      `no voice in ${where}; the synthetic ones are built on first use (piper-parallel voices build), real ones with piper-parallel voices fetch NAME`,
    );
    return 0;
  }
  io.out(['name', 'rate_hz', 'quality', 'speakers', 'size_mb', 'sha256', 'kind', 'from'].join('\t'));
  for (const { name, dir, from } of found) {
    try {
      const v = await readVoice(name, dir);
      io.out(
        [
          name,
          v.config.audio.sample_rate,
          v.config.audio.quality ?? '-',
          v.config.num_speakers,
          (v.sizeBytes / 1e6).toFixed(1),
          v.sha256.slice(0, 12),
          v.synthetic ? 'SYNTHETIC' : 'real',
          `${from} ${dir}`,
        ].join('\t'),
      );
    } catch (err) {
      io.out(`${name}\tbroken: ${(err as Error).message}`);
    }
  }
  return 0;
}

export async function buildVoices(places: VoicePlaces, io: Io): Promise<number> {
  const home = await voiceHome(places, true);
  for (const spec of SYNTHETIC_VOICES) {
    const t0 = performance.now();
    const built = await writeSyntheticVoice(spec, home.dir);
    const seconds = (performance.now() - t0) / 1000;
    io.out(
      `${spec.name} (SYNTHETIC, stands in for ${spec.standsInFor}): ${built.parameterCount} parameters, ` +
        `${built.onnx.length} bytes, sha256 ${built.sha256}, built in ${seconds.toFixed(2)} s -> ${built.onnxPath}`,
    );
  }
  return 0;
}

export async function fetchCommand(
  {
    names,
    places,
    baseUrl,
    signal,
  }: { names: string[]; places: VoicePlaces; baseUrl: string | undefined; signal?: AbortSignal },
  io: Io,
): Promise<number> {
  if (names.length === 0)
    throw new PiperParallelError(
      'USAGE',
      'voices fetch needs at least one voice name, e.g. piper-parallel voices fetch fr_FR-siwis-medium',
    );
  const home = await voiceHome(places, false);
  await fetchVoices(names, {
    voicesDir: home.dir,
    baseUrl,
    signal,
    onFile: (file, bytes) => io.out(`${file}: ${bytes} bytes, size and md5 verified`),
  });
  return 0;
}

export async function phonemizeCommand(
  { text, voice, espeakVoice, places }: { text?: string; voice?: string; espeakVoice?: string; places: VoicePlaces },
  io: Io,
): Promise<number> {
  if (!text)
    throw new PiperParallelError(
      'USAGE',
      'phonemize needs a text, e.g. piper-parallel phonemize --espeak-voice fr "Bonjour."',
    );
  if ((voice === undefined) === (espeakVoice === undefined))
    throw new PiperParallelError('USAGE', 'phonemize takes exactly one of --voice NAME or --espeak-voice CODE');
  if (espeakVoice) {
    for (const s of await phonemizeLine(text, espeakVoice))
      io.out(JSON.stringify({ phonemes: s.phonemes.join(''), phoneme_ids: s.standardIds }));
    return 0;
  }
  const v = await locateVoice(voice as string, places);
  for (const s of await phonemizeLine(text, v.config.espeak.voice)) {
    const { ids } = phonemesToIds(s.phonemes, v.config.phoneme_id_map, v.config.phoneme_map);
    io.out(JSON.stringify({ phonemes: s.phonemes.join(''), phoneme_ids: ids }));
  }
  return 0;
}

/** synth with sherpa-onnx: in a throwaway process, which writes the WAV (sherpa-onnx may end its process on a fatal error). */
async function synthSherpa(
  {
    v,
    text,
    threads,
    out,
    speaker,
  }: { v: VoiceInfo; text: string; threads: number; out: string; speaker: string | number | undefined },
  io: Io,
): Promise<number> {
  const id = typeof speaker === 'number' ? speaker : speaker === undefined ? 0 : v.config.speaker_id_map?.[speaker];
  if (id === undefined || id < 0 || id >= v.config.num_speakers)
    throw new PiperParallelError(
      'USAGE',
      `--speaker "${String(speaker)}" is not a speaker of ${v.name} (ids 0-${v.config.num_speakers - 1})`,
    );
  const ready = await sherpaReadyVoice(v);
  const r = await probeSherpaVoice({ voice: ready, threads, speakerId: id, text, wav: path.resolve(out) });
  const label = v.synthetic ? `${v.name} (SYNTHETIC: random weights, not speech)` : v.name;
  io.out(
    `${path.resolve(out)}: ${label}, sherpa-onnx ${r.versions.sherpa} (onnxruntime ${r.versions.onnxruntime}), ` +
      `${r.audioSeconds.toFixed(3)} s of audio, text to audio ${r.synthSeconds.toFixed(3)} s (phonemizing ` +
      `included), x${(r.audioSeconds / r.synthSeconds).toFixed(2)} real time at ${threads} thread(s)`,
  );
  return 0;
}

export interface SynthFlags {
  text?: string;
  voice?: string;
  threads?: string;
  out?: string;
  speaker?: string;
  engine?: string;
  places: VoicePlaces;
}

export async function synthCommand(
  { text, voice, threads: threadsRaw, out, speaker, engine: engineRaw, places }: SynthFlags,
  io: Io,
): Promise<number> {
  if (!voice) throw new PiperParallelError('USAGE', 'synth needs --voice NAME (see piper-parallel voices)');
  if (!out) throw new PiperParallelError('USAGE', 'synth needs --out FILE.wav');
  if (!text)
    throw new PiperParallelError(
      'USAGE',
      'synth needs a text, e.g. piper-parallel synth --voice synthetic-siwis-medium --out a.wav "Bonjour."',
    );
  const threads = threadsRaw === undefined ? 1 : parseWhole(threadsRaw, '--threads', 1);
  const engine =
    engineRaw === undefined ? 'onnxruntime' : parseChoice(engineRaw, '--engine', ['onnxruntime', 'sherpa'] as const);
  const v = await locateVoice(voice, places);
  const speakerId = speaker !== undefined && /^\d+$/.test(speaker) ? Number(speaker) : speaker;
  if (engine === 'sherpa') return synthSherpa({ v, text, threads, out, speaker: speakerId }, io);
  const synth = await Synthesizer.create(v, { threads, speaker: speakerId });
  const prepared = await prepareText([text], v.config);
  if (prepared.sentences.length === 0)
    throw new PiperParallelError('TEXT', "the text phonemizes to nothing; give words in the voice's language");
  const result = await synth.synthesize(synth.feedsFor(prepared), true);
  await synth.release();
  try {
    await writeFile(out, encodeWav(result.audio ?? new Int16Array(0), v.config.audio.sample_rate));
  } catch (err) {
    throw new PiperParallelError(
      'OUTPUT',
      `--out ${out} cannot be written (${(err as Error).message}); choose a writable path`,
      { cause: err },
    );
  }
  const label = v.synthetic ? `${v.name} (SYNTHETIC: random weights, not speech)` : v.name;
  io.out(
    `${path.resolve(out)}: ${label}, ${result.audioSeconds.toFixed(3)} s of audio, inference ${result.inferenceSeconds.toFixed(3)} ` +
      `s, phonemize ${prepared.phonemizeSeconds.toFixed(3)} s, x${(result.audioSeconds / result.inferenceSeconds).toFixed(2)} ` +
      `real time (rtf ${(result.inferenceSeconds / result.audioSeconds).toFixed(3)}) at ${threads} thread(s)`,
  );
  return 0;
}
