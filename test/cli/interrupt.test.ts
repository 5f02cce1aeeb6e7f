// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { ArchiveSchema } from '../../lib/throughput/schema.js';
import { BIN, sharedVoicesDir } from '../helpers/paths.js';
import { archives, assertClean, baseArgs, runCli, workspace } from '../faults/harness.js';

/** Run the four default conditions with 2 passes (2 rounds) and send one Ctrl-C once the first arm round is done. */
async function interruptAfterFirstArm() {
  const w = workspace();
  let sent = false;
  const r = await runCli([...baseArgs(w, '2'), '--rounds', '2'], {
    onStderr: (err, pid) => {
      if (!sent && /^arm 1\/8 \(round 1\/2\) done/m.test(err)) {
        sent = true;
        process.kill(pid, 'SIGINT');
      }
    },
  });
  return { w, r };
}

/** One interrupted run for both tests: the first reads its partial file, the second resumes it. */
let interruptedOnce: ReturnType<typeof interruptAfterFirstArm> | undefined;
const interruptOnce = (): ReturnType<typeof interruptAfterFirstArm> => (interruptedOnce ??= interruptAfterFirstArm());

it('Ctrl-C after the first arm round: exit 130, that arm round kept in the partial file, no archive, no child left', async () => {
  const { w, r } = await interruptOnce();
  assert.equal(r.code, 130, r.stderr);
  assert.match(
    r.stderr,
    /interrupted (during|before) .* in round 1; 1 finished arm round\(s\) kept in .*\.partial\/piper-parallel-\d{8}-\d{6}\.jsonl; resume with: piper-parallel --resume \S+\.jsonl/,
  );
  assert.deepEqual(archives(w), []);
  const [partial] = readdirSync(path.join(w.out, '.partial')).filter((f) => f.endsWith('.jsonl'));
  const lines = readFileSync(path.join(w.out, '.partial', partial!), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { kind: string; round?: number });
  assert.deepEqual(
    lines.map((l) => [l.kind, l.round]),
    [
      ['header', undefined],
      ['round', 1],
    ],
  );
  assertClean(w, r);
});

it('--resume after that Ctrl-C runs the cut-off round of that voice again whole, refuses another protocol, and lands the same archive shape', async () => {
  const { w, r: first } = await interruptOnce();
  assert.equal(first.code, 130, first.stderr);
  const partialFile = /--resume (\S+\.jsonl)/.exec(first.stderr)?.[1];
  assert.ok(partialFile, first.stderr);
  const kept = JSON.parse(readFileSync(partialFile, 'utf8').trim().split('\n')[1]!) as {
    key: string;
    run: { children: Array<{ pid: number }> };
  };

  const refused = spawnSync(
    process.execPath,
    [BIN, '3', '--resume', partialFile, '--settle', '0', '--voices-dir', sharedVoicesDir()],
    { encoding: 'utf8' },
  );
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /differs from the interrupted run \(passes 2 then, 3 now\)/);

  const r = spawnSync(
    process.execPath,
    [BIN, '--resume', partialFile, '--settle', '0', '--voices-dir', sharedVoicesDir(), '--json'],
    { encoding: 'utf8', timeout: 300_000 },
  );
  assert.ok(r.status === 0 || r.status === 3, r.stderr);
  const archive = ArchiveSchema.parse(JSON.parse(r.stdout));
  assert.equal(archive.bras.length, 4);
  assert.equal(archive.interrompu, true);
  assert.equal(archive.protocole.passes_par_bras, 2);
  // The finished arm's round was cut off before the voice's other arms ran: pairing it with arms run
  // later would compare two moments, so the round ran again whole and none of its streams is the first run's.
  const arm = archive.bras.find(
    (b) =>
      `${b.voix}|K${b.flux_simultanes}|T${b.fils_par_flux}|${b.affinite_demandee ? 'pinned' : 'free'}|${b.isolation}` ===
      kept.key,
  );
  assert.ok(arm);
  const firstPids = new Set(kept.run.children.map((c) => c.pid));
  assert.ok(
    arm.enfants.every((e) => e.pid !== null && !firstPids.has(e.pid)),
    'the cut-off round was kept',
  );
  assert.deepEqual(
    archive.bras.map((b) => b.manches.length),
    [2, 2, 2, 2],
  );
  assert.deepEqual(readdirSync(path.join(w.out, '.partial')), []);
  assert.equal(archives(w).length, 1);
});
