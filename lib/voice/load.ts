import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { PiperParallelError } from '../core/errors.js';
import { parseVoiceConfigText, type VoiceConfig } from './format/config.js';
import { ensureSyntheticVoice, sha256File, syntheticSpec } from './synthetic/build.js';

export { sha256File };

export interface VoiceInfo {
  name: string;
  onnxPath: string;
  configPath: string;
  config: VoiceConfig;
  sizeBytes: number;
  sha256: string;
  synthetic: boolean;
}

/** Voice names installed in `voicesDir` (an .onnx beside its .onnx.json). */
export async function installedVoiceNames(voicesDir: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(voicesDir);
  } catch {
    return [];
  }
  const set = new Set(entries);
  return entries
    .filter((f) => f.endsWith('.onnx') && set.has(`${f}.json`))
    .map((f) => f.slice(0, -'.onnx'.length))
    .sort();
}

/** Read and validate a voice from `voicesDir`, without building anything. */
export async function readVoice(name: string, voicesDir: string, knownSha256?: string): Promise<VoiceInfo> {
  const onnxPath = path.join(voicesDir, `${name}.onnx`);
  const configPath = `${onnxPath}.json`;
  let onnxStat;
  let configText: string;
  try {
    onnxStat = await stat(onnxPath);
    configText = await readFile(configPath, 'utf8');
  } catch (err) {
    const installed = await installedVoiceNames(voicesDir);
    const list = installed.length > 0 ? installed.join(', ') : 'none';
    throw new PiperParallelError(
      'VOICE_MISSING',
      `voice "${name}" is not in ${voicesDir} (installed: ${list}); run \`piper-parallel voices fetch ${name}\` or pass --voices-dir`,
      { cause: err },
    );
  }
  const config = parseVoiceConfigText(configText, configPath);
  return {
    name,
    onnxPath,
    configPath,
    config,
    sizeBytes: onnxStat.size,
    sha256: knownSha256 ?? (await sha256File(onnxPath)),
    synthetic: config.synthetic !== undefined,
  };
}

/** Like readVoice, but a synthetic voice is built (or checked and reused) first. */
export async function resolveVoice(name: string, voicesDir: string): Promise<VoiceInfo> {
  const spec = syntheticSpec(name);
  // ensureSyntheticVoice has just hashed the file: no second pass over 60 MB.
  const known = spec ? (await ensureSyntheticVoice(spec, voicesDir)).sha256 : undefined;
  return readVoice(name, voicesDir, known);
}
