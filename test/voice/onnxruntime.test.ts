// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { it } from 'node:test';
import { quietTelemetry } from '../../lib/voice/onnxruntime.js';
import { ensureSyntheticVoice, syntheticSpec } from '../../lib/voice/synthetic/build.js';
import { sharedVoicesDir, tempDir } from '../helpers/paths.js';

const LOADER = new URL('../../lib/voice/onnxruntime.js', import.meta.url).href;
const SETTINGS = new URL('../../lib/voice/synthesizer.js', import.meta.url).href;

/** A process that creates one session through the library's loader: how it ended, and what it left in its temporary folder. */
async function leftInTmp(telemetry: string | undefined): Promise<{ files: string[]; ended: string }> {
  const spec = syntheticSpec('synthetic-siwis-medium');
  assert.ok(spec);
  const { onnxPath } = await ensureSyntheticVoice(spec, sharedVoicesDir());
  const tmp = tempDir('ort-tmp');
  const { ORT_DISABLE_TELEMETRY: _set, ...env } = process.env;
  const script = `const ort = await (await import(${JSON.stringify(LOADER)})).loadOnnxruntime();
const { PIPER_SESSION_OPTIONS } = await import(${JSON.stringify(SETTINGS)});
const s = await ort.InferenceSession.create(${JSON.stringify(onnxPath)}, { ...PIPER_SESSION_OPTIONS, intraOpNumThreads: 1, interOpNumThreads: 1 });
await s.release();`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...env, TMPDIR: tmp, ...(telemetry === undefined ? {} : { ORT_DISABLE_TELEMETRY: telemetry }) },
    timeout: 120_000,
    encoding: 'utf8',
  });
  const ended =
    child.status === 0
      ? 'exit 0'
      : `exit ${child.status ?? child.signal ?? child.error?.message}: ${child.stderr.trim().split('\n').slice(-3).join(' | ')}`;
  return { files: readdirSync(tmp).sort(), ended };
}

it('turns telemetry off before onnxruntime loads, and keeps a value the user set', () => {
  const before = process.env.ORT_DISABLE_TELEMETRY;
  try {
    delete process.env.ORT_DISABLE_TELEMETRY;
    quietTelemetry();
    assert.equal(process.env.ORT_DISABLE_TELEMETRY, '1');
    process.env.ORT_DISABLE_TELEMETRY = '0';
    quietTelemetry();
    assert.equal(process.env.ORT_DISABLE_TELEMETRY, '0');
  } finally {
    if (before === undefined) delete process.env.ORT_DISABLE_TELEMETRY;
    else process.env.ORT_DISABLE_TELEMETRY = before;
  }
});

it('a session made through the library leaves nothing in the temporary folder, where telemetry on would', async (t) => {
  // First the contrast: onnxruntime-node 1.30 with telemetry on leaves its two files here. Where it
  // leaves none (another build, a sandbox that stops its client), this check could not fail: skipped, said.
  // How that process ends is onnxruntime's affair (its telemetry thread is torn down at exit): only its files count.
  const on = await leftInTmp('0');
  const telemetryFiles = on.files.includes('.ses') && on.files.some((f) => /^mat-debug-\d+\.log$/.test(f));
  if (!telemetryFiles) {
    t.skip(
      `onnxruntime left no telemetry files even with ORT_DISABLE_TELEMETRY=0 (left: ${on.files.join(', ') || 'nothing'}; ${on.ended}): nothing to tell apart here`,
    );
    return;
  }
  const off = await leftInTmp(undefined);
  assert.equal(off.ended, 'exit 0');
  assert.deepEqual(off.files, [], "the library's own default (telemetry off) left files in TMPDIR");
});
