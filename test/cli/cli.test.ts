// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { ArchiveSchema } from '../../lib/throughput/schema.js';
import { parseWavHeader } from '../../lib/voice/format/wav.js';
import { BIN, sharedVoicesDir, tempDir } from '../helpers/paths.js';

function cli(args: string[], cwd = tempDir('cwd')): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 300_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('command line', () => {
  it('--help works', () => {
    const r = cli(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /Exit codes: 0 every control held [\s\S]*; 3 a\s+control failed/);
  });

  // Passes, --streams 0, unknown flags and commands, extra arguments: test/faults/input.test.ts and
  // test/cli/bad-input.test.ts. Here, the values only this table checks.
  for (const [args, pattern] of [
    [['--streams', '-1'], /--streams must be a whole number >= 1, got "-1"/],
    [['--label', 'a/b'], /--label must be 1 to 40 letters, digits, spaces or \. _ \+ @ -, got "a\/b"/],
    [['--engine', 'piper'], /--engine must be one of onnxruntime, sherpa, both, got "piper"/],
    [['--scope', 'all'], /--scope must be one of model, text, got "all"/],
    [
      ['capacity', '--layouts', 'stream,all'],
      /--layouts must be one of stream, stream-pinned, threads, pool, got "all"/,
    ],
    [
      ['--engine', 'sherpa', '--scope', 'model'],
      /--scope model cannot time sherpa-onnx: it phonemizes inside its own call; use --scope text/,
    ],
    [
      ['--engine', 'both', '--isolation', 'thread'],
      /--isolation thread with --engine both: sherpa-onnx runs only as separate processes .*; use --isolation process, or --engine onnxruntime/,
    ],
  ] as const) {
    it(`usage error: ${args.join(' ')} -> exit 2 and one line`, () => {
      const r = cli([...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, pattern);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    });
  }

  it('a run too big for this machine is refused before any stream starts: exit 2, one line naming --streams and the memory', () => {
    const out = tempDir('too-big');
    const voice = [
      '--voice',
      'synthetic-siwis-medium',
      '--voices-dir',
      sharedVoicesDir(),
      '--settle',
      '0',
      '--out-dir',
      out,
    ];
    const r = cli(['1', '--streams', '500', ...voice]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr.trim(),
      /^piper-parallel: --streams 500 would need about \d+ MiB \(500 streams x \d+ MiB\) and MemAvailable is \d+ MiB; give fewer --streams, or --force to run it anyway$/,
    );
    const threads = cli(['1', '--threads', '64', ...voice]);
    assert.equal(threads.code, 2, threads.stderr);
    assert.match(threads.stderr, /--threads 64 is over 8 per usable core/);
    assert.deepEqual(
      readdirSync(out).filter((f) => f.endsWith('.json')),
      [],
    );
  });

  it('synth writes a valid WAV at the voice rate', () => {
    const out = path.join(tempDir('wav'), 'a.wav');
    const r = cli([
      'synth',
      '--voice',
      'synthetic-siwis-medium',
      '--voices-dir',
      sharedVoicesDir(),
      '--out',
      out,
      'Bonjour tout le monde.',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /SYNTHETIC/);
    const buf = readFileSync(out);
    const h = parseWavHeader(buf);
    assert.deepEqual([h.sampleRate, h.channels, h.bitsPerSample], [22050, 1, 16]);
    assert.equal(h.dataBytes, buf.length - 44);
    assert.ok(h.dataBytes > 0 && (h.dataBytes / 2) % 256 === 0);
  });

  it('synth --engine sherpa writes the same WAV from sherpa-onnx, in a cache copy, and a broken copy is one line', () => {
    const dir = tempDir('wav-sherpa');
    const env = { ...process.env, XDG_CACHE_HOME: path.join(dir, 'cache') };
    const run = (args: string[]) =>
      spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 300_000, env });
    const text = 'Bonjour tout le monde.';
    const ort = run([
      'synth',
      '--voice',
      'synthetic-tom-medium',
      '--voices-dir',
      sharedVoicesDir(),
      '--out',
      path.join(dir, 'o.wav'),
      text,
    ]);
    const sherpa = run([
      'synth',
      '--engine',
      'sherpa',
      '--voice',
      'synthetic-tom-medium',
      '--voices-dir',
      sharedVoicesDir(),
      '--out',
      path.join(dir, 's.wav'),
      text,
    ]);
    assert.equal(sherpa.status, 0, sherpa.stderr);
    assert.match(
      sherpa.stdout,
      /s\.wav: synthetic-tom-medium \(SYNTHETIC: random weights, not speech\), sherpa-onnx \d+\.\d+\.\d+ \(onnxruntime [\d.]+\), [\d.]+ s of audio/,
    );
    const a = readFileSync(path.join(dir, 'o.wav'));
    const b = readFileSync(path.join(dir, 's.wav'));
    assert.equal(ort.status, 0, ort.stderr);
    assert.equal(parseWavHeader(b).sampleRate, 44100);
    assert.equal(b.length, a.length);
    // Break the cache copy's tokens: sherpa-onnx would end its process; the command says so in one line.
    const copies = readdirSync(path.join(dir, 'cache', 'piper-parallel', 'sherpa')).filter((d) =>
      d.startsWith('synthetic-tom-medium-'),
    );
    assert.equal(copies.length, 1);
    writeFileSync(path.join(dir, 'cache', 'piper-parallel', 'sherpa', copies[0]!, 'tokens.txt'), 'ab 3\n');
    const broken = run([
      'synth',
      '--engine',
      'sherpa',
      '--voice',
      'synthetic-tom-medium',
      '--voices-dir',
      sharedVoicesDir(),
      '--out',
      path.join(dir, 'x.wav'),
      text,
    ]);
    assert.equal(broken.status, 1);
    assert.match(
      broken.stderr,
      /^piper-parallel: voice synthetic-tom-medium: sherpa-onnx ended its process with exit code 255 while loading its sherpa-ready copy \(it said: .*\); delete \S+ to have it made anew, or use --engine onnxruntime\n$/,
    );
  });

  it('phonemize prints one JSON line per sentence', () => {
    const r = cli(['phonemize', '--espeak-voice', 'fr', 'Bonjour. Au revoir.']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { phonemes: string; phoneme_ids: number[] });
    assert.equal(lines.length, 2);
    assert.equal(lines[0]?.phoneme_ids[0], 1);
  });

  it('a run with --json prints only the archive on stdout and exits by its controls; --isolation both runs processes and threads', () => {
    const dir = tempDir('run');
    const text = path.join(dir, 'short.txt');
    writeFileSync(text, 'Bonjour tout le monde.\n');
    const r = cli(
      [
        '1',
        '--settle',
        '0',
        '--voice',
        'synthetic-siwis-medium',
        '--streams',
        '2',
        '--affinity',
        'on',
        '--isolation',
        'both',
        '--warmup',
        '0',
        '--text-file',
        text,
        '--out-dir',
        path.join(dir, 'm'),
        '--voices-dir',
        sharedVoicesDir(),
        '--json',
      ],
      dir,
    );
    assert.ok(r.code === 0 || r.code === 3, r.stderr);
    const archive = ArchiveSchema.parse(JSON.parse(r.stdout));
    assert.equal(r.code, archive.controle_tenu ? 0 : 3);
    assert.match(r.stderr, /^voice synthetic-siwis-medium: SYNTHETIC stand-in \(--voices-dir: \S+\)$/m);
    assert.match(archive.protocole.commande, /--streams 2 --affinity on --isolation both/);
    assert.deepEqual(
      archive.bras.map((b) => [b.isolation, b.flux_simultanes, b.affinite_demandee]),
      [
        ['process', 2, true],
        ['thread', 2, true],
      ],
    );
  });

  it('voices build prints each synthetic voice with its sha256, and voices lists them as SYNTHETIC', () => {
    const dir = tempDir('voices-cli');
    const built = cli(['voices', 'build', '--voices-dir', dir]);
    assert.equal(built.code, 0, built.stderr);
    const lines = built.stdout.trim().split('\n');
    assert.equal(lines.length, 2);
    assert.match(
      lines[0] ?? '',
      /^synthetic-siwis-medium \(SYNTHETIC, stands in for fr_FR-siwis-medium\): 15\d{6} parameters, \d+ bytes, sha256 ([0-9a-f]{64}), built in [\d.]+ s -> .*synthetic-siwis-medium\.onnx$/,
    );
    assert.match(lines[1] ?? '', /^synthetic-tom-medium \(SYNTHETIC, stands in for fr_FR-tom-medium\): /);
    const sha = /sha256 ([0-9a-f]{64})/.exec(lines[0] ?? '')?.[1] ?? '';
    const listed = cli(['voices', '--voices-dir', dir]);
    assert.equal(listed.code, 0, listed.stderr);
    const rows = listed.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    assert.deepEqual(rows[0], ['name', 'rate_hz', 'quality', 'speakers', 'size_mb', 'sha256', 'kind', 'from']);
    assert.deepEqual(
      rows.slice(1).map((r) => [r[0], r[1], r[5], r[6], r[7]]),
      [
        ['synthetic-siwis-medium', '22050', sha.slice(0, 12), 'SYNTHETIC', `--voices-dir ${dir}`],
        ['synthetic-tom-medium', '44100', rows[2]?.[5], 'SYNTHETIC', `--voices-dir ${dir}`],
      ],
    );
    const empty = cli(['voices', '--voices-dir', tempDir('no-voices')]);
    assert.match(empty.stdout, /^no voice in .*; the synthetic ones are built on first use/);
  });

  it('onnxruntime-node that cannot be loaded is one line saying how to install it, no stack, nothing measured', () => {
    const hook = fileURLToPath(new URL('../fixtures/no-onnxruntime.js', import.meta.url));
    const out = tempDir('no-ort');
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        hook,
        BIN,
        '1',
        '--settle',
        '0',
        '--voice',
        'synthetic-siwis-medium',
        '--voices-dir',
        sharedVoicesDir(),
        '--out-dir',
        out,
      ],
      { encoding: 'utf8', timeout: 120_000 },
    );
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stderr,
      /^piper-parallel: onnxruntime-node could not be loaded \(Cannot find package 'onnxruntime-node' .*\); install it again with ONNXRUNTIME_NODE_INSTALL=skip npm install/m,
    );
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.deepEqual(
      readdirSync(out).filter((f) => f.endsWith('.json')),
      [],
    );
  });

  it('sherpa-onnx-node is optional: absent, --engine sherpa is one line saying how to install it; onnxruntime still runs', () => {
    const hook = fileURLToPath(new URL('../fixtures/no-sherpa.js', import.meta.url));
    const env = { ...process.env, NODE_OPTIONS: `--import ${hook}` };
    const wav = path.join(tempDir('no-sherpa'), 'a.wav');
    const args = ['synth', '--voice', 'synthetic-siwis-medium', '--voices-dir', sharedVoicesDir(), '--out', wav];
    const sherpa = spawnSync(process.execPath, [BIN, ...args, '--engine', 'sherpa', 'Bonjour.'], {
      encoding: 'utf8',
      env,
      timeout: 120_000,
    });
    assert.equal(sherpa.status, 1, sherpa.stderr);
    assert.match(
      sherpa.stderr.trim(),
      /^piper-parallel: sherpa-onnx-node could not be loaded \(Cannot find module 'sherpa-onnx-node'\); install it with `npm install sherpa-onnx-node`.*or use --engine onnxruntime$/,
    );
    assert.equal(sherpa.stderr.trim().split('\n').length, 1);
    const onnx = spawnSync(process.execPath, [BIN, ...args, 'Bonjour.'], { encoding: 'utf8', env, timeout: 120_000 });
    assert.equal(onnx.status, 0, onnx.stderr);
    assert.ok(statSync(wav).size > 44);
  });

  it('schema prints a JSON Schema of both kinds of archive, or of one', () => {
    const r = cli(['schema']);
    assert.equal(r.code, 0);
    const both = JSON.parse(r.stdout) as { anyOf: Array<{ properties: Record<string, unknown> }> };
    assert.ok('bras' in both.anyOf[0]!.properties && 'capacite' in both.anyOf[1]!.properties);
    const throughput = JSON.parse(cli(['schema', 'throughput']).stdout) as { properties: Record<string, unknown> };
    assert.ok('controle_tenu' in throughput.properties && 'bras' in throughput.properties);
    const capacity = JSON.parse(cli(['schema', 'capacity']).stdout) as { properties: Record<string, unknown> };
    assert.ok('essais' in capacity.properties && 'capacite' in capacity.properties && !('bras' in capacity.properties));
    assert.match(cli(['schema', 'other']).stderr, /schema must be one of throughput, capacity, got "other"/);
  });

  it('a missing text file is a one-line error naming the option', () => {
    const r = cli([
      '1',
      '--settle',
      '0',
      '--text-file',
      '/nonexistent/t.txt',
      '--voice',
      'synthetic-siwis-medium',
      '--voices-dir',
      sharedVoicesDir(),
    ]);
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
