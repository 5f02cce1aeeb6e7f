// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { runCapacity } from '../../../lib/capacity/run/run-capacity.js';
import { sharedVoicesDir, tempDir } from '../../helpers/paths.js';
import { startWyomingServer } from '../../helpers/speech-servers.js';

describe('an interrupted capacity run', () => {
  it('keeps its finished trials in the partial file, and --resume carries on without running them again', async () => {
    const outDir = path.join(tempDir('capacity-resume'), 'm');
    const base = {
      voices: ['synthetic-siwis-medium'],
      voicesDir: sharedVoicesDir(),
      lines: ['Oui.', 'Non.'],
      maxStreams: 1,
      rounds: 1,
      prebuffersMs: [0, 300],
      firstAudioMs: 100_000,
      settleSeconds: 0,
      outDir,
    };
    const controller = new AbortController();
    const first: string[] = [];
    const exitListeners = process.listenerCount('exit');
    const err = await runCapacity({
      ...base,
      signal: controller.signal,
      onProgress: (e) => {
        if (e.kind === 'trial-end') {
          first.push(`${e.trial.disposition}|${e.trial.flux}|${e.trial.but}`);
          controller.abort();
        }
      },
    }).then(
      () => undefined,
      (e: Error & { code?: string }) => e,
    );
    assert.equal(err?.code, 'ABORTED');
    const partial = /resume with: piper-parallel capacity --resume (\S+)$/.exec(err?.message ?? '')?.[1];
    assert.ok(partial && existsSync(partial), err?.message);
    // Interrupted, the run let its lock go: another process may resume it while this one lives.
    assert.equal(existsSync(`${partial}.lock`), false);
    assert.equal(process.listenerCount('exit'), exitListeners);
    assert.equal(first.length, 1);
    const again: string[] = [];
    const { archive } = await runCapacity({
      resume: partial,
      settleSeconds: 0,
      onProgress: (e) => {
        if (e.kind === 'trial-start') again.push(`${e.layout}|${e.k}|${e.purpose}`);
      },
    });
    assert.equal(archive.interrompu, true);
    // The run's first trial is its reference's start (the pool at K=1): kept, not run again. Then three layouts, one
    // trial each at K=1 (max 1), and the reference's end (one round: no middle). On a busy machine a search trial's
    // control may fail, and that trial is run again (reprise 1, 2): counted apart.
    assert.equal(first[0], 'pool of 2 processes x 1 thread, free|1|reference');
    assert.equal(archive.essais.filter((t) => t.reprise === 0).length, 5);
    assert.equal(new Set(again).size, 4);
    // The reference's end only: its start was not run again.
    assert.equal(again.filter((x) => x === first[0]).length, 1);
    assert.equal(existsSync(partial), false);
  });

  it('a resumed server run sends its text at the same --text-rate and waits the same --server-timeout-s', async () => {
    const server = await startWyomingServer({ speed: 3, slots: 1, audioSeconds: 0.3, streaming: true });
    try {
      const outDir = path.join(tempDir('capacity-resume-server'), 'm');
      const controller = new AbortController();
      const err = await runCapacity({
        server: server.url,
        textRateCps: 400,
        serverTimeoutMs: 7000,
        lines: ['Oui.', 'Non.'],
        // Room for more trials than the one it is interrupted after.
        maxStreams: 4,
        rounds: 1,
        prebuffersMs: [0],
        settleSeconds: 0,
        outDir,
        signal: controller.signal,
        onProgress: (e) => {
          if (e.kind === 'trial-end') controller.abort();
        },
      }).then(
        () => undefined,
        (e: Error & { code?: string }) => e,
      );
      assert.equal(err?.code, 'ABORTED');
      const partial = /--resume (\S+)$/.exec(err?.message ?? '')?.[1] as string;
      const { archive } = await runCapacity({ resume: partial, settleSeconds: 0 });
      assert.equal(archive.serveur?.debit_texte_cps, 400);
      assert.equal(archive.serveur?.envoi, 'flux');
    } finally {
      await server.close();
    }
  });
});
