// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ROOT, tempDir } from './helpers/paths.js';

const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', NO_UPDATE_NOTIFIER: '1' };
/** Someone else's machine: nothing set in the environment that would skip onnxruntime-node's script. */
const consumerEnv: NodeJS.ProcessEnv & { XDG_CACHE_HOME: string } = {
  ...env,
  XDG_CACHE_HOME: tempDir('consumer-cache'),
};
delete consumerEnv.ONNXRUNTIME_NODE_INSTALL;
delete consumerEnv.npm_config_onnxruntime_node_install;

/**
 * The consumer's package.json, as the README says: its own allowScripts denies onnxruntime-node's
 * script. Installed from a local tarball (not the registry), piper-parallel's own `prepare` counts as
 * an install script too, known by the tarball's `file:` path; its dist/ is in the tarball, so it is
 * denied here.
 */
const consumerPackage = (tarball: string): string =>
  JSON.stringify({
    name: 'consumer',
    private: true,
    type: 'module',
    allowScripts: { 'onnxruntime-node': false, [`file:${tarball}`]: false },
  });
/** What onnxruntime-node's install script would have fetched on linux/x64. */
const CUDA = path.join(
  'node_modules',
  'onnxruntime-node',
  'bin',
  'napi-v6',
  'linux',
  'x64',
  'libonnxruntime_providers_cuda.so',
);
const MEASURE =
  "import { runArms } from 'piper-parallel';\nconst r = await runArms({ passes: 1, warmup: 0, settleSeconds: 0, voices: ['synthetic-siwis-medium'], streams: [1], lines: ['Oui.'] });\nconsole.log(r.path, r.archive.bras[0].etat, process.version);\n";

let tarball: string | undefined;
/** npm pack, once: dist/ is already built by npm test; --ignore-scripts keeps pack from building again. */
function pack(): { file: string; files: Array<{ path: string }> } {
  const dir = tempDir('pack');
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    }),
  ) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const info = packed[0];
  assert.ok(info);
  tarball = path.join(dir, info.filename);
  return { file: tarball, files: info.files };
}

describe('npm package', () => {
  it("npm ci in a clone links the project's own bin into node_modules/.bin, where npm 12's npx looks for it (npm 11 found it another way)", () => {
    const prepare = (
      JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { prepare: string } }
    ).scripts.prepare;
    assert.ok(prepare.startsWith('npm run build && '), prepare);
    const clone = tempDir('clone');
    mkdirSync(path.join(clone, 'node_modules', '.bin'), { recursive: true });
    const link = (): void =>
      void execFileSync('sh', ['-c', prepare.slice('npm run build && '.length)], { cwd: clone, encoding: 'utf8' });
    link();
    assert.equal(
      readlinkSync(path.join(clone, 'node_modules', '.bin', 'piper-parallel')),
      '../../dist/bin/piper-parallel.js',
    );
    // A second npm ci keeps it; a folder without node_modules (not installed yet) is left alone.
    link();
    const bare = tempDir('clone-bare');
    execFileSync('sh', ['-c', prepare.slice('npm run build && '.length)], { cwd: bare });
    assert.deepEqual(readdirSync(bare), []);
  });

  it('npm pack gives a tarball of dist/lib, dist/bin, the README, docs, licence, changelog and the CI matrix example that installs in an empty folder and runs npx piper-parallel --help', () => {
    const { file, files } = pack();
    const top = (p: string): string =>
      p.startsWith('dist/') ? p.split('/').slice(0, 2).join('/') : p.split('/')[0] === 'docs' ? 'docs' : p;
    const roots = new Set(files.map((f) => top(f.path)));
    const expected = [
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'dist/bin',
      'dist/lib',
      'docs',
      'examples/matrix.yml',
      'package.json',
    ];
    assert.deepEqual([...roots].sort(), expected);
    assert.ok(
      files.some((f) => f.path === 'dist/lib/index.d.ts'),
      'declaration files are in the tarball',
    );
    const consumer = tempDir('consumer');
    writeFileSync(path.join(consumer, 'package.json'), consumerPackage(file));
    const install = spawnSync('npm', ['install', file, '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: consumer,
      env: consumerEnv,
      encoding: 'utf8',
      timeout: 600_000,
    });
    assert.equal(install.status, 0, install.stderr);
    // A quiet install: no unknown project config, no script left unreviewed; and the CUDA download never ran.
    // (npm 12 may still name this machine's own user config, e.g. nodedir: not the project's.)
    assert.doesNotMatch(install.stderr, /Unknown project config|not yet covered by allowScripts/, install.stderr);
    assert.equal(existsSync(path.join(consumer, CUDA)), false);
    const help = spawnSync('npx', ['--no-install', 'piper-parallel', '--help'], {
      cwd: consumer,
      env,
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^piper-parallel: how many simultaneous Piper voice streams/);
    assert.match(help.stdout, /^ {2}report +an archive \(throughput or capacity\)/m);
    const api = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('piper-parallel'); console.log([typeof m.runArms, typeof m.compareArchives, typeof m.renderMarkdown, typeof m.renderHtml, typeof m.ArchiveSchema.parse].join(' '))",
      ],
      { cwd: consumer, encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(api.status, 0, api.stderr);
    assert.equal(api.stdout.trim(), 'function function function function function');
    assert.ok(existsSync(path.join(consumer, 'node_modules', 'piper-parallel', 'dist', 'lib', 'index.d.ts')));
    // Types resolve through the exports map: a wrong field type must fail to compile, a right one pass.
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const check = (body: string): ReturnType<typeof spawnSync> => {
      writeFileSync(
        path.join(consumer, 'check.ts'),
        `import { runArms, type Archive } from 'piper-parallel';\n${body}\nvoid runArms;\n`,
      );
      return spawnSync(
        process.execPath,
        [
          tsc,
          '--noEmit',
          '--strict',
          '--skipLibCheck',
          '--module',
          'nodenext',
          '--moduleResolution',
          'nodenext',
          'check.ts',
        ],
        { cwd: consumer, encoding: 'utf8', timeout: 120_000 },
      );
    };
    assert.equal(check('export const held = (a: Archive): boolean => a.controle_tenu;').status, 0);
    const wrong = check('export const held = (a: Archive): string => a.controle_tenu;');
    assert.notEqual(wrong.status, 0);
    assert.match(String(wrong.stdout), /Type 'boolean' is not assignable to type 'string'/);

    // One tiny arm from a script: only measurements/ appears in the project; the voice goes to the user's cache.
    const before = new Set(readdirSync(consumer));
    writeFileSync(path.join(consumer, 'measure.mjs'), MEASURE);
    before.add('measure.mjs');
    const measured = spawnSync(process.execPath, ['measure.mjs'], {
      cwd: consumer,
      env: consumerEnv,
      encoding: 'utf8',
      timeout: 300_000,
    });
    assert.equal(measured.status, 0, measured.stderr);
    assert.match(
      measured.stdout,
      new RegExp(`^${path.join(consumer, 'measurements')}/piper-parallel-\\d{8}-\\d{6}\\.json done v`, 'm'),
    );
    assert.deepEqual(
      readdirSync(consumer).filter((f) => !before.has(f)),
      ['measurements'],
    );
    assert.deepEqual(readdirSync(path.join(consumerEnv.XDG_CACHE_HOME, 'piper-parallel', 'voices')), ['synthetic-v2']);
  });

  it('npm 12, on Node 24 LTS from the registry, installs the tarball with nothing set and runs an arm from a script', () => {
    const file = tarball ?? pack().file;
    const consumer = tempDir('consumer-npm12');
    writeFileSync(path.join(consumer, 'package.json'), consumerPackage(file));
    // npm 12 needs Node >= 22: both come from the registry, npm 12 running on that Node.
    const npx = (args: string[]): ReturnType<typeof spawnSync> =>
      spawnSync('npx', ['-y', '-p', 'node@24', '-p', 'npm@12', '--', ...args], {
        cwd: consumer,
        env: consumerEnv,
        encoding: 'utf8',
        timeout: 900_000,
      });
    const version = npx(['npm', '--version']);
    assert.equal(version.status, 0, String(version.stderr));
    assert.match(String(version.stdout).trim(), /^12\./);
    const install = npx(['npm', 'install', file, '--prefer-offline', '--no-audit', '--no-fund']);
    assert.equal(install.status, 0, String(install.stderr));
    assert.doesNotMatch(String(install.stderr), /Unknown project config|not yet covered by allowScripts/);
    assert.equal(existsSync(path.join(consumer, CUDA)), false);
    writeFileSync(path.join(consumer, 'measure.mjs'), MEASURE);
    const measured = npx(['node', 'measure.mjs']);
    assert.equal(measured.status, 0, String(measured.stderr));
    assert.match(
      String(measured.stdout),
      new RegExp(`^${path.join(consumer, 'measurements')}/piper-parallel-\\d{8}-\\d{6}\\.json done v24\\.`, 'm'),
    );
  });
});
