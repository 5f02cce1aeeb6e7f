/** The command line's work: find the command, parse its own flags, run it; returns the exit code. */
import { closest } from './args/suggest.js';
import { parseArgs } from 'node:util';
import { PiperParallelError } from '../core/errors.js';
import { TOOL_VERSION } from '../core/version.js';
import type { RunArmsOptions } from '../throughput/run/run-arms.js';
import { COMMANDS, findCommand, type Command, type Values } from './commands.js';
import { commandHelp, generalHelp } from './help.js';
import { completionScript } from './completion.js';
import { exitCodeFor, type Io } from './io/io.js';
import { stripControl, stripControlKeepColour } from '../report/markdown.js';
import { colorEnabled } from '../throughput/report/progress.js';

/**
 * The terminal the command writes to. Every line goes through stripControl: server error text, archive strings and
 * file names reach it, and an escape sequence there could retitle the window or write the clipboard. Only the live
 * progress line (errRaw, the harness's own \r and erase) is written as it is.
 */
export function processIo(): Io {
  // On a colour terminal the tool's own four colour codes stay (paintStatus strips a line before painting it).
  const outColour = colorEnabled(process.stdout);
  const errColour = colorEnabled(process.stderr);
  const out = outColour ? stripControlKeepColour : stripControl;
  const err = errColour ? stripControlKeepColour : stripControl;
  return {
    outColour,
    errColour,
    out: (t) => process.stdout.write(`${out(t)}\n`),
    err: (t) => process.stderr.write(`${err(t)}\n`),
    errRaw: (t) => process.stderr.write(t),
    outTty: process.stdout.isTTY === true,
    // A dumb terminal (TERM=dumb: Emacs' shell, some CI logs) cannot erase a line: progress comes as plain lines there.
    errTty: process.stderr.isTTY === true && process.env.TERM !== 'dumb',
    env: process.env,
  };
}

/** What a run may be given besides its flags: the fault suite injects its own adapters here. */
export type RunDeps = Pick<RunArmsOptions, 'adapters'>;

/** A word that reads as a negative number ("-5", "-0.5 °C") is a value, never an option. */
const NEGATIVE = /^-\d|^-\.\d/;

/** `help` alone: the general page; `help COMMAND`: that command's. */
function helpCommand(args: string[], io: Io): number {
  const [name, extra] = args;
  if (name === undefined) {
    io.out(generalHelp(COMMANDS));
    return 0;
  }
  const command = extra === undefined ? findCommand(name) : undefined;
  if (!command)
    throw new PiperParallelError(
      'USAGE',
      `help takes one command name, got "${args.join(' ')}"; the commands are ${COMMANDS.map((c) => c.name).join(', ')}`,
    );
  io.out(commandHelp(command));
  return 0;
}

/** `completion bash` or `completion zsh`: the script, made from the commands' own flag tables. */
async function completionCommand(args: string[], io: Io): Promise<number> {
  const [shell, extra] = args;
  if ((shell !== 'bash' && shell !== 'zsh') || extra !== undefined)
    throw new PiperParallelError(
      'USAGE',
      `completion takes bash or zsh, got "${args.join(' ')}"; e.g. source <(piper-parallel completion bash)`,
    );
  // The stand-ins' names, and the real voices they stand in for (what `voices fetch` is usually given).
  const { SYNTHETIC_VOICES } = await import('../voice/synthetic/build.js');
  const voices = SYNTHETIC_VOICES.map((v) => v.name);
  io.out(completionScript(shell, COMMANDS, { voices, fetchable: SYNTHETIC_VOICES.map((v) => v.standsInFor) }));
  return 0;
}

/** The command named first, else the default run (no word, a flag, or a pass count first). */
function chooseCommand(argv: string[]): { command: Command; rest: string[] } {
  const [first, ...rest] = argv;
  const named = first === undefined ? undefined : findCommand(first);
  if (named) return { command: named, rest };
  const run = findCommand('run') as Command;
  if (first === undefined || first.startsWith('-') || /^\d/.test(first)) return { command: run, rest: argv };
  const names = COMMANDS.map((c) => c.name);
  const near = closest(first, names);
  throw new PiperParallelError(
    'USAGE',
    `unknown command "${first}"; ${near ? `did you mean ${near}? ` : ''}the commands are ${names.join(', ')}, ` +
      'or a number of passes (e.g. piper-parallel 6); see piper-parallel --help',
  );
}

/**
 * What parseArgs refused, in this tool's words: an unknown flag with the closest of the command's own ("did you
 * mean") or the command it belongs to; a flag left without its value named as such.
 */
function parseProblem(command: Command, message: string): string {
  const help = `piper-parallel ${command.name} --help`;
  const unknown = /^Unknown option '([^']+)'/.exec(message)?.[1];
  if (unknown) {
    const where = command.name === 'run' ? 'the run' : `piper-parallel ${command.name}`;
    const own = Object.entries(command.flags)
      .filter(([, s]) => !s.retired)
      .map(([n]) => `--${n}`);
    const near = closest(unknown, own);
    if (near) return `${unknown} does not apply to ${where}; did you mean ${near}? see ${help}`;
    const owner = COMMANDS.find((c) => c !== command && `--${unknown.replace(/^-+/, '')}` in prefixed(c.flags));
    if (owner)
      return `${unknown} does not apply to ${where}; it is piper-parallel ${owner.name}'s: see piper-parallel ${owner.name} --help`;
    return `${unknown} does not apply to ${where}; see ${help}`;
  }
  const missing = /^Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(message)?.[1];
  if (missing) return `${missing} needs a value; see ${help}`;
  return `${message.split('\n')[0]}; see ${help}`;
}

const prefixed = (flags: Command['flags']): Record<string, true> =>
  Object.fromEntries(
    Object.entries(flags)
      .filter(([, s]) => !s.retired)
      .map(([n]) => [`--${n}`, true]),
  );

/** The command's own flags; a flag that is not its own is a usage error naming both. */
function parseFor(command: Command, args: string[]): { values: Values; positionals: string[] } {
  // Negative-looking words are hidden from parseArgs, then handed back as they were.
  const hidden = new Map<string, string>();
  const masked = args.map((a, i) => (NEGATIVE.test(a) ? (hidden.set(`\u0000${i}`, a), `\u0000${i}`) : a));
  const back = (s: string): string => hidden.get(s) ?? s;
  let parsed;
  try {
    parsed = parseArgs({ args: masked, allowPositionals: true, strict: true, options: command.flags });
  } catch (err) {
    throw new PiperParallelError('USAGE', parseProblem(command, (err as Error).message));
  }
  const values: Values = {};
  for (const [k, v] of Object.entries(parsed.values))
    values[k] =
      typeof v === 'string'
        ? back(v)
        : Array.isArray(v)
          ? v.map((x) => (typeof x === 'string' ? back(x) : String(x)))
          : v;
  return { values, positionals: parsed.positionals.map(back) };
}

/** The signal that interrupted the command, for its exit code (128 + its number). */
let received: 'SIGINT' | 'SIGTERM' | undefined;

/** One AbortSignal for the command, aborted on SIGINT or SIGTERM; made only for commands that measure, removed after. */
function signalOnce(): { signal: () => AbortSignal; dispose: () => void } {
  let controller: AbortController | undefined;
  const onInt = (): void => {
    received = 'SIGINT';
    controller?.abort();
  };
  const onTerm = (): void => {
    received = 'SIGTERM';
    controller?.abort();
  };
  return {
    signal: () => {
      if (!controller) {
        controller = new AbortController();
        process.once('SIGINT', onInt);
        process.once('SIGTERM', onTerm);
      }
      return controller.signal;
    },
    dispose: () => {
      process.removeListener('SIGINT', onInt);
      process.removeListener('SIGTERM', onTerm);
    },
  };
}

export async function main(argv: string[], io: Io = processIo(), deps: RunDeps = {}): Promise<number> {
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
    io.out(generalHelp(COMMANDS));
    return 0;
  }
  // --version wherever it is typed ("piper-parallel capacity --version"); -V alone, as a value may look like it.
  if (argv.includes('--version') || (argv.length === 1 && argv[0] === '-V')) {
    io.out(TOOL_VERSION);
    return 0;
  }
  if (argv[0] === 'help') return helpCommand(argv.slice(1), io);
  if (argv[0] === 'completion') return completionCommand(argv.slice(1), io);
  const { command, rest } = chooseCommand(argv);
  const { values, positionals } = parseFor(command, rest);
  if (values.help === true) {
    io.out(commandHelp(command));
    return 0;
  }
  const line = ['piper-parallel', ...argv].join(' ');
  const signals = signalOnce();
  try {
    return await command.run({ values, positionals, io, line, adapters: deps.adapters, signal: signals.signal });
  } finally {
    signals.dispose();
  }
}

/** Run the command line and set the exit code; every error is one line on stderr. */
export function runMain(argv: string[], deps: RunDeps = {}): void {
  const io = processIo();
  main(argv, io, deps).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      io.err(`piper-parallel: ${message}`);
      process.exitCode = exitCodeFor(err, received);
    },
  );
}
