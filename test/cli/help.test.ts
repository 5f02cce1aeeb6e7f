// light test file: pure functions only.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { COMMANDS } from '../../lib/cli/commands.js';
import { HELP_WIDTH, commandHelp, generalHelp } from '../../lib/cli/help.js';
import { ROOT } from '../helpers/paths.js';

const pages = [generalHelp(COMMANDS), ...COMMANDS.map(commandHelp)];

test('every help page fits a terminal of 80 columns; a long example goes on with a backslash', () => {
  assert.equal(HELP_WIDTH, 80);
  for (const page of pages)
    for (const line of page.split('\n')) assert.ok(line.length <= HELP_WIDTH, `${line.length}: ${line}`);
  const synth = commandHelp(COMMANDS.find((c) => c.name === 'synth') ?? COMMANDS[0]!);
  assert.match(synth, / \\\n {6}\S/);
});

/** Every source file of lib/ but the help's own. */
const libText = (readdirSync(path.join(ROOT, 'lib'), { recursive: true, encoding: 'utf8' }) as string[])
  .filter((f) => f.endsWith('.ts') && f !== path.join('cli', 'help.ts'))
  .map((f) => readFileSync(path.join(ROOT, 'lib', f), 'utf8'))
  .join('\n');

test('every help page names the variables the tool reads, and the code reads each one it names', () => {
  for (const page of pages) {
    const named = [...(page.split('Environment:\n')[1] ?? '').matchAll(/^ {2}([A-Z_]+) /gm)].map((m) => m[1] ?? '');
    for (const name of [
      'NO_COLOR',
      'FORCE_COLOR',
      'PIPER_PARALLEL_TEXT_FILE',
      'PIPER_PARALLEL_SETTLE',
      'XDG_CACHE_HOME',
    ])
      assert.ok(named.includes(name), `${name} missing from a help page`);
    for (const name of named) assert.ok(libText.includes(name), `${name} is named but read nowhere in lib/`);
  }
});
