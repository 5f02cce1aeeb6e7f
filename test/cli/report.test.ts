// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/* eslint-disable no-control-regex -- these tests look for ANSI colour codes */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { ArchiveSchema } from '../../lib/throughput/schema.js';
import { renderMarkdown } from '../../lib/throughput/report/markdown.js';
import { BIN, sharedVoicesDir, tempDir } from '../helpers/paths.js';

function cli(
  args: string[],
  cwd = tempDir('cwd'),
  env: NodeJS.ProcessEnv = {},
): { code: number | null; stdout: string; stderr: string } {
  const { FORCE_COLOR: _forced, ...inherited } = process.env;
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...inherited, NO_COLOR: '', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const out = tempDir('reports');
/** One stream, one pass: the reports and the progress are judged, not the figures. */
const quick = [
  '1',
  '--voice',
  'synthetic-siwis-medium',
  '--streams',
  '1',
  '--warmup',
  '0',
  '--settle',
  '0',
  '--text-file',
];
let textFile: string;
let archiveFile: string;

before(() => {
  textFile = path.join(out, 'text.txt');
  writeFileSync(textFile, 'Oui.\n');
});

describe('reports from the command line', () => {
  it('a run writes the archive, its Markdown and its HTML under one name, and progress as plain lines off a terminal', () => {
    const dir = path.join(out, 'run');
    const r = cli([...quick, textFile, '--out-dir', dir, '--voices-dir', sharedVoicesDir()]);
    assert.ok(r.code === 0 || r.code === 3, r.stderr);
    const files = readdirSync(dir)
      .filter((f) => !f.startsWith('.'))
      .sort();
    assert.equal(files.length, 3, files.join(' '));
    const base = files[0]?.replace(/\.[a-z]+$/, '');
    assert.deepEqual(files, [`${base}.html`, `${base}.json`, `${base}.md`]);
    archiveFile = path.join(dir, `${base}.json`);
    assert.match(r.stdout, new RegExp(`reports: .*${base}\\.md .*${base}\\.html`));
    assert.match(r.stderr, /^arm 1\/1 done; elapsed \d+ s, about 0 s left$/m);
    // Not a terminal: no colour, no live line.
    assert.doesNotMatch(r.stdout + r.stderr, /\x1b/);
    // FORCE_COLOR=1 colours a pipe too (the arm's status), and FORCE_COLOR=0 none; still no live line off a terminal.
    const forced = cli(
      [...quick, textFile, '--out-dir', dir, '--voices-dir', sharedVoicesDir(), '--no-report'],
      undefined,
      {
        FORCE_COLOR: '1',
      },
    );
    assert.match(forced.stdout, /\x1b\[(32mOK|31mFAILED)\x1b\[0m/);
    assert.doesNotMatch(forced.stderr, /\x1b\[2K/);
    const md = readFileSync(path.join(dir, `${base}.md`), 'utf8');
    assert.equal(md, renderMarkdown(ArchiveSchema.parse(JSON.parse(readFileSync(archiveFile, 'utf8')))));
    assert.match(readFileSync(path.join(dir, `${base}.html`), 'utf8'), /^<!doctype html>/);
  });

  it('--no-report writes the archive alone; --quiet prints only its path and no progress', () => {
    const dir = path.join(out, 'bare');
    const r = cli([...quick, textFile, '--out-dir', dir, '--voices-dir', sharedVoicesDir(), '--no-report', '--quiet']);
    assert.ok(r.code === 0 || r.code === 3, r.stderr);
    const files = readdirSync(dir).filter((f) => !f.startsWith('.'));
    assert.equal(files.length, 1);
    assert.equal(r.stdout.trim(), path.join(dir, files[0] ?? ''));
    assert.equal(r.stderr, '');
  });

  it('report prints Markdown, or writes HTML with --out', () => {
    const md = cli(['report', archiveFile]);
    assert.equal(md.code, 0, md.stderr);
    assert.equal(md.stdout, `${renderMarkdown(ArchiveSchema.parse(JSON.parse(readFileSync(archiveFile, 'utf8'))))}\n`);
    const target = path.join(out, 'r.html');
    const html = cli(['report', archiveFile, '--format', 'html', '--out', target]);
    assert.equal(html.code, 0, html.stderr);
    assert.match(readFileSync(target, 'utf8'), /<figure data-chart="throughput-synthetic-siwis-medium"><svg/);
  });

  it('report refuses bad input in one line that names it', () => {
    const archiveBytes = readFileSync(archiveFile);
    const truncated = path.join(out, 'truncated.json');
    writeFileSync(truncated, readFileSync(archiveFile, 'utf8').slice(0, 100));
    const foreign = path.join(out, 'foreign.json');
    writeFileSync(foreign, JSON.stringify({ hello: 1 }));
    const older = path.join(out, 'older.json');
    writeFileSync(
      older,
      JSON.stringify({ ...(JSON.parse(readFileSync(archiveFile, 'utf8')) as object), schema_version: 1 }),
    );
    for (const [args, code, pattern] of [
      [['report', path.join(out, 'absent.json')], 2, /absent\.json cannot be read \(ENOENT\); check the path/],
      [['report', truncated], 2, /truncated\.json is not valid JSON .*truncated archive/],
      [
        ['report', foreign],
        2,
        /foreign\.json is not a piper-parallel archive this version reads \(its schema version is not one this version reads\); give a file from measurements\//,
      ],
      [
        ['report', older],
        2,
        /older\.json is a schema 1 archive .*; piper-parallel compare still reads it, report needs schema 2: run the measurement again/,
      ],
      [['report', archiveFile, '--format', 'pdf'], 2, /--format must be one of md, html, got "pdf"/],
      [['report'], 2, /report takes one archive, got 0/],
      // The archive itself as --out: refused, its bytes checked unchanged below.
      [
        ['report', archiveFile, '--out', archiveFile],
        2,
        /--out .*\.json is what this command reads, which --out never replaces/,
      ],
      [
        ['report', archiveFile, '--format', 'html', '--out', path.join(out, 'no', 'such', 'dir', 'r.html')],
        1,
        /--out .*r\.html cannot be written \(ENOENT\); choose a writable file/,
      ],
    ] as const) {
      const r = cli([...args]);
      assert.equal(r.code, code, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, pattern);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
    assert.ok(readFileSync(archiveFile).equals(archiveBytes), 'report --out replaced the archive it read');
  });

  // util-linux script gives the command a real terminal.
  it(
    'on a terminal: a live progress line redrawn in place, OK in colour, and no colour with NO_COLOR',
    { skip: existsSync('/usr/bin/script') ? false : 'no util-linux script' },
    () => {
      const command = [
        process.execPath,
        BIN,
        ...quick,
        textFile,
        '--out-dir',
        path.join(out, 'tty'),
        '--voices-dir',
        sharedVoicesDir(),
        '--no-report',
      ]
        .map((a) => `'${a}'`)
        .join(' ');
      // The terminal is named: Node's hasColors() reads TERM (unset or dumb: no colour) and CI variables, which a
      // CI job may or may not set; FORCE_COLOR would override what is tested here.
      const { CI: _ci, TMUX: _tmux, COLORTERM: _ct, TERM_PROGRAM: _tp, FORCE_COLOR: _fc, ...inherited } = process.env;
      const onTty = (env: NodeJS.ProcessEnv) =>
        spawnSync('script', ['-qec', command, '/dev/null'], {
          encoding: 'utf8',
          timeout: 300_000,
          env: { ...inherited, TERM: 'xterm-256color', ...env },
        });
      const colour = onTty({ NO_COLOR: '' });
      assert.ok(colour.status === 0 || colour.status === 3, colour.stdout);
      assert.ok(
        colour.stdout.includes('\r\x1b[2Karm 1/1, loading; elapsed 0 s, time left not known yet'),
        colour.stdout,
      );
      assert.match(colour.stdout, /\r\x1b\[2Karm 1\/1, pass 1\/1; elapsed \d+ s, about 0 s left/);
      // Whichever way the arm's controls went, its status is coloured: green OK with exit 0, red FAILED with exit 3.
      if (colour.status === 0) assert.ok(colour.stdout.includes('\x1b[32mOK\x1b[0m'), colour.stdout);
      else assert.ok(colour.stdout.includes('\x1b[31mFAILED\x1b[0m'), colour.stdout);
      const plain = onTty({ NO_COLOR: '1' });
      assert.ok(plain.status === 0 || plain.status === 3, plain.stdout);
      assert.ok(plain.stdout.includes('\x1b[2Karm 1/1'), 'the live line stays');
      assert.doesNotMatch(plain.stdout, /\x1b\[3[12]m/);
      // A dumb terminal (TERM=dumb) gets no colour, as Node reads it, and, unable to erase a line, plain progress lines.
      const dumb = onTty({ NO_COLOR: '', TERM: 'dumb' });
      assert.ok(dumb.status === 0 || dumb.status === 3, dumb.stdout);
      assert.doesNotMatch(dumb.stdout, /\x1b/);
      assert.match(dumb.stdout, /^arm 1\/1 done; elapsed \d+ s, about 0 s left\r?$/m);
    },
  );
});
