import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { validateWorkflow } from '@action-validator/core';
import { ensureSyntheticVoice, syntheticSpec } from '../lib/voice/synthetic/build.js';
import type { Archive } from '../lib/throughput/schema.js';
import { anyArmComparable, throughputFellBeyond } from './helpers/archive.js';
import { ROOT, sharedVoicesDir, tempDir } from './helpers/paths.js';

/**
 * Every command the README and docs/ show is run here, so they cannot rot: the `sh` blocks line by
 * line, the `run:` steps of the GitHub Actions job, and a type-check of every TypeScript example.
 */
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
/** The README first (its first block is the two set-up commands), then every document of docs/, by name. */
const DOCS = ['docs', 'docs/contributing'].flatMap((dir) =>
  readdirSync(path.join(ROOT, dir))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => readFileSync(path.join(ROOT, dir, f), 'utf8')),
);
const ALL_TEXT = [README, ...DOCS].join('\n');
const blocks = [README, ...DOCS].flatMap((text) =>
  [...text.matchAll(/^```(\w*)([^\n]*)\n([\s\S]*?)^```/gm)].map((m) => ({
    lang: m[1] ?? '',
    info: m[2]?.trim() ?? '',
    body: m[3] ?? '',
  })),
);
/** The matrix workflow is shown as the file it is; its jobs run on CI runners, not here. */
const MATRIX = 'examples/matrix.yml';
const matrixBlock = blocks.find((b) => b.info === `file=${MATRIX}`);
/** docs/home-assistant.md's blocks need a Wyoming server: test/docs-home-assistant.test.ts runs them against one. */
const shCommands = blocks
  .filter((b) => b.lang === 'sh' && b.info !== 'home-assistant')
  .flatMap((b) => b.body.split('\n'))
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'))
  // `npm ci && npx piper-parallel 6`: two commands.
  .flatMap((l) => (l.startsWith('npm ci && ') ? ['npm ci', l.slice('npm ci && '.length)] : [l]));
const yamlCommands = blocks
  .filter((b) => b.lang === 'yaml' && b !== matrixBlock)
  .flatMap((b) => [...b.body.matchAll(/^\s*- run: (.+)$/gm)].map((m) => m[1]?.trim() ?? ''));
const tsBlocks = blocks.filter((b) => b.lang === 'ts').map((b) => b.body);
/**
 * What .ci/run itself runs: running them here would reinstall under the running tests, or recurse;
 * and the whole default experiment, the suite's longest run, which .ci/run runs beside the suite.
 */
const RUN_BY_CI = ['npm ci', 'npx piper-parallel 6', 'npm test'];
/** Installing from the registry: test/package.test.ts runs this install on the packed tarball instead. */
const RUN_BY_PACKAGE_TEST = ['npm install --save-dev piper-parallel'];
/** The suite on Node 24: .ci/run runs it (here it would recurse). */
const NODE_24_TEST = (c: string): boolean => /node@24 .* npm test$/.test(c);
/** Synthetic voices built by the README's commands go to a cache of the test's, not the user's. */
const cacheHome = tempDir('readme-cache');

const sandbox = tempDir('readme');
/** The default text of the README's runs here: one sentence, so a pass is short (the commands are judged, not their figures). */
const shortText = path.join(tempDir('readme-text'), 'text.txt');
writeFileSync(shortText, 'Bonjour tout le monde.\n');
let server: http.Server;
let mirror = '';

/**
 * `npx piper-parallel` runs the bin npx finds here, without npm's own start (half a second each, twenty
 * times); npx itself runs the package in .ci/run (`npx piper-parallel 6`) and in the package test.
 */
const NPX_AS_BIN =
  'npx() { if [ "$1" = piper-parallel ]; then shift; node_modules/.bin/piper-parallel "$@"; else command npx "$@"; fi; }';

/** Asynchronous, so the mirror in this process keeps answering while the command runs. */
async function run(command: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-o', 'pipefail', '-c', `${NPX_AS_BIN}\n${command}`], {
    cwd: sandbox,
    env: {
      ...process.env,
      PIPER_VOICES_BASE_URL: mirror,
      ONNXRUNTIME_NODE_INSTALL: 'skip',
      NO_UPDATE_NOTIFIER: '1',
      XDG_CACHE_HOME: cacheHome,
      PIPER_PARALLEL_SETTLE: '0',
      PIPER_PARALLEL_TEXT_FILE: shortText,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20 * 60_000);
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { status: code, stdout, stderr };
}

/** The newest archive of the sandbox, to check exit 3 really meant a failed control. */
function newestArchive(prefix = 'piper-parallel'): { controle_tenu: boolean } | undefined {
  const dir = path.join(sandbox, 'measurements');
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.startsWith(`${prefix}-`) && f.endsWith('.json'))
        .sort()
    : [];
  const last = files.at(-1);
  return last ? (JSON.parse(readFileSync(path.join(dir, last), 'utf8')) as { controle_tenu: boolean }) : undefined;
}

/** The two archives a `compare` printed as A: and B:, as files of the sandbox. */
function comparedArchives(stdout: string): [Archive, Archive] {
  const read = (label: string): Archive => {
    const m = new RegExp(`^${label}: (.+)$`, 'm').exec(stdout);
    assert.ok(m?.[1], `compare did not print ${label}:`);
    return JSON.parse(readFileSync(path.resolve(sandbox, m[1]), 'utf8')) as Archive;
  };
  return [read('A'), read('B')];
}

before(async () => {
  // piper-parallel resolves to this checkout, as if installed: npx finds its bin, import finds the package.
  mkdirSync(path.join(sandbox, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(ROOT, path.join(sandbox, 'node_modules', 'piper-parallel'), 'dir');
  symlinkSync(
    path.join(ROOT, 'dist', 'bin', 'piper-parallel.js'),
    path.join(sandbox, 'node_modules', '.bin', 'piper-parallel'),
  );
  writeFileSync(
    path.join(sandbox, 'package.json'),
    JSON.stringify({ name: 'readme-sandbox', private: true, type: 'module' }),
  );
  // A loopback mirror of the piper-voices layout; its fr_FR-siwis-medium is the synthetic stand-in's files.
  const spec = syntheticSpec('synthetic-siwis-medium');
  assert.ok(spec);
  const voice = await ensureSyntheticVoice(spec, sharedVoicesDir());
  const onnx = readFileSync(voice.onnxPath);
  const config = readFileSync(`${voice.onnxPath}.json`);
  const md5 = (b: Buffer): string => createHash('md5').update(b).digest('hex');
  const dir = 'fr/fr_FR/siwis/medium';
  const catalogue = {
    'fr_FR-siwis-medium': {
      key: 'fr_FR-siwis-medium',
      files: {
        [`${dir}/fr_FR-siwis-medium.onnx`]: { size_bytes: onnx.length, md5_digest: md5(onnx) },
        [`${dir}/fr_FR-siwis-medium.onnx.json`]: { size_bytes: config.length, md5_digest: md5(config) },
      },
    },
  };
  server = http.createServer((req, res) => {
    if (req.url === '/voices.json') return void res.end(JSON.stringify(catalogue));
    if (req.url === `/${dir}/fr_FR-siwis-medium.onnx`) return void res.end(onnx);
    if (req.url === `/${dir}/fr_FR-siwis-medium.onnx.json`) return void res.end(config);
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => server?.close());

describe('README', () => {
  it('shows the two set-up commands, and .ci/run runs npm ci, the default experiment and npm test', () => {
    assert.deepEqual(shCommands.slice(0, 3), ['npm ci', 'npx piper-parallel 6', 'npm test']);
    const ci = readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    for (const c of RUN_BY_CI)
      assert.ok(
        ci.some((l) => l === c || l.startsWith(`${c} `)),
        `.ci/run runs ${c}`,
      );
    // The README's way of running the suite on Node 24 is the one .ci/run uses.
    const node24 = shCommands.filter(NODE_24_TEST);
    assert.equal(node24.length, 1);
    assert.ok(ci.includes(node24[0] as string), `.ci/run runs ${node24[0]}`);
    assert.ok(shCommands.length > 10 && yamlCommands.length >= 3 && tsBlocks.length >= 2);
  });

  it('every command of its sh blocks and of its GitHub Actions job runs as described', async () => {
    for (const command of [...shCommands, ...yamlCommands]) {
      if (RUN_BY_CI.includes(command) || RUN_BY_PACKAGE_TEST.includes(command) || NODE_24_TEST(command)) continue;
      const started = performance.now();
      const r = await run(command);
      process.stdout.write(`# ${((performance.now() - started) / 1000).toFixed(1)} s, exit ${r.status}: ${command}\n`);
      const measures = /^npx piper-parallel (\d|capacity )/.test(command);
      const gate = /controle_tenu \? 0 : 1/.test(command);
      const compares = /^npx piper-parallel compare /.test(command);
      if (compares) {
        // Two runs in a row on this shared machine can differ by 10% (exit 4), or be too noisy to
        // compare at all (exit 2): each is the right answer when the archives' own figures say so.
        const tolerance = Number(/--tolerance (\d+(?:\.\d+)?)/.exec(command)?.[1] ?? 5);
        const [a, b] = comparedArchives(r.stdout);
        const expected = !anyArmComparable(a, b, tolerance) ? 2 : throughputFellBeyond(a, b, tolerance) ? 4 : 0;
        assert.equal(r.status, expected, `${command}: the exit must follow the archives\n${r.stdout}`);
      } else if (measures && r.status === 3) {
        // Exit 3 is the tool working: a control failed on this shared machine, and the archive says so.
        assert.equal(
          newestArchive(command.includes(' capacity ') ? 'capacity' : 'piper-parallel')?.controle_tenu,
          false,
          `${command}: exit 3 without a failed control`,
        );
      } else if (gate) {
        assert.equal(
          r.status,
          newestArchive()?.controle_tenu ? 0 : 1,
          `${command}: the gate must follow controle_tenu\n${r.stderr}`,
        );
      } else {
        assert.equal(r.status, 0, `${command}\nstdout: ${r.stdout.slice(-2000)}\nstderr: ${r.stderr.slice(-2000)}`);
      }
    }
    // What the commands claim to leave behind.
    const files = readdirSync(path.join(sandbox, 'measurements'));
    assert.ok(files.some((f) => f.endsWith('.md')) && files.some((f) => f.endsWith('.html')));
    for (const f of [
      'report.html',
      'archive.schema.json',
      'bonjour.wav',
      'run.json',
      'path.txt',
      'real-voices/fr_FR-siwis-medium.onnx',
      'summary.html',
      'summary.md',
      'summary.json',
    ]) {
      assert.ok(existsSync(path.join(sandbox, f)), `${f} was not made`);
    }
  });

  it("shows examples/matrix.yml word for word; the file passes the workflow schema check, and its commands are the README's", () => {
    const file = readFileSync(path.join(ROOT, MATRIX), 'utf8');
    assert.equal(matrixBlock?.body, file);
    assert.deepEqual(validateWorkflow(file).errors, []);
    // The check can fail: a job without a runner is refused.
    assert.ok(validateWorkflow(file.replace(/^ {4}runs-on: .*$/m, '')).errors.length > 0);
    const runs = [...file.matchAll(/^\s*- run: (.+)$/gm)].map((m) => m[1]?.trim() ?? '');
    assert.ok(runs.length >= 5);
    for (const r of runs) {
      // The matrix adds a label and keeps the JSON; the command itself is one the README gives.
      const bare = r
        .replace(/ --label \$\{\{ matrix\.runner \}\}/, '')
        .replace(/ --json > \S+/, '')
        .replace(/ \|\| test \$\? -eq 3$/, '');
      assert.ok(
        shCommands.includes(bare) || ALL_TEXT.includes(`\`${bare}\``),
        `${MATRIX} runs "${r}", not a README command`,
      );
    }
  });

  it("every TypeScript example (the README's and the library page's) type-checks against the package", () => {
    // One file per example, type-checked together: each is a module of its own.
    const files = tsBlocks.map((body, i) => {
      const file = path.join(sandbox, `example-${i}.ts`);
      writeFileSync(file, body);
      return file;
    });
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const r = spawnSync(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--target',
        'es2022',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--types',
        'node',
        '--typeRoots',
        path.join(ROOT, 'node_modules', '@types'),
        ...files,
      ],
      { cwd: sandbox, encoding: 'utf8', timeout: 120_000 },
    );
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});
