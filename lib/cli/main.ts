/** The command line's work: parse, validate, call the library, print; returns the exit code. */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ArchiveSchema, archiveJsonSchema } from '../throughput/schema.js';
import { CapacityArchiveSchema } from '../capacity/archive/schema.js';
import { parseChoice } from './parse.js';
import { PiperParallelError } from '../core/errors.js';
import type { RunArmsOptions } from '../throughput/run/run-arms.js';
import { TOOL_VERSION } from '../core/version.js';
import { voicePlaces } from '../voice/places.js';
import { capacityCommand } from './capacity-command.js';
import { compareCommand } from './compare-command.js';
import { summaryCommand } from './summary-command.js';
import { HELP } from './help.js';
import { reportCommand } from './report-command.js';
import { exitCodeFor, runCommand, type Io } from './run-command.js';
import { buildVoices, fetchCommand, listVoices, phonemizeCommand, synthCommand } from './voice-commands.js';

/** The terminal the command writes to. */
export function processIo(): Io {
  return {
    out: (t) => process.stdout.write(`${t}\n`),
    err: (t) => process.stderr.write(`${t}\n`),
    errRaw: (t) => process.stderr.write(t),
    outTty: process.stdout.isTTY === true,
    errTty: process.stderr.isTTY === true,
    env: process.env,
  };
}

/** What a run may be given besides its flags: the fault suite injects its own adapters here. */
export type RunDeps = Pick<RunArmsOptions, 'adapters'>;

/** The arguments, checked: a negative count or an unknown option is a one-line usage error. */
function parseCommandLine(argv: string[]) {
  // A negative count would otherwise read as an unknown short option.
  const at = argv.findIndex((a) => /^-\d/.test(a));
  if (at >= 0) {
    const option = at > 0 && argv[at - 1]?.startsWith('--') ? argv[at - 1] : 'passes';
    throw new PiperParallelError('USAGE', `${option} must not be negative, got "${argv[at]}"; see piper-parallel --help`);
  }
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        voice: { type: 'string', multiple: true },
        'espeak-voice': { type: 'string' },
        streams: { type: 'string' },
        threads: { type: 'string' },
        affinity: { type: 'string' },
        isolation: { type: 'string' },
        engine: { type: 'string' },
        arrivals: { type: 'string' },
        schedule: { type: 'string' },
        'first-audio-ms': { type: 'string' },
        'max-streams': { type: 'string' },
        scope: { type: 'string' },
        warmup: { type: 'string' },
        rounds: { type: 'string' },
        sessions: { type: 'string' },
        seed: { type: 'string' },
        margin: { type: 'string' },
        label: { type: 'string' },
        precision: { type: 'string' },
        'max-minutes': { type: 'string' },
        settle: { type: 'string' },
        resume: { type: 'string' },
        'barrier-timeout': { type: 'string' },
        'text-file': { type: 'string' },
        'out-dir': { type: 'string' },
        'voices-dir': { type: 'string' },
        out: { type: 'string' },
        speaker: { type: 'string' },
        'base-url': { type: 'string' },
        tolerance: { type: 'string' },
        price: { type: 'string', multiple: true },
        force: { type: 'boolean' },
        json: { type: 'boolean' },
        quiet: { type: 'boolean' },
        'no-report': { type: 'boolean' },
        format: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    });
  } catch (err) {
    throw new PiperParallelError('USAGE', `${(err as Error).message.split('\n')[0]}; see piper-parallel --help`);
  }
}

export async function main(argv: string[], io: Io = processIo(), deps: RunDeps = {}): Promise<number> {
  const { values: v, positionals } = parseCommandLine(argv);
  if (v.help) {
    io.out(HELP);
    return 0;
  }
  if (v.version) {
    io.out(TOOL_VERSION);
    return 0;
  }
  const places = voicePlaces(v['voices-dir']);
  const [first, ...rest] = positionals;
  switch (first) {
    case 'voices': {
      const [sub, ...names] = rest;
      if (sub === undefined || sub === 'list') return listVoices(places, io);
      if (sub === 'build') return buildVoices(places, io);
      if (sub === 'fetch') return fetchCommand(names, places, v['base-url'], io);
      throw new PiperParallelError('USAGE', `unknown voices command "${sub}"; use voices, voices build or voices fetch NAME`);
    }
    case 'phonemize':
      return phonemizeCommand(rest.join(' ') || undefined, v.voice?.[0], v['espeak-voice'], places, io);
    case 'synth':
      return synthCommand(rest.join(' ') || undefined, v.voice?.[0], v.threads, v.out, places, io, v.speaker, v.engine);
    case 'compare':
      return compareCommand(rest, v.tolerance, v.json ?? false, v.force ?? false, io);
    case 'summary':
      return summaryCommand(rest, v.price, v.out, v.json ?? false, io);
    case 'report':
      return reportCommand(rest, v.format, v.out, io);
    case 'schema': {
      // Both kinds of archive by default; `schema throughput` or `schema capacity` for one.
      const kind = rest[0] === undefined ? 'both' : parseChoice(rest[0], 'schema', ['throughput', 'capacity'] as const);
      const schema = kind === 'throughput' ? archiveJsonSchema() : kind === 'capacity' ? z.toJSONSchema(CapacityArchiveSchema) : z.toJSONSchema(z.union([ArchiveSchema, CapacityArchiveSchema]));
      io.out(JSON.stringify(schema, null, 2));
      return 0;
    }
    case 'capacity': {
      if (rest.length > 0) throw new PiperParallelError('USAGE', `capacity takes no argument, got "${rest[0]}"; see piper-parallel --help`);
      const controller = new AbortController();
      const onSignal = (): void => controller.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      return capacityCommand(v, ['piper-parallel', ...argv].join(' '), io, controller.signal);
    }
    default: {
      if (rest.length > 0) throw new PiperParallelError('USAGE', `unexpected argument "${rest[0]}"; the only positional is the number of passes`);
      const controller = new AbortController();
      const onSignal = (): void => controller.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      const command = ['piper-parallel', ...argv].join(' ');
      return runCommand({ ...v, passes: first }, command, io, controller.signal, deps);
    }
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
      process.exitCode = exitCodeFor(err);
    },
  );
}
