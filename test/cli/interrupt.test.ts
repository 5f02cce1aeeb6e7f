import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { ArchiveSchema } from '../../lib/archive/schema.js';
import { BIN, sharedVoicesDir } from '../helpers/paths.js';
import { archives, assertClean, baseArgs, runCli, workspace } from '../faults/harness.js';

/** Run the four default conditions with 2 passes and send one Ctrl-C once the first arm is printed. */
async function interruptAfterFirstArm() {
  const w = workspace();
  let sent = false;
  const r = await runCli(baseArgs(w, '2'), {
    onStdout: (out, pid) => {
      if (!sent && /K=1\s+T=1/.test(out)) {
        sent = true;
        process.kill(pid, 'SIGINT');
      }
    },
  });
  return { w, r };
}

it('Ctrl-C after the first arm: exit 130, the finished arm kept in the partial file, no archive, no child left', async () => {
  const { w, r } = await interruptAfterFirstArm();
  assert.equal(r.code, 130, r.stderr);
  assert.match(r.stderr, /interrupted during .*; 1 finished arm\(s\) kept in .*\.partial\/piper-parallel-\d{8}-\d{6}\.jsonl; resume with: piper-parallel --resume \S+\.jsonl/);
  assert.deepEqual(archives(w), []);
  const [partial] = readdirSync(path.join(w.out, '.partial'));
  const lines = readFileSync(path.join(w.out, '.partial', partial!), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string });
  assert.deepEqual(lines.map((l) => l.kind), ['header', 'arm']);
  assertClean(w, r);
});

it('--resume after that Ctrl-C skips the finished arm, refuses another protocol, and lands the same archive shape', async () => {
  const { w, r: first } = await interruptAfterFirstArm();
  assert.equal(first.code, 130, first.stderr);
  const partialFile = /--resume (\S+\.jsonl)/.exec(first.stderr)?.[1];
  assert.ok(partialFile, first.stderr);
  const firstArm = (JSON.parse(readFileSync(partialFile, 'utf8').trim().split('\n')[1]!) as { arm: { enfants: Array<{ pid: number }> } }).arm;

  const refused = spawnSync(process.execPath, [BIN, '3', '--resume', partialFile, '--settle', '0', '--voices-dir', sharedVoicesDir()], { encoding: 'utf8' });
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /differs from the interrupted run \(passes 2 then, 3 now\)/);

  const r = spawnSync(process.execPath, [BIN, '--resume', partialFile, '--settle', '0', '--voices-dir', sharedVoicesDir(), '--json'], { encoding: 'utf8', timeout: 300_000 });
  assert.ok(r.status === 0 || r.status === 3, r.stderr);
  const archive = ArchiveSchema.parse(JSON.parse(r.stdout));
  assert.equal(archive.bras.length, 4);
  assert.equal(archive.interrompu, true);
  assert.equal(archive.protocole.passes_par_bras, 2);
  // The finished arm was kept as measured, not run again.
  assert.deepEqual(archive.bras[0]?.enfants.map((e) => e.pid), firstArm.enfants.map((e) => e.pid));
  assert.deepEqual(readdirSync(path.join(w.out, '.partial')), []);
  assert.equal(archives(w).length, 1);
});
