// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/** Each command parses its own flags: its own --help with two examples, and a flag of another command refused. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers/paths.js';
import tty_ from 'node:tty';
import { describe, it } from 'node:test';
import { COMMANDS } from '../../lib/cli/commands.js';
import { main } from '../../lib/cli/main.js';
import { TOOL_VERSION } from '../../lib/core/version.js';
import { exitCodeFor, type Io } from '../../lib/cli/io/io.js';
import { PiperParallelError } from '../../lib/core/errors.js';
import { colorEnabled } from '../../lib/throughput/report/progress.js';

/** main() in this process, its output kept, a thrown error turned into its exit code as the bin does. */
async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = { out: (t) => void (out += `${t}\n`), err: (t) => void (err += `${t}\n`) };
  try {
    return { code: await main(argv, io), out, err };
  } catch (e) {
    return { code: exitCodeFor(e), out, err: `${err}${(e as Error).message}\n` };
  }
}

/** The names bash's completion function offers for these words, typed in `cwd`. */
function completer(script: string, cwd: string): (words: string[]) => string[] {
  return (words) => {
    const r = spawnSync(
      'bash',
      [
        '-c',
        `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _piper_parallel; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ],
      { cwd, encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.split('\n').filter(Boolean);
  };
}

describe('what the parser refuses, in words', () => {
  it("an unknown flag: the closest of the command's own, or the command it belongs to; a flag without its value", async () => {
    for (const [argv, message] of [
      [
        ['capacity', '--sesion', 'piper-tts'],
        /^--sesion does not apply to piper-parallel capacity; did you mean --session\? see piper-parallel capacity --help$/,
      ],
      [['capacity', '--roundz', '3'], /did you mean --rounds\?/],
      [
        ['--server', 'tcp://127.0.0.1:10200'],
        /^--server does not apply to the run; it is piper-parallel capacity's: see piper-parallel capacity --help$/,
      ],
      [
        ['capacity', '--bogus'],
        /^--bogus does not apply to piper-parallel capacity; see piper-parallel capacity --help$/,
      ],
      [['--voice'], /^--voice needs a value; see piper-parallel run --help$/],
      [['voices', 'build', 'extra'], /^voices build takes no argument, got "extra"/],
      [
        ['capacity', '--sessions', 'piper-tts'],
        /^--sessions piper-tts: did you mean --session piper-tts\? \(--sessions was retired/,
      ],
    ] as const) {
      const r = await run([...argv]);
      assert.equal(r.code, 2, `${argv.join(' ')}: ${r.err}`);
      assert.match(r.err.trim(), message);
    }
  });
});

describe('--version', () => {
  it('is heard wherever it is typed, not taken for a typo', async () => {
    for (const argv of [['--version'], ['-V'], ['capacity', '--version'], ['6', '--voice', 'x', '--version']]) {
      const r = await run(argv);
      assert.deepEqual([r.code, r.out.trim()], [0, TOOL_VERSION], argv.join(' '));
    }
  });
});

describe('refused before anything is made', () => {
  it('a --server URL it cannot speak creates no out-dir; a summary of nothing prints no empty table', async () => {
    const outDir = path.join(tempDir('refused-early'), 'never');
    const r = await run(['capacity', '--server', 'ftp://127.0.0.1:21', '--out-dir', outDir]);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /--server speaks tcp:\/\/ \(Wyoming\) or http:\/\//);
    assert.equal(existsSync(outDir), false, 'the out-dir was made for a run that was refused');
    const s = await run(['summary', path.join(outDir, 'nothing')]);
    assert.equal(s.code, 2);
    assert.equal(s.out, '');
    assert.match(s.err, /cannot be read \(no such file or folder\)/);
  });
});

describe('commands', () => {
  for (const c of COMMANDS) {
    const argv = c.name === 'run' ? ['--help'] : [c.name, '--help'];
    it(`${argv.join(' ')}: its usage, every one of its flags, two examples, the exit codes`, async () => {
      const r = await run(c.name === 'run' ? ['6', '--help'] : argv);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, new RegExp(`^piper-parallel ${c.name === 'run' ? '\\[run\\]' : c.name}: `));
      // A retired flag is still refused with a word of why, but not offered.
      for (const [flag, spec] of Object.entries(c.flags))
        assert.equal(
          new RegExp(`--${flag}\\b`).test(r.out),
          spec.retired !== true,
          `${c.name} --help ${spec.retired ? 'offers the retired' : 'lacks'} --${flag}`,
        );
      // A long example goes on over a backslash and an indent: one command still.
      const examples = (r.out.split('Examples:\n')[1]?.split('\n\n')[0] ?? '').replace(/ \\\n {6}/g, ' ').split('\n');
      assert.equal(examples.length, 2, r.out);
      for (const e of examples) assert.match(e, /^ {2}piper-parallel /);
      assert.match(r.out, /Exit codes: 0 /);
    });
  }

  it('piper-parallel --help lists every command', async () => {
    const r = await run(['--help']);
    assert.equal(r.code, 0);
    for (const c of COMMANDS) assert.match(r.out, new RegExp(`^ {2}${c.name === 'run' ? '\\[run\\]' : c.name} `, 'm'));
  });

  for (const [argv, pattern] of [
    [
      ['capacity', '--streams', '4'],
      /^--streams does not apply to piper-parallel capacity; it is piper-parallel run's: see piper-parallel run --help$/,
    ],
    [['compare', '--rounds', '3', 'a.json', 'b.json'], /^--rounds does not apply to piper-parallel compare/],
    [['report', '--voice', 'x', 'a.json'], /^--voice does not apply to piper-parallel report/],
    [['summary', '--tolerance', '5', 'm/'], /^--tolerance does not apply to piper-parallel summary/],
    [
      ['6', '--arrivals', 'poisson'],
      /^--arrivals does not apply to the run; it is piper-parallel capacity's: see piper-parallel capacity --help$/,
    ],
    [['voices', '--base-url', 'http://127.0.0.1:9'], /^--base-url applies only to voices fetch/],
    [['schema', '--json'], /^--json does not apply to piper-parallel schema/],
    [
      ['capcity'],
      /^unknown command "capcity"; did you mean capacity\? the commands are run, capacity, compare, report, summary, voices/,
    ],
    [['capacity', 'now'], /^capacity takes no argument, got "now"/],
  ] as const) {
    it(`refused: ${argv.join(' ')} -> exit 2, one line naming the flag and the command`, async () => {
      const r = await run([...argv]);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err.trim(), pattern);
      assert.equal(r.err.trim().split('\n').length, 1);
    });
  }

  it('a word that reads as a negative number is a value, never an option: text, or a count refused by name', async () => {
    const r = await run(['phonemize', '--espeak-voice', 'fr', '-5 °C']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /"phoneme_ids":\[1,0,/);
    const count = await run(['capacity', '--rounds', '-2']);
    assert.equal(count.code, 2);
    assert.match(count.err, /--rounds must be a whole number >= 1, got "-2"/);
  });

  it('an interrupted command exits 128 + the signal: 130 for SIGINT, 143 for SIGTERM', () => {
    const aborted = new PiperParallelError('ABORTED', 'interrupted');
    assert.deepEqual(
      [exitCodeFor(aborted, 'SIGINT'), exitCodeFor(aborted, 'SIGTERM'), exitCodeFor(aborted)],
      [130, 143, 130],
    );
    assert.equal(exitCodeFor(new PiperParallelError('USAGE', 'x'), 'SIGTERM'), 2);
    assert.equal(exitCodeFor(new Error('x')), 1);
  });
});

describe('the conventions of a Node command line', () => {
  it('-V and --version print the version; help and help COMMAND print the pages --help does; a wrong one is one line', async () => {
    const v = await run(['-V']);
    assert.deepEqual([v.code, v.out], [0, (await run(['--version'])).out]);
    assert.match(v.out, /^\d+\.\d+\.\d+/);
    assert.equal((await run(['help'])).out, (await run(['--help'])).out);
    assert.equal((await run(['help', 'capacity'])).out, (await run(['capacity', '--help'])).out);
    const bad = await run(['help', 'nope']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /^help takes one command name, got "nope"; the commands are run, /);
  });

  it("completion bash completes commands, each command's own flags and a flag's choices, from the flag table", async () => {
    const script = (await run(['completion', 'bash'])).out;
    const complete = completer(script, tempDir('complete'));
    assert.deepEqual(complete(['piper-parallel', 'cap']), ['capacity']);
    assert.deepEqual(complete(['piper-parallel', 'capacity', '--ses']).sort(), ['--session']);
    assert.deepEqual(complete(['piper-parallel', '6', '--session', '']), ['piper-tts', 'libpiper']);
    // Each command's own values: synth's --engine has no "both", the run's has.
    assert.deepEqual(complete(['piper-parallel', 'synth', '--engine', '']), ['onnxruntime', 'sherpa']);
    assert.deepEqual(complete(['piper-parallel', '--engine', '']), ['onnxruntime', 'sherpa', 'both']);
    assert.deepEqual(complete(['piper-parallel', 'capacity', '--isolation', '']), ['process', 'thread']);
    // A flag of another command is not offered: --server is capacity's, not the run's.
    assert.deepEqual(complete(['piper-parallel', '--serv']), []);
    // A value the user types (a number) is offered nothing, not the flags.
    assert.deepEqual(complete(['piper-parallel', 'capacity', '--rounds', '']), []);
    assert.match((await run(['completion', 'zsh'])).out, /^autoload -U \+X bashcompinit && bashcompinit\n/);
    const bad = await run(['completion', 'fish']);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /^completion takes bash or zsh, got "fish"/);
  });

  it('completion also completes npx piper-parallel, file and folder names, voice names and subcommands', async () => {
    const cwd = tempDir('complete-files');
    mkdirSync(path.join(cwd, 'measurements'));
    mkdirSync(path.join(cwd, 'voices'));
    mkdirSync(path.join(cwd, 'other'));
    for (const f of ['a b.json', 'x.json', 'voices/fr_FR-mine-low.onnx', 'other/en_US-else-medium.onnx'])
      writeFileSync(path.join(cwd, f), '');
    const complete = completer((await run(['completion', 'bash'])).out, cwd);
    const sorted = (words: string[]): string[] => complete(words).sort();
    assert.deepEqual(complete(['npx', 'piper-parallel', 'cap']), ['capacity']);
    assert.deepEqual(complete(['npx', '-y', 'piper-parallel', 'capacity', '--ses']), ['--session']);
    assert.deepEqual(complete(['npx', 'piper-pa']), ['piper-parallel']);
    // Another package's words are the shell's to complete, not ours.
    assert.deepEqual(complete(['npx', 'cowsay', '--ses']), []);
    // Files where a file is expected, a name with a space kept whole; folders only where a folder is.
    assert.deepEqual(sorted(['piper-parallel', 'report', '']), [
      'a b.json',
      'measurements',
      'other',
      'voices',
      'x.json',
    ]);
    assert.deepEqual(complete(['npx', 'piper-parallel', 'compare', 'x.json', 'a']), ['a b.json']);
    assert.deepEqual(complete(['piper-parallel', 'capacity', '--text-file', 'a']), ['a b.json']);
    assert.deepEqual(sorted(['piper-parallel', '6', '--out-dir', '']), ['measurements', 'other', 'voices']);
    // Voice names: the stand-ins, and the voices folder's own (--voices-dir's when given).
    assert.deepEqual(sorted(['piper-parallel', 'capacity', '--voice', '']), [
      'fr_FR-mine-low',
      'synthetic-siwis-medium',
      'synthetic-tom-medium',
    ]);
    assert.deepEqual(complete(['piper-parallel', '--voices-dir', 'other', '--voice', 'en']), ['en_US-else-medium']);
    // Each command's words.
    assert.deepEqual(complete(['piper-parallel', 'voices', '']), ['list', 'build', 'fetch']);
    assert.deepEqual(complete(['piper-parallel', 'voices', 'fetch', 'fr_FR-s']), ['fr_FR-siwis-medium']);
    assert.deepEqual(complete(['piper-parallel', 'voices', 'build', '']), []);
    assert.deepEqual(complete(['piper-parallel', 'schema', '']), ['throughput', 'capacity']);
    assert.deepEqual(complete(['piper-parallel', 'completion', '']), ['bash', 'zsh']);
    assert.deepEqual(complete(['piper-parallel', 'help', 'sy']), ['synth']);
  });

  it('colour as Node decides it: FORCE_COLOR first, then the terminal (NO_COLOR, TERM=dumb), never a pipe', () => {
    const tty = { isTTY: true, hasColors: (env?: object) => !('NO_COLOR' in (env ?? {})) };
    assert.equal(colorEnabled(tty, {}), true);
    assert.equal(colorEnabled(tty, { NO_COLOR: '1' }), false);
    assert.equal(colorEnabled({ isTTY: false }, {}), false);
    assert.equal(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1' }), true);
    assert.equal(colorEnabled(tty, { FORCE_COLOR: '0' }), false);
    assert.equal(colorEnabled({ isTTY: true }, { TERM: 'dumb' }), false);
    // Node's own hasColors (a terminal stream's) reads the same variables.
    const proto = tty_.WriteStream.prototype;
    const real = {
      isTTY: true,
      hasColors: (env?: object) => proto.hasColors.call(proto, 16, env as NodeJS.ProcessEnv),
    };
    assert.equal(colorEnabled(real, { NO_COLOR: '1' }), false);
    assert.equal(colorEnabled(real, { TERM: 'dumb' }), false);
    assert.equal(colorEnabled(real, { TERM: 'xterm-256color' }), true);
    assert.equal(colorEnabled(real, { TERM: 'xterm-256color', NO_COLOR: '' }), true);
  });
});
