import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PiperParallelError } from '../../core/errors.js';
import type { VoiceConfig } from '../format/config.js';
import { parseVoiceConfigText } from '../format/config.js';
import { standardPhonemeIdMap } from '../format/phoneme-map.js';
import { buildMediumGraph } from './medium.js';
import { encodeModel } from './onnx-proto.js';

export const GENERATOR_VERSION = '2';
export const OPSET = 15;
/** IR version 8 goes with opset 15. */
const IR_VERSION = 8;

export interface SyntheticSpec {
  name: string;
  seed: number;
  sampleRate: number;
  /** The real voice this one stands in for. */
  standsInFor: string;
  dataset: string;
}

/** Stand-ins for the two voices of the original experiment. */
export const SYNTHETIC_VOICES: readonly SyntheticSpec[] = [
  {
    name: 'synthetic-siwis-medium',
    seed: 1,
    sampleRate: 22050,
    standsInFor: 'fr_FR-siwis-medium',
    dataset: 'synthetic-siwis',
  },
  {
    name: 'synthetic-tom-medium',
    seed: 2,
    sampleRate: 44100,
    standsInFor: 'fr_FR-tom-medium',
    dataset: 'synthetic-tom',
  },
];

export function syntheticSpec(name: string): SyntheticSpec | undefined {
  return SYNTHETIC_VOICES.find((s) => s.name === name);
}

export interface BuiltVoice {
  onnx: Uint8Array;
  config: VoiceConfig;
  parameterCount: number;
  sha256: string;
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Build a voice in memory: the same spec gives the same bytes. */
export function buildSyntheticVoice(spec: SyntheticSpec): BuiltVoice {
  const { builder } = buildMediumGraph(spec.seed, spec.sampleRate);
  const architecture = 'piper-medium-vits-shaped';
  const onnx = encodeModel({
    irVersion: IR_VERSION,
    producerName: 'piper-parallel synthetic voice generator',
    producerVersion: GENERATOR_VERSION,
    docString: `SYNTHETIC voice ${spec.name}: random weights shaped like a Piper medium voice; it does not speak. Stand-in for ${spec.standsInFor}.`,
    opsetImport: [{ domain: '', version: OPSET }],
    metadataProps: [
      { key: 'synthetic', value: 'true' },
      { key: 'seed', value: String(spec.seed) },
    ],
    graph: {
      name: spec.name,
      node: builder.nodes,
      initializer: builder.initializers,
      input: builder.inputs,
      output: builder.outputs,
    },
  });
  const sha256 = sha256Hex(onnx);
  const config: VoiceConfig = {
    dataset: spec.dataset,
    audio: { sample_rate: spec.sampleRate, quality: 'medium' },
    espeak: { voice: 'fr' },
    language: {
      code: 'fr_FR',
      family: 'fr',
      region: 'FR',
      name_native: 'Français',
      name_english: 'French',
      country_english: 'France',
    },
    inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 },
    phoneme_type: 'espeak',
    phoneme_map: {},
    phoneme_id_map: standardPhonemeIdMap(),
    num_symbols: 256,
    num_speakers: 1,
    speaker_id_map: {},
    piper_version: '1.0.0',
    synthetic: {
      seed: spec.seed,
      generator_version: GENERATOR_VERSION,
      parameter_count: builder.parameterCount,
      architecture,
      onnx_sha256: sha256,
    },
  };
  return { onnx, config, parameterCount: builder.parameterCount, sha256 };
}

async function writeAtomically(file: string, data: Uint8Array | string): Promise<void> {
  // A name no one can guess, created exclusively: a link planted at a predictable name is never written through.
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
  try {
    await writeFile(tmp, data, { flag: 'wx' });
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw new PiperParallelError(
      'OUTPUT',
      `could not write ${file} (${(err as Error).message}); check that --voices-dir is writable`,
      { cause: err },
    );
  }
}

/** Write a synthetic voice into `voicesDir` (both files replaced atomically). */
export async function writeSyntheticVoice(
  spec: SyntheticSpec,
  voicesDir: string,
): Promise<BuiltVoice & { onnxPath: string }> {
  const built = buildSyntheticVoice(spec);
  await mkdir(voicesDir, { recursive: true });
  const onnxPath = path.join(voicesDir, `${spec.name}.onnx`);
  await writeAtomically(onnxPath, built.onnx);
  await writeAtomically(`${onnxPath}.json`, `${JSON.stringify(built.config, null, 2)}\n`);
  return { ...built, onnxPath };
}

/**
 * Reuse a synthetic voice already in `voicesDir` when its .onnx matches the checksum its config
 * records and the generator version is current; otherwise (re)build it.
 */
export async function ensureSyntheticVoice(
  spec: SyntheticSpec,
  voicesDir: string,
): Promise<{ onnxPath: string; rebuilt: boolean; sha256: string }> {
  const onnxPath = path.join(voicesDir, `${spec.name}.onnx`);
  try {
    const config = parseVoiceConfigText(await readFile(`${onnxPath}.json`, 'utf8'), `${onnxPath}.json`);
    // Streamed: no 60 MB buffer per check.
    const sha256 = await sha256File(onnxPath);
    if (
      config.synthetic?.generator_version === GENERATOR_VERSION &&
      config.synthetic.onnx_sha256 === sha256 &&
      config.synthetic.seed === spec.seed
    ) {
      return { onnxPath, rebuilt: false, sha256 };
    }
  } catch {
    // Missing or damaged: rebuild below.
  }
  const built = await writeSyntheticVoice(spec, voicesDir);
  return { onnxPath, rebuilt: true, sha256: built.sha256 };
}
