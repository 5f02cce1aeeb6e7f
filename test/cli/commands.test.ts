// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/** Each command parses its own flags: its own --help with two examples, and a flag of another command refused. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMMANDS } from '../../lib/cli/commands.js';
import { main } from '../../lib/cli/main.js';
import { exitCodeFor, type Io } from '../../lib/cli/run-command.js';
import { PiperParallelError } from '../../lib/core/errors.js';

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

describe('commands', () => {
  for (const c of COMMANDS) {
    const argv = c.name === 'run' ? ['--help'] : [c.name, '--help'];
    it(`${argv.join(' ')}: its usage, every one of its flags, two examples, the exit codes`, async () => {
      const r = await run(c.name === 'run' ? ['6', '--help'] : argv);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, new RegExp(`^piper-parallel ${c.name === 'run' ? '\\[run\\]' : c.name}: `));
      for (const flag of Object.keys(c.flags))
        assert.ok(r.out.includes(`--${flag}`), `${c.name} --help lacks --${flag}`);
      const examples = r.out.split('Examples:\n')[1]?.split('\n\n')[0]?.split('\n') ?? [];
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
      /^--streams does not apply to piper-parallel capacity; see piper-parallel capacity --help$/,
    ],
    [['compare', '--rounds', '3', 'a.json', 'b.json'], /^--rounds does not apply to piper-parallel compare/],
    [['report', '--voice', 'x', 'a.json'], /^--voice does not apply to piper-parallel report/],
    [['summary', '--tolerance', '5', 'm/'], /^--tolerance does not apply to piper-parallel summary/],
    [['6', '--arrivals', 'poisson'], /^--arrivals does not apply to the run; see piper-parallel --help$/],
    [['voices', '--base-url', 'http://127.0.0.1:9'], /^--base-url applies only to voices fetch/],
    [['schema', '--json'], /^--json does not apply to piper-parallel schema/],
    [['capcity'], /^unknown command "capcity"; the commands are run, capacity, compare, report, summary, voices/],
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
