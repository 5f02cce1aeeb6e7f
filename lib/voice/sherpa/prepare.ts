/**
 * A sherpa-ready copy of a Piper voice: the model with the metadata sherpa-onnx requires, its
 * tokens.txt, a provider config with Piper's session settings, and espeak-ng-data. Made in the
 * cache, in a folder keyed by the voice's sha256, once; the user's files are never touched.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PiperParallelError, toError } from '../../core/errors.js';
import type { VoiceInfo } from '../load.js';
import { cacheRoot } from '../places.js';
import { COMPLETE_MARK, ensureEspeakData } from './espeak-data.js';
import { readModelMetadata, withModelMetadata } from './metadata.js';
import type { SherpaVoice } from './schema.js';
import { tokensText } from './tokens.js';

export type { SherpaVoice };

/** Bump when what goes into a copy changes, so an old copy is never reused. */
const FORMAT = 1;

/** The metadata keys sherpa-onnx's VITS loader ends the process without (exit 255). */
export const REQUIRED_METADATA = ['sample_rate', 'n_speakers', 'language', 'comment'] as const;

/** Piper's session settings (see PIPER_SESSION_OPTIONS), in sherpa-onnx's provider config format. */
export const SHERPA_PROVIDER_CONFIG = ['GraphOptimizationLevel=1', 'EnableCpuMemArena=0', 'EnableMemPattern=0'];

/** The cache folder sherpa-ready copies go in ($XDG_CACHE_HOME or ~/.cache, then piper-parallel/sherpa). */
export function sherpaCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(cacheRoot(env), 'sherpa');
}

export function sherpaMetadata(voice: VoiceInfo): Record<string, string> {
  const c = voice.config;
  return {
    sample_rate: String(c.audio.sample_rate),
    n_speakers: String(c.num_speakers),
    language: c.language?.code ?? c.espeak.voice,
    voice: c.espeak.voice,
    comment: `piper voice ${voice.name}, made sherpa-ready by piper-parallel${voice.synthetic ? ' (SYNTHETIC voice)' : ''}`,
  };
}

function describe(voice: VoiceInfo, dir: string, dataDir: string): SherpaVoice {
  const inf = voice.config.inference;
  return {
    name: voice.name,
    dir,
    model: path.join(dir, 'model.onnx'),
    tokens: path.join(dir, 'tokens.txt'),
    dataDir,
    provider: `cpu:${path.join(dir, 'session.cfg')}`,
    sampleRate: voice.config.audio.sample_rate,
    numSpeakers: voice.config.num_speakers,
    noiseScale: inf.noise_scale,
    noiseScaleW: inf.noise_w,
    lengthScale: inf.length_scale,
  };
}

async function writeCopy(voice: VoiceInfo, dir: string): Promise<void> {
  const tokens = tokensText(voice.config, voice.name);
  const model = withModelMetadata(await readFile(voice.onnxPath), sherpaMetadata(voice));
  const tmp = `${dir}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp, { recursive: true });
  await writeFile(path.join(tmp, 'model.onnx'), model);
  await writeFile(path.join(tmp, 'tokens.txt'), tokens);
  await writeFile(path.join(tmp, 'session.cfg'), `# Piper's session settings\n${SHERPA_PROVIDER_CONFIG.join('\n')}\n`);
  await writeFile(path.join(tmp, COMPLETE_MARK), `${voice.name} ${voice.sha256}\n`);
  await rm(dir, { recursive: true, force: true });
  await rename(tmp, dir).catch(async (err: unknown) => {
    await rm(tmp, { recursive: true, force: true });
    if (
      !(await stat(path.join(dir, COMPLETE_MARK)).then(
        () => true,
        () => false,
      ))
    )
      throw err;
  });
}

/** The voice's sherpa-ready copy, made when missing; `cacheDir` defaults to sherpaCacheDir(). */
export async function sherpaReadyVoice(voice: VoiceInfo, cacheDir: string = sherpaCacheDir()): Promise<SherpaVoice> {
  const configSha = createHash('sha256').update(JSON.stringify(voice.config)).digest('hex').slice(0, 8);
  const dir = path.join(cacheDir, `${voice.name}-${voice.sha256.slice(0, 16)}-${configSha}-v${FORMAT}`);
  try {
    const dataDir = await ensureEspeakData(cacheDir);
    if (
      !(await stat(path.join(dir, COMPLETE_MARK)).then(
        () => true,
        () => false,
      ))
    )
      await writeCopy(voice, dir);
    const ready = describe(voice, dir, dataDir);
    await checkSherpaVoice(ready);
    return ready;
  } catch (err) {
    if (err instanceof PiperParallelError) throw err;
    throw new PiperParallelError(
      'VOICE_LOAD',
      `voice ${voice.name}: could not make its sherpa-ready copy in ${cacheDir} (${toError(err).message}); ` +
        `check that the cache is writable or set XDG_CACHE_HOME`,
      { cause: err },
    );
  }
}

/**
 * What sherpa-onnx would end the whole process over (exit 255, which JS cannot catch), checked
 * here first so that it is one line naming the voice and the fix.
 */
export async function checkSherpaVoice(v: SherpaVoice): Promise<void> {
  const fix = `delete ${v.dir} and run again to have it made anew`;
  for (const [file, what] of [
    [v.model, 'model'],
    [v.tokens, 'tokens.txt'],
    [v.provider.slice('cpu:'.length), 'session config'],
  ] as const) {
    if (
      !(await stat(file).then(
        (s) => s.isFile(),
        () => false,
      ))
    )
      throw new PiperParallelError(
        'VOICE_LOAD',
        `voice ${v.name}: its sherpa-ready ${what} ${file} is missing; ${fix}`,
      );
  }
  const voices = path.join(v.dataDir, 'voices');
  if (
    !(await stat(path.join(v.dataDir, 'phontab')).then(
      (s) => s.isFile(),
      () => false,
    )) ||
    !(await stat(voices).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  ) {
    throw new PiperParallelError(
      'VOICE_LOAD',
      `voice ${v.name}: the espeak-ng-data folder ${v.dataDir} is missing or incomplete; delete it and run again to have it extracted anew`,
    );
  }
  let metadata: Map<string, string>;
  try {
    metadata = readModelMetadata(await readFile(v.model));
  } catch (err) {
    throw new PiperParallelError(
      'VOICE_LOAD',
      `voice ${v.name}: ${v.model} is not an ONNX model (${toError(err).message}); ${fix}`,
      { cause: err },
    );
  }
  const missing = REQUIRED_METADATA.filter((k) => !metadata.has(k));
  if (missing.length > 0)
    throw new PiperParallelError(
      'VOICE_LOAD',
      `voice ${v.name}: model ${v.model} has no sherpa-onnx metadata ${missing.join(', ')}; ${fix}`,
    );
  if (!(metadata.get('comment') ?? '').includes('piper'))
    throw new PiperParallelError(
      'VOICE_LOAD',
      `voice ${v.name}: model ${v.model} metadata "comment" does not say piper, so sherpa-onnx would not read it as a Piper voice; ${fix}`,
    );
}
