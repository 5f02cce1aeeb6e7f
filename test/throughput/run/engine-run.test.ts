// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { runArms } from '../../../lib/throughput/run/run-arms.js';
import { sharedVoicesDir, tempDir } from '../../helpers/paths.js';

// sherpa-ready copies go to the cache: a fresh one for this file, not the user's.
process.env.XDG_CACHE_HOME = tempDir('engine-cache');

describe('a run with both engines', () => {
  it('times the same text to audio on both, archives each engine, and pairs them in the verdict', async () => {
    const { archive } = await runArms({
      engine: 'both',
      streams: [1],
      passes: 2,
      rounds: 2,
      warmup: 1,
      settleSeconds: 0,
      voices: ['synthetic-siwis-medium'],
      lines: ['Bonjour, ceci est un essai.', 'Une seconde phrase.'],
      voicesDir: sharedVoicesDir(),
      outDir: path.join(tempDir('engine-run'), 'm'),
    });
    const [ort, sherpa] = archive.bras;
    assert.deepEqual(
      archive.bras.map((b) => [b.moteur, b.portee, b.etat]),
      [
        ['onnxruntime', 'text', 'done'],
        ['sherpa', 'text', 'done'],
      ],
    );
    // Same work on both sides: every timed pass produced the same audio, to the sample.
    const audio = (b: typeof ort): number[] => b!.enfants[0]!.passes.map((p) => p.audio_s);
    assert.equal(audio(ort).length, 2);
    for (const [i, s] of audio(sherpa).entries())
      assert.ok(Math.abs(s - audio(ort)[i]!) < 1 / 22050, `pass ${i}: ${s} vs ${audio(ort)[i]}`);
    // The phonemizing share: measured for onnxruntime-node at scope text, unknowable inside sherpa-onnx.
    assert.ok(
      ort!.enfants[0]!.passes.every(
        (p) => typeof p.phonemisation_s === 'number' && p.phonemisation_s > 0 && p.phonemisation_s < p.temps_calcul_s,
      ),
    );
    assert.ok(ort!.part_phonemisation! > 0 && ort!.part_phonemisation! < 1);
    assert.ok(sherpa!.enfants[0]!.passes.every((p) => p.phonemisation_s === null));
    assert.equal(sherpa!.part_phonemisation, null);
    const modelBytes = statSync(path.join(sharedVoicesDir(), 'synthetic-siwis-medium.onnx')).size;
    for (const b of archive.bras)
      assert.ok((b.enfants[0]!.rss_pic_octets ?? 0) > modelBytes, `${b.moteur} peak RSS holds the model`);
    // The memory control is in every arm: no swap here, a few major faults at most.
    for (const b of archive.bras) assert.equal(b.controles.find((c) => c.name === 'memory')?.unit, 'pages');
    const m = archive.protocole.moteurs;
    assert.match(m?.sherpa?.version ?? '', /^sherpa-onnx-node \d+\.\d+\.\d+$/);
    assert.match(m?.sherpa?.reglages ?? '', /EnableCpuMemArena=0 EnableMemPattern=0/);
    assert.match(m?.onnxruntime?.reglages ?? '', /CPU memory arena off/);
    const pair = archive.verdict.moteurs?.[0];
    assert.equal(archive.verdict.moteurs?.length, 1);
    // Each engine is named with the onnxruntime it runs on: a difference between them is one between those builds too.
    const names = [`${m?.sherpa?.version} (onnxruntime ${m?.sherpa?.onnxruntime})`, m?.onnxruntime?.version];
    assert.ok(
      pair?.paire === null ||
        (pair?.paire?.rapport_ic95 !== null && pair?.paire?.a === names[0] && pair?.paire?.b === names[1]),
      JSON.stringify(pair),
    );
    if (archive.bras.every((b) => b.controle_tenu))
      assert.match(
        pair?.phrase ?? '',
        /^synthetic-siwis-medium, K=1 1 process x 1 thread \(text scope\): sherpa-onnx-node [\d.]+ \(onnxruntime [\d.]+\)(: [+-]| and onnxruntime-node [\d.]+ do not differ)/,
      );
  });
});
