// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/** Bad input: a one-line error naming the option or file and the fix, a non-zero exit, nothing measured. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../helpers/paths.js';
import { archives, assertClean, baseArgs, partialArms, runCli, workspace } from './harness.js';

async function refused(
  args: (w: ReturnType<typeof workspace>) => string[],
  code: number,
  message: RegExp,
): Promise<void> {
  const w = workspace();
  const r = await runCli(args(w));
  assert.equal(r.code, code, r.stderr);
  assert.match(r.stderr, message);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  // Refused before measuring: no archive, no partial.
  assert.deepEqual(archives(w), []);
  assert.deepEqual(partialArms(w), []);
  assertClean(w, r);
}

describe('bad input is refused before anything is measured', () => {
  for (const [passes, pattern] of [
    ['0', /passes must be a whole number >= 1, got "0"/],
    ['-1', /passes must be a whole number >= 1, got "-1"/],
    ['1.5', /passes must be a whole number >= 1, got "1.5"/],
    ['abc', /unknown command "abc"; the commands are run, capacity/],
  ] as const) {
    it(`passes ${passes} -> exit 2`, () => refused((w) => [passes, '--out-dir', w.out], 2, pattern));
  }

  it('--streams 0 and --threads 0 -> exit 2', async () => {
    await refused((w) => [...baseArgs(w), '--streams', '0'], 2, /--streams must be a whole number >= 1, got "0"/);
    await refused((w) => [...baseArgs(w), '--threads', '0'], 2, /--threads must be a whole number >= 1, got "0"/);
  });

  it('an unknown option -> exit 2', () =>
    refused(
      (w) => [...baseArgs(w), '--passes', '3'],
      2,
      /--passes does not apply to the run; see piper-parallel run --help/,
    ));

  it('a malformed .onnx.json names the key -> exit 1', async () => {
    const voices = tempDir('badcfg');
    writeFileSync(path.join(voices, 'odd-medium.onnx'), 'x');
    writeFileSync(path.join(voices, 'odd-medium.onnx.json'), JSON.stringify({ audio: { sample_rate: 'fast' } }));
    await refused(
      (w) => ['1', '--settle', '0', '--voice', 'odd-medium', '--voices-dir', voices, '--out-dir', w.out],
      1,
      /odd-medium\.onnx\.json: key audio\.sample_rate: .*fix the file or fetch the voice again/,
    );
  });

  it('a missing voice lists the installed ones and the fetch command -> exit 1', () =>
    refused(
      (w) => ['1', '--settle', '0', '--voice', 'fr_FR-siwis-medium', '--voices-dir', w.voices, '--out-dir', w.out],
      1,
      /voice "fr_FR-siwis-medium" is not in .* \(installed: [^)]*\); run `piper-parallel voices fetch fr_FR-siwis-medium`/,
    ));

  it('an unwritable output folder is found before measuring -> exit 1', async () => {
    const dir = tempDir('unwritable');
    const file = path.join(dir, 'a-file');
    writeFileSync(file, 'x');
    await refused(
      (w) => [...baseArgs(w), '--out-dir', path.join(file, 'measurements')],
      1,
      /--out-dir .*a-file\/measurements is not writable .*choose a writable folder/,
    );
  });

  it('text files: missing, empty, not UTF-8, enormous, and a line that phonemizes to nothing -> exit 1', async () => {
    const dir = tempDir('texts');
    const empty = path.join(dir, 'empty.txt');
    writeFileSync(empty, '\n  \n');
    const latin1 = path.join(dir, 'latin1.txt');
    writeFileSync(latin1, Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x0a]));
    const huge = path.join(dir, 'huge.txt');
    writeFileSync(huge, 'Bonjour.\n'.repeat(200_000));
    const nothing = path.join(dir, 'nothing.txt');
    writeFileSync(nothing, 'Bonjour.\n...\n');
    const withText = (t: string) => (w: ReturnType<typeof workspace>) => [
      '1',
      '--settle',
      '0',
      '--voice',
      'synthetic-siwis-medium',
      '--voices-dir',
      w.voices,
      '--out-dir',
      w.out,
      '--text-file',
      t,
    ];
    await refused(
      withText(path.join(dir, 'absent.txt')),
      1,
      /--text-file .*absent\.txt cannot be read \(ENOENT\); check the path/,
    );
    await refused(withText(empty), 1, /--text-file .*empty\.txt has no sentence; put one sentence per line/);
    await refused(withText(latin1), 1, /--text-file .*latin1\.txt is not valid UTF-8; convert it/);
    await refused(withText(huge), 1, /--text-file .*huge\.txt is over the 1000000-byte limit/);
    // Files whose size stat cannot tell: a device that never ends, a FIFO that no one writes.
    await refused(withText('/dev/zero'), 1, /--text-file \/dev\/zero is a device or socket, not a file/);
    const fifo = path.join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    await refused(withText(fifo), 1, /--text-file .*fifo is a FIFO, not a file/);
    await refused(
      withText(nothing),
      1,
      /line 2 of the text \("\.\.\."\) phonemizes to nothing for synthetic-siwis-medium; remove it or write it out in words/,
    );
  });
});
