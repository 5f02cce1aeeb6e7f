/** The help: one page listing the commands, and one page per command with its flags and two examples. */
import type { Command } from './commands.js';
import type { FlagSpec } from './args/flags.js';

/** A terminal's width: every line of every help page fits (test/cli/help.test.ts). */
export const HELP_WIDTH = 80;
const WIDTH = HELP_WIDTH;

/** Words folded to the width, every line after the first indented. */
function fold(words: string, indent: number, first: number): string[] {
  const lines: string[] = [];
  let line = '';
  let room = WIDTH - first;
  for (const w of words.split(' ')) {
    if (line !== '' && line.length + 1 + w.length > room) {
      lines.push(line);
      line = w;
      room = WIDTH - indent;
    } else line = line === '' ? w : `${line} ${w}`;
  }
  lines.push(line);
  return lines.map((l, i) => (i === 0 ? l : `${' '.repeat(indent)}${l}`));
}

function flagLine(name: string, spec: FlagSpec): string {
  const head = `  ${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.value ? ` ${spec.value}` : ''}`;
  const pad = Math.max(head.length + 2, 28);
  return `${head.padEnd(pad)}${fold(spec.help, pad, pad).join('\n')}`;
}

const EXIT_CODES = fold(
  'Exit codes: 0 every control held (compare: no regression; summary: every file read); 1 error; ' +
    '2 usage error, refusal, or a file summary could not read; 3 a control failed (nothing from the run ' +
    'may be published); 4 compare found a regression; 130 interrupted by SIGINT, 143 by SIGTERM ' +
    '(finished rounds kept in measurements/.partial/).',
  0,
  0,
).join('\n');

/** The variables the tool reads, each with what it changes. */
const ENVIRONMENT: ReadonlyArray<[string, string]> = [
  ['NO_COLOR', 'set and not empty: no colour on the terminal'],
  ['FORCE_COLOR', 'colour even when the output is not a terminal; 0 or false: none'],
  ['PIPER_PARALLEL_TEXT_FILE', 'the text file when --text-file is not given'],
  ['PIPER_PARALLEL_SETTLE', 'seconds to wait for the machine to settle when --settle is not given'],
  ['PIPER_VOICES_BASE_URL', 'the piper-voices mirror voices fetch downloads from (--base-url)'],
  ['XDG_CACHE_HOME', 'where synthetic voices and sherpa copies are kept (default ~/.cache)'],
];

const environmentLines = (): string[] => [
  'Environment:',
  ...ENVIRONMENT.map(([name, what]) => `  ${name.padEnd(26)}${fold(what, 28, 28).join('\n')}`),
];

/** A label and its words, the words folded under a column. */
const row = (label: string, words: string, at: number): string =>
  `${label.padEnd(at)}${fold(words, at, at).join('\n')}`;

/** A command line too long for the width, continued with a backslash: it still pastes into a shell as it is. */
function commandLines(command: string): string[] {
  const lines: string[] = [];
  let rest = command;
  let indent = 2;
  while (indent + rest.length > WIDTH) {
    const cut = rest.lastIndexOf(' ', WIDTH - indent - 2);
    if (cut <= 0) break;
    lines.push(`${' '.repeat(indent)}${rest.slice(0, cut)} \\`);
    rest = rest.slice(cut + 1);
    indent = 6;
  }
  return [...lines, `${' '.repeat(indent)}${rest}`];
}

export function commandHelp(c: Command): string {
  const flags = Object.entries(c.flags)
    .filter(([, s]) => !s.retired)
    .map(([n, s]) => flagLine(n, s));
  return [
    ...fold(`piper-parallel ${c.name === 'run' ? '[run]' : c.name}: ${c.summary}`, 2, 0),
    '',
    'Usage:',
    ...c.usage.flatMap((u) => fold(u, 4, 2).map((l, i) => (i === 0 ? `  ${l}` : l))),
    '',
    'Options:',
    ...flags,
    '',
    'Examples:',
    ...c.examples.flatMap(commandLines),
    '',
    EXIT_CODES,
    '',
    ...environmentLines(),
    '',
  ].join('\n');
}

export function generalHelp(commands: readonly Command[]): string {
  const rows = commands.map(
    (c) => `  ${(c.name === 'run' ? '[run] [N]' : c.name).padEnd(16)}${fold(c.summary, 18, 18).join('\n')}`,
  );
  return [
    ...fold(
      'piper-parallel: how many simultaneous Piper voice streams does this machine serve, and does the measurement prove it?',
      0,
      0,
    ),
    '',
    'Usage: piper-parallel [COMMAND] [options]',
    '',
    'Commands:',
    ...rows,
    '',
    row(
      'piper-parallel COMMAND --help',
      "that command's options and two examples (also: piper-parallel help COMMAND)",
      34,
    ),
    row('piper-parallel --version, -V', "the tool's version", 34),
    row(
      'piper-parallel completion bash',
      'a completion script for bash (or zsh): source <(piper-parallel completion bash)',
      34,
    ),
    '',
    'Examples:',
    row('  piper-parallel 6', 'the default experiment (looks after 4, 6, 8, 10, 12 rounds; stops when answered)', 34),
    row('  piper-parallel capacity', 'how many live listeners per layout', 34),
    '',
    EXIT_CODES,
    '',
    ...environmentLines(),
    '',
  ].join('\n');
}
