// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/** `--dry-run`: the plan and its duration from the options alone; nothing measured, no folder made, no voice built. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { capacityDryRun, runDryRun } from '../../../lib/cli/commands/dry-run.js';
import type { Io } from '../../../lib/cli/io/io.js';
import { BIN, tempDir } from '../../helpers/paths.js';

function dry(args: string[]): { code: number | null; stdout: string; stderr: string; written: string[] } {
  const cwd = tempDir('dry');
  const r = spawnSync(process.execPath, [BIN, ...args, '--dry-run'], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, XDG_CACHE_HOME: path.join(cwd, 'cache') },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, written: readdirSync(cwd) };
}

function io(): Io & { lines: string[] } {
  const lines: string[] = [];
  return { lines, out: (t) => lines.push(t), err: (t) => lines.push(`ERR ${t}`) };
}

describe('--dry-run', () => {
  it('the default throughput run: its voices to be built, its arms, its looks and its time bound; nothing written', () => {
    const r = dry(['6']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.written, [], 'no folder made, no voice built');
    assert.match(r.stdout, /^dry run: every option checked; nothing measured, nothing written/);
    assert.match(
      r.stdout,
      /voices: synthetic-siwis-medium \(SYNTHETIC stand-in for fr_FR-siwis-medium, built on first use into .*cache/,
    );
    assert.match(r.stdout, /session: piper-tts/);
    assert.match(r.stdout, /arms: 4 per voice, 8 in all: K=1 T=1 free; K=2 T=1 free; K=2 T=1 pinned; K=1 T=2 free/);
    assert.match(r.stdout, /looks at its questions after rounds 4, 6, 8, 10, 12/);
    assert.match(r.stdout, /it ends by 10 minutes from its start, settling included/);
  });

  it('capacity: layouts on this machine, rounds, the budget; nothing written', () => {
    const r = dry(['capacity', '--max-minutes', '5', '--voice', 'synthetic-tom-medium']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.written, []);
    assert.match(r.stdout, /voices: synthetic-tom-medium \(SYNTHETIC stand-in, built on first use/);
    assert.match(r.stdout, /reply: built-in French reply \(capacity\), 2 sentences/);
    assert.match(r.stdout, /layouts: one process per stream x 1 thread, free/);
    assert.match(r.stdout, /rounds: 3,/);
    assert.match(r.stdout, /ends by about 5 minutes from its start/);
  });

  it('a fixed run says it has no time bound; a text file is counted; a bad option is still refused', async () => {
    const dir = tempDir('dry-text');
    const text = path.join(dir, 'replies.txt');
    writeFileSync(text, 'Bonjour.\nIl fait beau.\nÀ demain.\n');
    const o = io();
    assert.equal(await runDryRun({ passes: 4, rounds: 4, textFile: text, outDir: path.join(dir, 'out') }, o), 0);
    const said = o.lines.join('\n');
    assert.match(said, /rounds: 4 rounds, fixed \(--rounds\): 4 timed passes per arm/);
    assert.match(said, /no time bound/);
    assert.match(said, /text: .*replies\.txt, 3 sentences/);
    assert.deepEqual(readdirSync(dir), ['replies.txt']);
    await assert.rejects(runDryRun({ streams: [0] }, io()), /--streams|streams/);
    await assert.rejects(capacityDryRun({ rounds: 0 }, io()), /--rounds must be a whole number >= 1/);
  });
});
