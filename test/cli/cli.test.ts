import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ArchiveSchema } from '../../lib/archive/schema.js';
import { parseWavHeader } from '../../lib/voice/wav.js';
import { BIN, sharedVoicesDir, tempDir } from '../helpers/paths.js';

function cli(args: string[], cwd = tempDir('cwd')): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 300_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('command line', () => {
  it('--help works', () => {
    const r = cli(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Exit codes: 0 every control held .*; 3 a control failed/);
  });

  for (const [args, pattern] of [
    [['0'], /passes must be a whole number >= 1, got "0"/],
    [['-1'], /passes must not be negative, got "-1"/],
    [['1.5'], /passes must be a whole number >= 1, got "1.5"/],
    [['abc'], /passes must be a whole number >= 1, got "abc"/],
    [['--streams', '0'], /--streams must be a whole number >= 1, got "0"/],
    [['--threads', '0'], /--threads must be a whole number >= 1, got "0"/],
    [['--affinity', 'maybe'], /--affinity must be one of on, off, both/],
    [['--bogus'], /Unknown option '--bogus'.*see piper-parallel --help/],
    [['2', '3'], /unexpected argument "3"/],
  ] as const) {
    it(`usage error: ${args.join(' ')} -> exit 2 and one line`, () => {
      const r = cli([...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, pattern);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    });
  }

  it('synth writes a valid WAV at the voice rate', () => {
    const out = path.join(tempDir('wav'), 'a.wav');
    const r = cli(['synth', '--voice', 'synthetic-siwis-medium', '--voices-dir', sharedVoicesDir(), '--out', out, 'Bonjour tout le monde.']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /SYNTHETIC/);
    const buf = readFileSync(out);
    const h = parseWavHeader(buf);
    assert.deepEqual([h.sampleRate, h.channels, h.bitsPerSample], [22050, 1, 16]);
    assert.equal(h.dataBytes, buf.length - 44);
    assert.ok(h.dataBytes > 0 && (h.dataBytes / 2) % 256 === 0);
  });

  it('phonemize prints one JSON line per sentence', () => {
    const r = cli(['phonemize', '--espeak-voice', 'fr', 'Bonjour. Au revoir.']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { phonemes: string; phoneme_ids: number[] });
    assert.equal(lines.length, 2);
    assert.equal(lines[0]?.phoneme_ids[0], 1);
  });

  it('a run with --json prints only the archive on stdout and exits by its controls', () => {
    const dir = tempDir('run');
    const text = path.join(dir, 'short.txt');
    writeFileSync(text, 'Bonjour tout le monde.\n');
    const r = cli(['2', '--settle', '0', '--voice', 'synthetic-siwis-medium', '--streams', '2', '--affinity', 'on', '--warmup', '0', '--text-file', text, '--out-dir', path.join(dir, 'm'), '--voices-dir', sharedVoicesDir(), '--json'], dir);
    assert.ok(r.code === 0 || r.code === 3, r.stderr);
    const archive = ArchiveSchema.parse(JSON.parse(r.stdout));
    assert.equal(r.code, archive.controle_tenu ? 0 : 3);
    assert.match(r.stderr, /SYNTHETIC stand-in|synthetic-siwis-medium/);
    assert.match(archive.protocole.commande, /--streams 2 --affinity on/);
  });

  it('schema prints a JSON Schema', () => {
    const r = cli(['schema']);
    assert.equal(r.code, 0);
    const schema = JSON.parse(r.stdout) as { properties: Record<string, unknown> };
    assert.ok('controle_tenu' in schema.properties && 'bras' in schema.properties);
  });

  it('a missing text file is a one-line error naming the option', () => {
    const r = cli(['1', '--settle', '0', '--text-file', '/nonexistent/t.txt', '--voice', 'synthetic-siwis-medium', '--voices-dir', sharedVoicesDir()]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /--text-file \/nonexistent\/t\.txt cannot be read \(ENOENT\)/);
  });
});

describe('the built command', () => {
  it('stays executable after a rebuild, so npx piper-parallel works after npm test', async () => {
    const { statSync } = await import('node:fs');
    assert.ok((statSync(BIN).mode & 0o111) !== 0, 'dist/bin/piper-parallel.js is not executable');
  });
});
