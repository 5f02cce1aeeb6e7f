// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/**
 * Every command, with a bad input of each kind (an unknown flag, a bad value, an extra or missing
 * argument, a missing or foreign file): one line on stderr, the exit code the README's table gives,
 * and no side effect: no output folder made, no voice built, nothing written in the working folder
 * or the cache. Each case runs in a folder of its own, with its own XDG_CACHE_HOME.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { BIN, ROOT, tempDir } from '../helpers/paths.js';

/** The README's exit-code table, as a map from code to the words of its row that this test depends on. */
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

interface Case {
  args: (w: Place) => string[];
  code: 1 | 2;
  message: RegExp;
}

interface Place {
  cwd: string;
  cache: string;
  out: string;
  archive: string;
  notArchive: string;
}

/** A working folder holding one tiny file that is no archive and one that is JSON but not an archive. */
function place(): Place {
  const cwd = tempDir('bad');
  const cache = path.join(cwd, '.cache');
  mkdirSync(cache);
  const notArchive = path.join(cwd, 'package.json');
  writeFileSync(notArchive, JSON.stringify({ name: 'x', version: '1.0.0' }));
  const archive = path.join(cwd, 'notes.txt');
  writeFileSync(archive, 'not json');
  return { cwd, cache, out: path.join(cwd, 'out'), archive, notArchive };
}

/** Every file and folder under `dir`, relative. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

function run(args: string[], w: Place): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: w.cwd,
      env: { ...process.env, XDG_CACHE_HOME: w.cache, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const USAGE = 2;
const BAD_FILE = 1;

const CASES: Record<string, Case[]> = {
  run: [
    { args: () => ['--bogus'], code: USAGE, message: /--bogus does not apply to the run/ },
    { args: () => ['--sesion', 'libpiper'], code: USAGE, message: /did you mean --session\?/ },
    { args: () => ['--streams', '0'], code: USAGE, message: /--streams must be a whole number >= 1, got "0"/ },
    { args: () => ['--affinity', 'maybe'], code: USAGE, message: /--affinity must be one of on, off, both/ },
    { args: () => ['2', '3'], code: USAGE, message: /unexpected argument "3"/ },
    { args: () => ['--voice'], code: USAGE, message: /--voice needs a value/ },
    { args: () => ['--max-minutes', '0'], code: USAGE, message: /--max-minutes must be/ },
    { args: (w) => ['--session', 'bogus', '--out-dir', w.out], code: USAGE, message: /--session must be one of/ },
    {
      args: (w) => ['--threads', '1000', '--out-dir', w.out],
      code: USAGE,
      message: /--threads 1000 is over 8 per usable core/,
    },
    { args: (w) => ['--dry-run', '--resume', w.archive], code: USAGE, message: /--dry-run plans a new run/ },
    { args: (w) => ['--text-file', 'absent.txt', '--out-dir', w.out], code: BAD_FILE, message: /absent\.txt/ },
    {
      args: (w) => ['--voice', 'xx_XX-absent-medium', '--out-dir', w.out],
      code: BAD_FILE,
      message: /voice "xx_XX-absent-medium" is not in .*piper-parallel voices fetch xx_XX-absent-medium/,
    },
  ],
  capacity: [
    { args: () => ['capacity', '6'], code: USAGE, message: /capacity takes no argument, got "6"/ },
    { args: () => ['capacity', '--layouts', 'all'], code: USAGE, message: /--layouts must be one of/ },
    {
      args: () => ['capacity', '--isolation', 'both'],
      code: USAGE,
      message: /--isolation must be one of process, thread/,
    },
    { args: () => ['capacity', '--sessions', 'piper-tts'], code: USAGE, message: /did you mean --session piper-tts\?/ },
    { args: (w) => ['capacity', '--server', 'ftp://x', '--out-dir', w.out], code: USAGE, message: /--server/ },
    { args: (w) => ['capacity', '--server-voice', 'v', '--out-dir', w.out], code: USAGE, message: /give --server/ },
    { args: (w) => ['capacity', '--text-rate', '40', '--out-dir', w.out], code: USAGE, message: /give --server/ },
    { args: (w) => ['capacity', '--session', 'bogus', '--out-dir', w.out], code: USAGE, message: /--session must be/ },
    { args: (w) => ['capacity', '--rounds', '0', '--out-dir', w.out], code: USAGE, message: /--rounds must be/ },
    {
      args: (w) => ['capacity', '--dry-run', '--resume', w.archive],
      code: USAGE,
      message: /--dry-run plans a new run/,
    },
    {
      args: (w) => ['capacity', '--text-file', 'absent.txt', '--out-dir', w.out],
      code: BAD_FILE,
      message: /absent\.txt/,
    },
    {
      args: (w) => ['capacity', '--voice', 'xx_XX-absent-medium', '--out-dir', w.out],
      code: BAD_FILE,
      message: /voice "xx_XX-absent-medium" is not in/,
    },
  ],
  compare: [
    { args: () => ['compare'], code: USAGE, message: /compare takes two archives, got 0/ },
    { args: (w) => ['compare', w.notArchive], code: USAGE, message: /compare takes two archives, got 1/ },
    { args: (w) => ['compare', 'absent.json', w.notArchive], code: USAGE, message: /absent\.json cannot be read/ },
    { args: (w) => ['compare', w.notArchive, w.notArchive], code: USAGE, message: /package\.json is not/ },
    { args: (w) => ['compare', w.notArchive, w.notArchive, '--tolerance', '-1'], code: USAGE, message: /--tolerance/ },
  ],
  report: [
    { args: () => ['report'], code: USAGE, message: /report takes one archive, got 0/ },
    { args: () => ['report', 'absent.json'], code: USAGE, message: /absent\.json cannot be read \(ENOENT\)/ },
    { args: (w) => ['report', w.archive], code: USAGE, message: /notes\.txt is not valid JSON/ },
    {
      args: (w) => ['report', w.notArchive, '--format', 'pdf'],
      code: USAGE,
      message: /--format must be one of md, html/,
    },
  ],
  summary: [
    { args: () => ['summary'], code: USAGE, message: /summary takes archives or folders of them, got none/ },
    { args: () => ['summary', 'absent'], code: USAGE, message: /absent/ },
    { args: (w) => ['summary', w.cwd, '--json', '--csv'], code: USAGE, message: /--json and --csv/ },
    { args: (w) => ['summary', w.cwd, '--out', 'x.txt'], code: USAGE, message: /--out must name an \.html file/ },
  ],
  voices: [
    { args: () => ['voices', 'bogus'], code: USAGE, message: /unknown voices command "bogus"/ },
    { args: () => ['voices', 'build', 'extra'], code: USAGE, message: /voices build takes no argument, got "extra"/ },
    { args: () => ['voices', '--base-url', 'http://127.0.0.1:9'], code: USAGE, message: /--base-url applies only/ },
  ],
  phonemize: [
    { args: () => ['phonemize', '--espeak-voice', 'fr'], code: USAGE, message: /text/ },
    { args: () => ['phonemize', '--voice', 'xx_XX-absent-medium', 'Bonjour.'], code: BAD_FILE, message: /not in/ },
  ],
  synth: [
    { args: () => ['synth', 'Bonjour.'], code: USAGE, message: /--voice/ },
    { args: () => ['synth', '--voice', 'synthetic-siwis-medium', 'Bonjour.'], code: USAGE, message: /--out/ },
    {
      args: () => ['synth', '--threads', '1,2', '--voice', 'synthetic-siwis-medium', '--out', 'a.wav', 'x'],
      code: USAGE,
      message: /--threads/,
    },
    {
      args: () => ['synth', '--engine', 'both', '--voice', 'synthetic-siwis-medium', '--out', 'a.wav', 'x'],
      code: USAGE,
      message: /--engine/,
    },
  ],
  schema: [
    { args: () => ['schema', 'bogus'], code: USAGE, message: /schema must be one of throughput, capacity/ },
    { args: () => ['schema', 'capacity', 'extra'], code: USAGE, message: /schema takes at most one argument/ },
  ],
  '(none)': [{ args: () => ['capcity'], code: USAGE, message: /unknown command "capcity"; did you mean capacity\?/ }],
};

describe("bad input, every command: one line, the README's exit code, no side effect", () => {
  it("the README's table gives 1 to a bad text file or voice and 2 to a usage error or an archive that cannot be read", () => {
    assert.match(README, /^\| 1 \| [^\n]*text file[^\n]*voice/m);
    assert.match(README, /^\| 2 \| [^\n]*usage error[^\n]*archive[^\n]*cannot be read/m);
  });

  for (const [command, cases] of Object.entries(CASES))
    it(`${command}: ${cases.length} bad inputs`, async () => {
      // Two at a time: each is a process start and a refusal, well under a second.
      const failures: string[] = [];
      for (let i = 0; i < cases.length; i += 2)
        await Promise.all(
          cases.slice(i, i + 2).map(async (c) => {
            const w = place();
            const before = tree(w.cwd);
            const args = c.args(w);
            const r = await run(args, w);
            const lines = r.stderr.trim().split('\n');
            const said = `${args.join(' ')} -> ${r.code}: ${r.stderr.trim()}`;
            if (r.code !== c.code) failures.push(`exit ${r.code}, not ${c.code}: ${said}`);
            if (!c.message.test(r.stderr)) failures.push(`message not ${c.message}: ${said}`);
            if (lines.length !== 1 || lines[0] === '') failures.push(`${lines.length} lines: ${said}`);
            if (r.stdout !== '') failures.push(`stdout not empty: ${said}: ${r.stdout.slice(0, 200)}`);
            const after = tree(w.cwd);
            if (after.join('\n') !== before.join('\n'))
              failures.push(`wrote ${after.filter((f) => !before.includes(f)).join(', ')}: ${said}`);
          }),
        );
      assert.deepEqual(failures, []);
    });

  it('the side-effect check sees a folder made and a voice built', async () => {
    // Not a bad input: a dry run of a new voice folder would pass, so use a command that writes, `voices build`.
    const w = place();
    const before = tree(w.cwd);
    const r = await run(['voices', 'build', '--voices-dir', path.join(w.cwd, 'v')], w);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(tree(w.cwd).length > before.length);
  });
});
