import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ROOT, tempDir } from './helpers/paths.js';

const env = { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip', npm_config_audit: 'false', npm_config_fund: 'false', NO_UPDATE_NOTIFIER: '1' };
/** Someone else's machine: no skip in the environment (npm test passes this repository's .npmrc on as npm_config_*). */
const consumerEnv: NodeJS.ProcessEnv & { XDG_CACHE_HOME: string } = { ...env, XDG_CACHE_HOME: tempDir('consumer-cache') };
delete consumerEnv.ONNXRUNTIME_NODE_INSTALL;
delete consumerEnv.npm_config_onnxruntime_node_install;

describe('npm package', () => {
  it('npm pack gives a tarball of dist/lib, dist/bin and the README that installs in an empty folder and runs npx piper-parallel --help', () => {
    const dir = tempDir('pack');
    // dist/ is already built by npm test; --ignore-scripts keeps pack from building again.
    const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 })) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const info = packed[0];
    assert.ok(info);
    const roots = new Set(info.files.map((f) => (f.path.startsWith('dist/') ? f.path.split('/').slice(0, 2).join('/') : f.path)));
    assert.deepEqual([...roots].sort(), ['README.md', 'dist/bin', 'dist/lib', 'package.json']);
    assert.ok(info.files.some((f) => f.path === 'dist/lib/index.d.ts'), 'declaration files are in the tarball');
    const consumer = path.join(dir, 'consumer');
    execFileSync('mkdir', ['-p', consumer]);
    // The way the README says: the project's .npmrc keeps onnxruntime-node's install script from fetching CUDA libraries.
    writeFileSync(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(path.join(consumer, '.npmrc'), 'onnxruntime-node-install=skip\n');
    const install = spawnSync('npm', ['install', path.join(dir, info.filename), '--prefer-offline', '--no-audit', '--no-fund'], { cwd: consumer, env: consumerEnv, encoding: 'utf8', timeout: 600_000 });
    assert.equal(install.status, 0, install.stderr);
    const help = spawnSync('npx', ['--no-install', 'piper-parallel', '--help'], { cwd: consumer, env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^piper-parallel: how many simultaneous Piper voice streams/);
    assert.match(help.stdout, /piper-parallel report ARCHIVE\.json/);
    const api = spawnSync(process.execPath, ['--input-type=module', '-e', "const m = await import('piper-parallel'); console.log([typeof m.runArms, typeof m.compareArchives, typeof m.renderMarkdown, typeof m.renderHtml, typeof m.ArchiveSchema.parse].join(' '))"], { cwd: consumer, encoding: 'utf8', timeout: 60_000 });
    assert.equal(api.status, 0, api.stderr);
    assert.equal(api.stdout.trim(), 'function function function function function');
    assert.ok(existsSync(path.join(consumer, 'node_modules', 'piper-parallel', 'dist', 'lib', 'index.d.ts')));
    // Types resolve through the exports map: a wrong field type must fail to compile, a right one pass.
    const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const check = (body: string): ReturnType<typeof spawnSync> => {
      writeFileSync(path.join(consumer, 'check.ts'), `import { runArms, type Archive } from 'piper-parallel';\n${body}\nvoid runArms;\n`);
      return spawnSync(process.execPath, [tsc, '--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', 'check.ts'], { cwd: consumer, encoding: 'utf8', timeout: 120_000 });
    };
    assert.equal(check('export const held = (a: Archive): boolean => a.controle_tenu;').status, 0);
    const wrong = check('export const held = (a: Archive): string => a.controle_tenu;');
    assert.notEqual(wrong.status, 0);
    assert.match(String(wrong.stdout), /Type 'boolean' is not assignable to type 'string'/);

    // One tiny arm from a script: only measurements/ appears in the project; the voice goes to the user's cache.
    const before = new Set(readdirSync(consumer));
    writeFileSync(path.join(consumer, 'measure.mjs'), "import { runArms } from 'piper-parallel';\nconst r = await runArms({ passes: 1, warmup: 0, settleSeconds: 0, voices: ['synthetic-siwis-medium'], streams: [1], lines: ['Oui.'] });\nconsole.log(r.path, r.archive.bras[0].etat);\n");
    before.add('measure.mjs');
    const measured = spawnSync(process.execPath, ['measure.mjs'], { cwd: consumer, env: consumerEnv, encoding: 'utf8', timeout: 300_000 });
    assert.equal(measured.status, 0, measured.stderr);
    assert.match(measured.stdout, new RegExp(`^${path.join(consumer, 'measurements')}/piper-parallel-\\d{8}-\\d{6}\\.json done$`, 'm'));
    assert.deepEqual(readdirSync(consumer).filter((f) => !before.has(f)), ['measurements']);
    assert.deepEqual(readdirSync(path.join(consumerEnv.XDG_CACHE_HOME, 'piper-parallel', 'voices')), ['synthetic-v2']);
  });
});
