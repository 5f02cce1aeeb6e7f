// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { it } from 'node:test';
import { ensureSyntheticVoice, syntheticSpec } from '../../lib/voice/synthetic/build.js';
import { sharedVoicesDir, tempDir } from '../helpers/paths.js';

const LOADER = new URL('../../lib/voice/onnxruntime.js', import.meta.url).href;
const SETTINGS = new URL('../../lib/voice/synthesizer.js', import.meta.url).href;

/** A process that creates one session through the library's loader; what it left in its temporary folder. */
async function leftInTmp(telemetry: string | undefined): Promise<string[]> {
  const spec = syntheticSpec('synthetic-siwis-medium');
  assert.ok(spec);
  const { onnxPath } = await ensureSyntheticVoice(spec, sharedVoicesDir());
  const tmp = tempDir('ort-tmp');
  const { ORT_DISABLE_TELEMETRY: _set, ...env } = process.env;
  const script = `const ort = await (await import(${JSON.stringify(LOADER)})).loadOnnxruntime();
const { PIPER_SESSION_OPTIONS } = await import(${JSON.stringify(SETTINGS)});
const s = await ort.InferenceSession.create(${JSON.stringify(onnxPath)}, { ...PIPER_SESSION_OPTIONS, intraOpNumThreads: 1, interOpNumThreads: 1 });
await s.release();`;
  execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...env, TMPDIR: tmp, ...(telemetry === undefined ? {} : { ORT_DISABLE_TELEMETRY: telemetry }) }, timeout: 120_000 });
  return readdirSync(tmp).sort();
}

it('a session made through the library leaves nothing in the temporary folder: onnxruntime\'s telemetry is off', async () => {
  assert.deepEqual(await leftInTmp(undefined), []);
  // The user's own setting is kept: with telemetry on, onnxruntime-node 1.30 leaves its two files.
  const left = await leftInTmp('0');
  assert.ok(left.includes('.ses') && left.some((f) => /^mat-debug-\d+\.log$/.test(f)), `left: ${left.join(', ')}`);
});
