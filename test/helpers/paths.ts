import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (tests run from dist/test/...). */
export const ROOT = path.resolve(fileURLToPath(new URL('../../../', import.meta.url)));
export const BIN = path.join(ROOT, 'dist', 'bin', 'piper-parallel.js');
export const SHARED_CONFIGS = path.resolve(ROOT, '..', 'shared', 'piper-voice-configs');
export const HAS_SHARED = existsSync(SHARED_CONFIGS);

/** Every folder tempDir made in this test process; removed when it exits (PIPER_PARALLEL_KEEP_TEMP=1 keeps them to look at). */
const made: string[] = [];
process.on('exit', () => {
  if (process.env.PIPER_PARALLEL_KEEP_TEMP === '1') return;
  // A suite run made about 450 folders; left behind, a contributor's /tmp fills run after run.
  for (const dir of made) rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
});

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `pp-${prefix}-`));
  made.push(dir);
  return dir;
}

/** One voices folder per test process, so the synthetic voice is built once. */
let voicesDir: string | undefined;
export function sharedVoicesDir(): string {
  voicesDir ??= tempDir('voices');
  return voicesDir;
}
