import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CapacityArchiveSchema } from '../../lib/capacity/schema.js';
import { BIN, sharedVoicesDir, tempDir } from '../helpers/paths.js';

const run = (args: string[], cwd: string) => spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 600_000 });

describe('piper-parallel capacity, end to end on a synthetic voice', () => {
  it('sweeps every default layout, archives, reports with its three charts, and compares; exit follows the controls', () => {
    const dir = tempDir('capacity');
    writeFileSync(path.join(dir, 't.txt'), 'Bonjour à tous.\nÀ demain.\n');
    const out = path.join(dir, 'm');
    const r = run(['capacity', '--voice', 'synthetic-siwis-medium', '--voices-dir', sharedVoicesDir(), '--text-file', 't.txt', '--max-streams', '2', '--rounds', '2', '--settle', '0', '--out-dir', out, '--json'], dir);
    const archive = CapacityArchiveSchema.parse(JSON.parse(r.stdout));
    assert.equal(r.status, archive.controle_tenu ? 0 : 3, r.stderr);
    assert.equal(archive.capacite.length, 4);
    for (const c of archive.capacite) {
      assert.ok(c.flux_max_sans_trou <= 2);
      // Every K the answer claims was tried and held in every trial of it.
      const at = archive.essais.filter((t) => t.disposition === c.disposition && t.flux === c.flux_max_sans_trou);
      if (c.flux_max_sans_trou > 0) assert.ok(at.length > 0 && at.every((t) => t.tenu), c.phrase);
    }
    assert.ok(archive.essais.every((t) => t.controles.map((x) => x.name).join() === 'arrivals,memory,outside_load'));
    assert.ok(archive.essais.some((t) => t.manche === 2));
    assert.match(r.stderr, /^synthetic-siwis-medium: alone x[\d.]+ real time, sentences [\d.]+, [\d.]+ s; a worker peaks at \d+ MiB/m);
    assert.match(r.stderr, /^trial 1 \(round 1\): synthetic-siwis-medium, .*, K=\d+: (held|failed), first audio p95 \d+ ms, \d+ gap/m);
    assert.match(r.stderr, /^capacity: synthetic-siwis-medium on this machine: /m);
    const files = readdirSync(out);
    const html = readFileSync(path.join(out, files.find((f) => f.endsWith('.html')) ?? ''), 'utf8');
    for (const id of ['first-audio-synthetic-siwis-medium', 'gaps-synthetic-siwis-medium', 'timeline-synthetic-siwis-medium']) assert.match(html, new RegExp(`data-chart="${id}"><svg`));
    const file = path.join(out, files.find((f) => f.endsWith('.json')) ?? '');
    const md = run(['report', file], dir);
    assert.equal(md.status, 0, md.stderr);
    assert.match(md.stdout, /^# piper-parallel capacity run of /);
    const same = run(['compare', file, file], dir);
    // A layout counts when every trial of it held its controls; the same run never regresses against itself.
    const counted = archive.capacite.filter((c) => archive.essais.filter((t) => t.disposition === c.disposition).every((t) => t.controle_tenu)).length;
    assert.equal(same.status, counted > 0 ? 0 : 2, same.stderr);
    if (counted > 0) assert.match(same.stdout, new RegExp(`no regression \\(${counted} layout\\(s\\) compared\\)`));
  });

  it('a one-sentence text is said, not refused; bad options are one line each', () => {
    const dir = tempDir('capacity-one');
    writeFileSync(path.join(dir, 'one.txt'), 'Oui.\n');
    // Workers as threads this time: the thread entry serves as the process one does.
    const r = run(['capacity', '--voice', 'synthetic-siwis-medium', '--voices-dir', sharedVoicesDir(), '--text-file', 'one.txt', '--max-streams', '1', '--rounds', '1', '--settle', '0', '--isolation', 'thread', '--out-dir', path.join(dir, 'm'), '--no-report'], dir);
    assert.ok(r.status === 0 || r.status === 3, r.stderr);
    assert.match(r.stdout, /^trial 1 \(round 1\): synthetic-siwis-medium, .*thread worker.*, K=1: (held|failed), first audio p95 \d+ ms, 0 gap\(s\)/m);
    assert.doesNotMatch(r.stdout, /K=\d+: (FAILED|TIMED-OUT)/);
    assert.match(r.stdout, /^note: the text is one sentence: a listener hears no gap, and the first audio is the whole wait$/m);
    for (const [args, pattern] of [
      [['--first-audio-ms', '0'], /^piper-parallel: --first-audio-ms must be a number above 0, got "0"; e\.g\. --first-audio-ms 500\n$/],
      [['--max-streams', '0'], /^piper-parallel: --max-streams must be a whole number >= 1, got "0"/],
      [['--schedule', 'lifo'], /^piper-parallel: --schedule must be one of fifo, deadline, got "lifo"\n$/],
      [['--arrivals', 'burst'], /^piper-parallel: --arrivals must be one of together, staggered, poisson, got "burst"\n$/],
    ] as const) {
      const bad = run(['capacity', ...args], dir);
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, pattern);
    }
  });
});
