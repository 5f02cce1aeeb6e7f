/**
 * Where voices are looked for, and where they go. With --voices-dir, there and only there. Without
 * it, a local `voices/` that holds real voices is used as before; otherwise synthetic voices are
 * built into the user's cache ($XDG_CACHE_HOME/piper-parallel/voices, or ~/.cache/...), in a folder
 * of the builder's version so a new builder never reuses an old file, and real voices fetched
 * without --voices-dir go to the cache too. Nothing is written into someone's project unasked.
 */
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PiperParallelError } from '../core/errors.js';
import { installedVoiceNames, readVoice, type VoiceInfo } from './load.js';
import { ensureSyntheticVoice, GENERATOR_VERSION, syntheticSpec } from './synthetic/build.js';

export interface VoicePlaces {
  /** --voices-dir, when given: the only place. */
  explicit: string | undefined;
  /** ./voices of the working folder. */
  local: string;
  /** The user's cache of voices. */
  cache: string;
}

export type VoiceSource = '--voices-dir' | './voices' | 'cache' | 'cache (synthetic)';

/** This tool's folder in the user's cache: $XDG_CACHE_HOME/piper-parallel, or ~/.cache/piper-parallel. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const cacheHome =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  return path.join(cacheHome, 'piper-parallel');
}

export function voicePlaces(
  voicesDir: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): VoicePlaces {
  return {
    explicit: voicesDir === undefined ? undefined : path.resolve(cwd, voicesDir),
    local: path.resolve(cwd, 'voices'),
    cache: path.join(cacheRoot(env), 'voices'),
  };
}

/** Synthetic voices of this builder, in the cache. */
export function syntheticCacheDir(places: VoicePlaces): string {
  return path.join(places.cache, `synthetic-v${GENERATOR_VERSION}`);
}

async function hasRealVoice(dir: string): Promise<boolean> {
  return (await installedVoiceNames(dir)).some((n) => syntheticSpec(n) === undefined);
}

/** Where new voices go: --voices-dir; else ./voices when it holds real voices; else the cache (synthetic ones in their builder's folder). */
export async function voiceHome(places: VoicePlaces, synthetic: boolean): Promise<{ dir: string; from: VoiceSource }> {
  if (places.explicit) return { dir: places.explicit, from: '--voices-dir' };
  if (await hasRealVoice(places.local)) return { dir: places.local, from: './voices' };
  return synthetic
    ? { dir: syntheticCacheDir(places), from: 'cache (synthetic)' }
    : { dir: places.cache, from: 'cache' };
}

/** The places searched, in order. */
function searched(places: VoicePlaces): Array<{ dir: string; from: VoiceSource }> {
  if (places.explicit) return [{ dir: places.explicit, from: '--voices-dir' }];
  return [
    { dir: places.local, from: './voices' },
    { dir: places.cache, from: 'cache' },
    { dir: syntheticCacheDir(places), from: 'cache (synthetic)' },
  ];
}

/** Where `name` is installed, in the order the places are searched; undefined when nowhere. */
export async function findVoice(
  name: string,
  places: VoicePlaces,
): Promise<{ dir: string; from: VoiceSource } | undefined> {
  for (const p of searched(places)) if ((await installedVoiceNames(p.dir)).includes(name)) return p;
  return undefined;
}

/** Where a voice is, or for a synthetic one where it goes and whether it is built yet. */
export interface VoiceWhereabouts {
  name: string;
  synthetic: boolean;
  dir: string;
  from: VoiceSource;
  /** Installed now; false: a synthetic voice built on first use. */
  present: boolean;
  /** The model's size, bytes; null until it is built. */
  sizeBytes: number | null;
}

const modelBytes = async (dir: string, name: string): Promise<number | null> =>
  stat(path.join(dir, `${name}.onnx`)).then(
    (st) => st.size,
    () => null,
  );

/**
 * Where `name` is, found without building or reading it: a missing voice is refused here in one line, so a run can
 * check every voice before it makes a folder or builds one.
 */
export async function whereIsVoice(name: string, places: VoicePlaces): Promise<VoiceWhereabouts> {
  if (syntheticSpec(name)) {
    const home = await voiceHome(places, true);
    const present = (await installedVoiceNames(home.dir)).includes(name);
    return { name, synthetic: true, ...home, present, sizeBytes: present ? await modelBytes(home.dir, name) : null };
  }
  const found = await findVoice(name, places);
  if (!found) {
    const where = places.explicit ? places.explicit : `${places.local} or ${places.cache}`;
    const installed = [...new Set((await allVoices(places)).map((v) => v.name))];
    throw new PiperParallelError(
      'VOICE_MISSING',
      `voice "${name}" is not in ${where} (installed: ${installed.length > 0 ? installed.join(', ') : 'none'}); ` +
        `run \`piper-parallel voices fetch ${name}\` or pass --voices-dir`,
    );
  }
  return { name, synthetic: false, ...found, present: true, sizeBytes: await modelBytes(found.dir, name) };
}

/** A voice ready to measure: found where it is, or a synthetic one built (or checked and reused) where it goes. */
export async function locateVoice(name: string, places: VoicePlaces): Promise<VoiceInfo & { from: VoiceSource }> {
  const spec = syntheticSpec(name);
  const at = await whereIsVoice(name, places);
  if (spec) {
    // ensureSyntheticVoice has just hashed the file: no second pass over 60 MB.
    const built = await ensureSyntheticVoice(spec, at.dir);
    return { ...(await readVoice(name, at.dir, built.sha256)), from: at.from };
  }
  return { ...(await readVoice(name, at.dir)), from: at.from };
}

/** Every installed voice and where it is, for `piper-parallel voices`. */
export async function allVoices(places: VoicePlaces): Promise<Array<{ name: string; dir: string; from: VoiceSource }>> {
  const out: Array<{ name: string; dir: string; from: VoiceSource }> = [];
  for (const d of searched(places)) for (const name of await installedVoiceNames(d.dir)) out.push({ name, ...d });
  return out;
}
