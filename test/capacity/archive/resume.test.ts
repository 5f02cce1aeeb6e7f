// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { REDACTED_HOST } from '../../../lib/archive/redact.js';
import path from 'node:path';
import { describe, it } from 'node:test';
import { identityChanges, type CapacityHeader } from '../../../lib/capacity/archive/resume.js';
import { runCapacity } from '../../../lib/capacity/run/run-capacity.js';
import { sharedVoicesDir, tempDir } from '../../helpers/paths.js';
import { startWyomingServer } from '../../helpers/speech-servers.js';

/** Rewrite the header of a partial file (its first line); returns a function that puts the bytes back. */
function editHeader(file: string, edit: (h: CapacityHeader) => void): () => void {
  const bytes = readFileSync(file, 'utf8');
  const [first, ...rest] = bytes.split('\n');
  const line = JSON.parse(first ?? '') as { header: CapacityHeader };
  edit(line.header);
  writeFileSync(file, [JSON.stringify(line), ...rest].join('\n'));
  return () => writeFileSync(file, bytes);
}

/** Resume and return the one-line refusal, or fail. */
async function refusal(partial: string): Promise<string> {
  const err = await runCapacity({ resume: partial, settleSeconds: 0 }).then(
    () => undefined,
    (e: Error & { code?: string }) => e,
  );
  assert.equal(err?.code, 'USAGE', err?.message ?? 'resumed a run that changed');
  assert.equal(err?.message.split('\n').length, 1);
  return err?.message ?? '';
}

describe('an interrupted capacity run', () => {
  it('keeps its finished trials in the partial file, and --resume carries on without running them again, refusing a changed voice or machine, keeping --redact', async () => {
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
      // Asked by the interrupted run only: the resume below gives --resume alone.
      redact: true,
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
    // A changed voice or another machine: refused in one line, the partial file left as it was.
    let restore = editHeader(partial, (h) => {
      if (h.identity) h.identity.voices['synthetic-siwis-medium'] = 'ab'.repeat(32);
    });
    assert.match(
      await refusal(partial),
      /^--resume .*: voice synthetic-siwis-medium changed \(sha256 abababababab then, [0-9a-f]{12} now\) since the interrupted run; start a new run$/,
    );
    restore();
    restore = editHeader(partial, (h) => {
      if (h.identity) h.identity.machine = 'riscv64|Board|4 cores|4 usable|2 GiB';
    });
    assert.match(
      await refusal(partial),
      /: it ran on another machine \(riscv64\|Board\|4 cores\|4 usable\|2 GiB; this one is .*\)/,
    );
    restore();
    const again: string[] = [];
    const { archive } = await runCapacity({
      resume: partial,
      settleSeconds: 0,
      onProgress: (e) => {
        if (e.kind === 'trial-start') again.push(`${e.layout}|${e.k}|${e.purpose}`);
      },
    });
    assert.equal(archive.interrompu, true);
    // The interrupted run asked for --redact: kept by --resume alone.
    assert.equal(archive.machine_detail.hote, REDACTED_HOST);
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

  it('identityChanges names each change and none for the same run', () => {
    const then = {
      voices: { a: '1'.repeat(64) },
      machine: 'm',
      server: { protocol: 'wyoming', request: null, streaming: true },
    };
    assert.deepEqual(identityChanges(then, structuredClone(then)), []);
    assert.deepEqual(identityChanges(then, { ...then, server: { ...then.server, streaming: false } }), [
      'the server changed (wyoming, streaming text then, wyoming, not streaming text now)',
    ]);
    // A voice not in this run is not a change of it (a resume keeps the run's voices).
    assert.deepEqual(identityChanges(then, { ...then, voices: {} }), []);
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
      // A server that said it streams text then and not now would be sent only the first line: refused.
      const restore = editHeader(partial, (h) => {
        if (h.identity?.server) h.identity.server.streaming = false;
      });
      assert.match(
        await refusal(partial),
        /: the server changed \(wyoming, not streaming text then, wyoming, streaming text now\) since the interrupted run/,
      );
      restore();
      const { archive } = await runCapacity({ resume: partial, settleSeconds: 0 });
      assert.equal(archive.serveur?.debit_texte_cps, 400);
      assert.equal(archive.serveur?.envoi, 'flux');
    } finally {
      await server.close();
    }
  });
});
