import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { BIN, sharedVoicesDir, tempDir } from '../helpers/paths.js';

it('Ctrl-C after the first arm: exit 130, the finished arm kept in the partial file, no archive, no child left', async () => {
  const dir = tempDir('sigint');
  const text = path.join(dir, 't.txt');
  writeFileSync(text, 'Bonjour tout le monde.\n');
  const out = path.join(dir, 'm');
  const child = spawn(process.execPath, [BIN, '2', '--settle', '0', '--voice', 'synthetic-siwis-medium', '--voices-dir', sharedVoicesDir(), '--text-file', text, '--out-dir', out], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let sent = false;
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (!sent && /K=1\s+T=1/.test(stdout)) {
      sent = true;
      child.kill('SIGINT');
    }
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  clearTimeout(timer);
  assert.equal(code, 130, stderr);
  assert.match(stderr, /interrupted during .*; 1 finished arm\(s\) kept in .*\.partial\/piper-parallel-\d{8}-\d{6}\.jsonl; resume with: piper-parallel --resume \S+\.jsonl/);
  assert.deepEqual(readdirSync(out).filter((f) => f.endsWith('.json')), []);
  const [partial] = readdirSync(path.join(out, '.partial'));
  const lines = readFileSync(path.join(out, '.partial', partial!), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string });
  assert.deepEqual(lines.map((l) => l.kind), ['header', 'arm']);
  const { execSync } = await import('node:child_process');
  const left = execSync("pgrep -f '[e]ntry/process-stream.js' || true", { encoding: "utf8" }).trim();
  assert.equal(left, '', 'stream processes left behind');
});

it('--resume after that Ctrl-C skips the finished arm, refuses another protocol, and lands the same archive shape', async () => {
  const dir = tempDir('resume');
  const text = path.join(dir, 't.txt');
  writeFileSync(text, 'Bonjour tout le monde.\n');
  const out = path.join(dir, 'm');
  const child = spawn(process.execPath, [BIN, '2', '--settle', '0', '--voice', 'synthetic-siwis-medium', '--voices-dir', sharedVoicesDir(), '--text-file', text, '--out-dir', out], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (/K=1\s+T=1/.test(stdout)) child.kill('SIGINT');
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  assert.equal(await new Promise<number | null>((r) => child.on('exit', (c) => r(c))), 130, stderr);
  const partialFile = /--resume (\S+\.jsonl)/.exec(stderr)?.[1];
  assert.ok(partialFile, stderr);
  const firstArm = (JSON.parse(readFileSync(partialFile, 'utf8').trim().split('\n')[1]!) as { arm: { enfants: Array<{ pid: number }> } }).arm;

  const { spawnSync } = await import('node:child_process');
  const refused = spawnSync(process.execPath, [BIN, '3', '--resume', partialFile, '--settle', '0', '--voices-dir', sharedVoicesDir()], { encoding: 'utf8' });
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /differs from the interrupted run \(passes 2 then, 3 now\)/);

  const r = spawnSync(process.execPath, [BIN, '--resume', partialFile, '--settle', '0', '--voices-dir', sharedVoicesDir(), '--json'], { encoding: 'utf8', timeout: 300_000 });
  assert.ok(r.status === 0 || r.status === 3, r.stderr);
  const { ArchiveSchema } = await import('../../lib/archive/schema.js');
  const archive = ArchiveSchema.parse(JSON.parse(r.stdout));
  assert.equal(archive.bras.length, 4);
  assert.equal(archive.interrompu, true);
  assert.equal(archive.protocole.passes_par_bras, 2);
  // The finished arm was kept as measured, not run again.
  assert.deepEqual(archive.bras[0]?.enfants.map((e) => e.pid), firstArm.enfants.map((e) => e.pid));
  assert.deepEqual(readdirSync(path.join(out, '.partial')), []);
  assert.equal(readdirSync(out).filter((f) => f.endsWith('.json')).length, 1);
});
