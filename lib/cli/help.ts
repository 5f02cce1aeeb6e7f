/** The help: one page listing the commands, and one page per command with its flags and two examples. */
import type { Command } from './commands.js';
import type { FlagSpec } from './flags.js';

const WIDTH = 100;

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

const EXIT_CODES = [
  'Exit codes: 0 every control held (compare: no regression; summary: every file read); 1 error;',
  '2 usage error, refusal, or a file summary could not read; 3 a control failed (nothing from the run',
  'may be published); 4 compare found a regression; 130 interrupted by SIGINT, 143 by SIGTERM',
  '(finished rounds kept in measurements/.partial/).',
].join('\n');

export function commandHelp(c: Command): string {
  const flags = Object.entries(c.flags)
    .filter(([, s]) => !s.retired)
    .map(([n, s]) => flagLine(n, s));
  return [
    `piper-parallel ${c.name === 'run' ? '[run]' : c.name}: ${c.summary}`,
    '',
    'Usage:',
    ...c.usage.map((u) => `  ${u}`),
    '',
    'Options:',
    ...flags,
    '',
    'Examples:',
    ...c.examples.map((e) => `  ${e}`),
    '',
    EXIT_CODES,
    '',
  ].join('\n');
}

export function generalHelp(commands: readonly Command[]): string {
  const rows = commands.map(
    (c) => `  ${(c.name === 'run' ? '[run] [N]' : c.name).padEnd(16)}${fold(c.summary, 18, 18).join('\n')}`,
  );
  return [
    'piper-parallel: how many simultaneous Piper voice streams does this machine serve, and does the measurement prove it?',
    '',
    'Usage: piper-parallel [COMMAND] [options]',
    '',
    'Commands:',
    ...rows,
    '',
    "piper-parallel COMMAND --help     that command's options and two examples (also: piper-parallel help COMMAND)",
    "piper-parallel --version, -V      the tool's version",
    'piper-parallel completion bash    a completion script for bash (or zsh): source <(piper-parallel completion bash)',
    '',
    'Examples:',
    '  piper-parallel 6                 the default experiment (looks after 4, 6, 8, 10, 12 rounds; stops when answered)',
    '  piper-parallel capacity          how many live listeners per layout',
    '',
    EXIT_CODES,
    '',
  ].join('\n');
}
