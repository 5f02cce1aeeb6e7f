import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ArchiveSchema } from '../../lib/archive/schema.js';
import { PiperParallelError } from '../../lib/errors.js';
import { runArms } from '../../lib/run/run-arms.js';
import { sharedVoicesDir, tempDir } from '../helpers/paths.js';

describe('runArms end to end (synthetic voice, one short sentence, 2 passes)', () => {
  it('runs the four default conditions and writes an archive that matches the schema', async () => {
    const outDir = tempDir('out');
    const events: string[] = [];
    const r = await runArms({ settleSeconds: 0, passes: 2, warmup: 1, voices: ['synthetic-siwis-medium'], lines: ['Bonjour tout le monde.'], outDir, voicesDir: sharedVoicesDir(), onProgress: (e) => events.push(e.kind) });
    const onDisk = ArchiveSchema.parse(JSON.parse(readFileSync(r.path, 'utf8')));
    assert.match(path.basename(r.path), /^piper-parallel-\d{8}-\d{6}\.json$/);
    assert.equal(onDisk.bras.length, 4);
    assert.deepEqual(onDisk.bras.map((b) => [b.flux_simultanes, b.fils_par_flux, b.affinite_demandee]), [[1, 1, false], [2, 1, false], [2, 1, true], [1, 2, false]]);
    for (const b of onDisk.bras) {
      assert.equal(b.etat, 'done');
      assert.equal(b.voix_synthetique, true);
      assert.equal(b.enfants.length, b.flux_simultanes);
      for (const e of b.enfants) {
        assert.equal(e.passes.length, 2);
        assert.equal(e.echauffement.length, 1);
        assert.ok(e.phonemisation_s !== null && e.phonemisation_s > 0);
      }
      assert.equal(b.synchro.length, 3);
      // The arm holds exactly when every control it took held.
      assert.equal(b.controle_tenu, b.controles.every((c) => c.held));
      assert.ok(b.controles.some((c) => c.name === 'affinity'));
      assert.equal(b.controles.some((c) => c.name === 'cpu_sum'), b.flux_simultanes >= 2);
    }
    const pinned = onDisk.bras[2]!;
    assert.deepEqual(pinned.affinites_vues.map((s) => s.length), [1, 1]);
    assert.equal(onDisk.controle_tenu, onDisk.bras.every((b) => b.controle_tenu));
    assert.equal(onDisk.voix[0]?.synthetique, true);
    assert.equal(onDisk.protocole.texte.phrases, 1);
    // The partial file goes away once the archive lands.
    assert.deepEqual(readdirSync(path.join(outDir, '.partial')), []);
    assert.ok(events.includes('arm-end') && events.includes('pass'));
  });

  it('an arm whose worker throws fails, the run goes on, and nothing may be published', async () => {
    const outDir = tempDir('out');
    const r = await runArms({ settleSeconds: 0, passes: 1, warmup: 0, voices: ['synthetic-siwis-medium'], streams: [1], lines: ['Oui.'], outDir, voicesDir: sharedVoicesDir(), fault: 'throw-in-pass' });
    assert.equal(r.archive.controle_tenu, false);
    assert.equal(r.archive.bras[0]?.etat, 'failed');
    assert.match(r.archive.bras[0]?.erreur ?? '', /stream 0 failed during pass 0: injected fault/);
    assert.ok(existsSync(r.path));
  });

  it('refuses bad input before measuring anything', async () => {
    const outDir = tempDir('out');
    await assert.rejects(runArms({ passes: 0, outDir }), (e: unknown) => e instanceof PiperParallelError && e.code === 'USAGE' && /passes must be a whole number >= 1/.test(e.message));
    await assert.rejects(runArms({ streams: [0], outDir }), /--streams takes whole numbers >= 1/);
    await assert.rejects(runArms({ voices: ['fr_FR-nobody-medium'], outDir, voicesDir: tempDir('novoices') }), /voice "fr_FR-nobody-medium" is not in .* \(installed: none\); run `piper-parallel voices fetch fr_FR-nobody-medium`/);
    await assert.rejects(runArms({ lines: ['  ', ''], outDir }), /the text has no sentence/);
    assert.deepEqual(readdirSync(outDir).filter((f) => f.endsWith('.json')), []);
  });
});

describe('runArms with thread isolation (piscina workers, SharedArrayBuffer barrier)', () => {
  it('runs K=2 pinned and K=1 T=2 as threads, with per-thread CPU and the same archive shape', async () => {
    const outDir = tempDir('out');
    const r = await runArms({
      settleSeconds: 0,
      passes: 2,
      warmup: 1,
      voices: ['synthetic-siwis-medium'],
      lines: ['Bonjour tout le monde.'],
      outDir,
      voicesDir: sharedVoicesDir(),
      conditions: [
        { flux: 2, fils: 1, affinite: true, isolation: 'thread' },
        { flux: 1, fils: 2, affinite: false, isolation: 'thread' },
      ],
    });
    const [pinned, twoThreads] = r.archive.bras;
    assert.equal(pinned?.isolation, 'thread');
    assert.equal(pinned?.etat, 'done', pinned?.erreur ?? '');
    assert.deepEqual(pinned?.affinites_vues.map((s) => s.length), [1, 1]);
    assert.equal(new Set(pinned?.affinites_vues.map((s) => s[0])).size, 2);
    // Per-thread accounting: a single-threaded stream cannot show the whole process's 2 threads' worth.
    for (const e of pinned?.enfants ?? []) assert.ok((e.resume.cpu_pourcent.max ?? 0) < 150, `${e.resume.cpu_pourcent.max}`);
    assert.equal(twoThreads?.etat, 'done');
    assert.equal(r.archive.bras.every((b) => b.controle_tenu === b.controles.every((c) => c.held)), true);
  });

  it('a thread stream that never reaches the barrier fails the arm in bounded time, and the next arm still runs', async () => {
    const t0 = Date.now();
    const r = await runArms({
      settleSeconds: 0,
      passes: 1,
      warmup: 0,
      voices: ['synthetic-siwis-medium'],
      lines: ['Oui.'],
      outDir: tempDir('out'),
      voicesDir: sharedVoicesDir(),
      conditions: [{ flux: 2, fils: 1, affinite: false, isolation: 'thread' }],
      fault: 'hang-before-barrier',
      timeouts: { barrierMs: 1500 },
    });
    assert.equal(r.archive.bras[0]?.etat, 'timed-out');
    assert.match(r.archive.bras[0]?.erreur ?? '', /at the barrier of pass 0: no answer within 2 s from stream 0/);
    assert.ok(Date.now() - t0 < 60_000);
  });
});
