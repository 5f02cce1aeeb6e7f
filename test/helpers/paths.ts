import { existsSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (tests run from dist/test/...). */
export const ROOT = path.resolve(fileURLToPath(new URL('../../../', import.meta.url)));
export const BIN = path.join(ROOT, 'dist', 'bin', 'piper-parallel.js');
export const SHARED_CONFIGS = path.resolve(ROOT, '..', 'shared', 'piper-voice-configs');
export const HAS_SHARED = existsSync(SHARED_CONFIGS);

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `pp-${prefix}-`));
}

/** One voices folder per test process, so the synthetic voice is built once. */
let voicesDir: string | undefined;
export function sharedVoicesDir(): string {
  voicesDir ??= tempDir('voices');
  return voicesDir;
}
