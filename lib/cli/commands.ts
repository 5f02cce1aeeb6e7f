/** The commands: each names its own flags, usage and two examples, and runs on what it parsed. */
// Only types here, and flag tables: each command loads its own code when it runs, so `--help` and a
// usage error start in a tenth of a second instead of loading every experiment (190 modules).
import { PiperParallelError } from '../core/errors.js';
import type { CapacityFlags } from './commands/capacity-command.js';
import { pick, type FlagSpec } from './args/flags.js';
import type { Io } from './io/io.js';
import { parseChoice } from './args/parse.js';
import type { RunFlags } from './commands/run-command.js';
import type { RunArmsOptions } from '../throughput/run/run-arms.js';

export type Values = Record<string, string | boolean | string[] | undefined>;

/** What a command is handed: its parsed flags and arguments, the terminal, and what the run may inject. */
export interface CommandContext {
  values: Values;
  positionals: string[];
  io: Io;
  /** The command line as typed, for the archive. */
  line: string;
  adapters?: RunArmsOptions['adapters'];
  /** Aborted on SIGINT or SIGTERM. */
  signal: () => AbortSignal;
}

export interface Command {
  name: string;
  summary: string;
  usage: string[];
  flags: Record<string, FlagSpec>;
  examples: [string, string];
  run(ctx: CommandContext): Promise<number>;
}

const str = (v: Values, k: string): string | undefined => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
const bool = (v: Values, k: string): boolean => v[k] === true;
const list = (v: Values, k: string): string[] | undefined => (Array.isArray(v[k]) ? (v[k] as string[]) : undefined);

function noArguments(name: string, positionals: string[]): void {
  if (positionals.length > 0)
    throw new PiperParallelError(
      'USAGE',
      `${name} takes no argument, got "${positionals[0]}"; see piper-parallel ${name} --help`,
    );
}

const RUN_FLAGS = [
  'voice',
  'streams',
  'threads',
  'affinity',
  'isolation',
  'engine',
  'scope',
  'session',
  'settle',
  'warmup',
  'rounds',
  'seed',
  'label',
  'margin',
  'precision',
  'max-minutes',
  'text-file',
  'out-dir',
  'voices-dir',
  'barrier-timeout',
  'resume',
  'json',
  'quiet',
  'no-report',
  'force',
  'redact',
  'dry-run',
] as const;
const CAPACITY_FLAGS = [
  'voice',
  'text-file',
  'arrivals',
  'schedule',
  'first-audio-ms',
  'max-streams',
  'rounds',
  'sessions',
  'prebuffer-ms',
  'max-minutes',
  'seed',
  'label',
  'isolation',
  'layouts',
  'session',
  'server',
  'server-voice',
  'server-timeout-s',
  'text-rate',
  'settle',
  'out-dir',
  'voices-dir',
  'resume',
  'json',
  'quiet',
  'no-report',
  'redact',
  'dry-run',
] as const;

/** The voice commands' code, and the voice places the flags name. */
async function voiceCode(values: Values) {
  const [commands, { voicePlaces }] = await Promise.all([
    import('./commands/voice-commands.js'),
    import('../voice/places.js'),
  ]);
  return { ...commands, places: voicePlaces(str(values, 'voices-dir')) };
}

const run: Command = {
  name: 'run',
  summary: 'the throughput experiment: which layout gives the most speech per second (the default command)',
  usage: [
    'piper-parallel [N] [options]',
    'N (default 6): without --rounds, the run looks at its questions after 2N/3 rounds, then every N/3 ' +
      '(4, 6, 8, 10, 12 for 6), one timed pass per arm per round, and stops when they are answered, at the ' +
      'last look, or at --max-minutes (default 10, settling included); with --rounds R, N timed passes per ' +
      'arm in R rounds, fixed: nothing added, nothing stopped early',
  ],
  flags: pick(RUN_FLAGS, {
    force: 'run even an arm that will not fit in memory, or more than 8 threads per usable core',
  }),
  examples: [
    'piper-parallel 6 --max-minutes 20',
    'piper-parallel 12 --rounds 6 --voice synthetic-siwis-medium --streams 1,2 --threads 1',
  ],
  async run({ values, positionals, io, line, adapters, signal }) {
    const [passes, extra] = positionals;
    if (extra !== undefined)
      throw new PiperParallelError(
        'USAGE',
        `unexpected argument "${extra}"; the only positional is the number of passes`,
      );
    const { runCommand, runOptions } = await import('./commands/run-command.js');
    if (bool(values, 'dry-run'))
      return (await import('./commands/dry-run.js')).runDryRun(runOptions({ ...(values as RunFlags), passes }), io);
    return runCommand({ ...(values as RunFlags), passes }, line, io, signal(), { adapters });
  },
};

const capacity: Command = {
  name: 'capacity',
  summary: 'how many live listeners each layout serves before one hears a gap, and how soon the first word',
  usage: ['piper-parallel capacity [options]'],
  flags: pick(CAPACITY_FLAGS, {
    rounds:
      'rounds with a trial of each edge K and the next, fresh workers each (default 3; an answer needs 3 rounds to be published)',
    'max-minutes':
      "the run, calibration included, ends within M minutes: a later round's turn that would pass it is left out, said (default 7.5)",
    seed: 'seed of the order and of poisson arrivals (default drawn, printed, archived)',
    isolation: { value: 'process|thread', help: 'workers as processes (default) or worker threads' },
    sessions: 'retired: evidence is counted by trial; ask for more trials with --rounds (refused, saying so)',
  }),
  examples: [
    'piper-parallel capacity',
    'piper-parallel capacity --server tcp://127.0.0.1:10200 --voice synthetic-siwis-medium',
  ],
  async run({ values, positionals, io, line, signal }) {
    noArguments('capacity', positionals);
    const { capacityCommand, capacityOptions } = await import('./commands/capacity-command.js');
    if (bool(values, 'dry-run'))
      return (await import('./commands/dry-run.js')).capacityDryRun(capacityOptions(values as CapacityFlags), io);
    return capacityCommand(values as CapacityFlags, line, io, signal());
  },
};

const compare: Command = {
  name: 'compare',
  summary: 'two runs side by side: exit 4 on a regression, 2 when nothing could be compared',
  usage: ['piper-parallel compare A.json B.json [options]'],
  flags: pick(['tolerance', 'json', 'force']),
  examples: [
    'piper-parallel compare before.json after.json',
    'piper-parallel compare a.json b.json --tolerance 10 --json',
  ],
  run: async ({ values, positionals, io }) =>
    (await import('./commands/compare-command.js')).compareCommand(
      {
        files: positionals,
        tolerance: str(values, 'tolerance'),
        json: bool(values, 'json'),
        force: bool(values, 'force'),
      },
      io,
    ),
};

const report: Command = {
  name: 'report',
  summary: 'an archive (throughput or capacity) as Markdown or as a self-contained HTML page',
  usage: ['piper-parallel report ARCHIVE.json [options]'],
  flags: pick(['format', 'out']),
  examples: [
    'piper-parallel report measurements/piper-parallel-20261201-120000.json',
    'piper-parallel report run.json --format html --out report.html',
  ],
  run: async ({ values, positionals, io }) =>
    (await import('./commands/report-command.js')).reportCommand(
      { files: positionals, format: str(values, 'format'), out: str(values, 'out') },
      io,
    ),
};

const summary: Command = {
  name: 'summary',
  summary: 'throughput and capacity archives of many machines, one row per machine and voice',
  usage: ['piper-parallel summary FILES|DIRS... [options]'],
  flags: pick(['price', 'out', 'json', 'csv'], { out: 'write the HTML page to FILE.html and its Markdown beside it' }),
  examples: [
    'piper-parallel summary measurements/',
    'piper-parallel summary runs/ --price vm-small=0.02 --out summary.html',
  ],
  run: async ({ values, positionals, io }) =>
    (await import('./commands/summary-command.js')).summaryCommand(
      {
        paths: positionals,
        prices: list(values, 'price'),
        out: str(values, 'out'),
        json: bool(values, 'json'),
        csv: bool(values, 'csv'),
      },
      io,
    ),
};

const voices: Command = {
  name: 'voices',
  summary: 'list voices; `voices build` (re)builds the synthetic ones; `voices fetch NAME...` downloads real ones',
  usage: [
    'piper-parallel voices [list]',
    'piper-parallel voices build',
    'piper-parallel voices fetch NAME... [--base-url URL]',
  ],
  flags: pick(['voices-dir', 'base-url']),
  examples: ['piper-parallel voices', 'piper-parallel voices fetch fr_FR-siwis-medium --voices-dir voices'],
  async run({ values, positionals, io, signal }) {
    const { buildVoices, fetchCommand, listVoices, places } = await voiceCode(values);
    const [sub, ...names] = positionals;
    if (sub === 'fetch') return fetchCommand({ names, places, baseUrl: str(values, 'base-url'), signal: signal() }, io);
    if (str(values, 'base-url') !== undefined)
      throw new PiperParallelError(
        'USAGE',
        '--base-url applies only to voices fetch; e.g. piper-parallel voices fetch NAME --base-url URL',
      );
    if (sub === undefined || sub === 'list') return listVoices(places, io);
    if (sub === 'build') {
      if (names.length > 0)
        throw new PiperParallelError(
          'USAGE',
          `voices build takes no argument, got "${names[0]}"; it builds every synthetic voice: piper-parallel voices build`,
        );
      return buildVoices(places, io);
    }
    throw new PiperParallelError(
      'USAGE',
      `unknown voices command "${sub}"; use voices, voices build or voices fetch NAME`,
    );
  },
};

const phonemize: Command = {
  name: 'phonemize',
  summary: "a text's phonemes and Piper phoneme ids, one JSON line per sentence",
  usage: ['piper-parallel phonemize (--voice NAME | --espeak-voice CODE) TEXT'],
  flags: pick(['voice', 'espeak-voice', 'voices-dir'], { voice: 'the Piper voice whose phoneme map to use' }),
  examples: [
    'piper-parallel phonemize --espeak-voice fr "Bonjour."',
    'piper-parallel phonemize --voice synthetic-siwis-medium "Il fait -5 °C."',
  ],
  async run({ values, positionals, io }) {
    const { phonemizeCommand, places } = await voiceCode(values);
    return phonemizeCommand(
      {
        text: positionals.join(' ') || undefined,
        voice: list(values, 'voice')?.[0],
        espeakVoice: str(values, 'espeak-voice'),
        places,
      },
      io,
    );
  },
};

const synth: Command = {
  name: 'synth',
  summary: 'synthesize one text to a WAV file and say how fast it ran',
  usage: ['piper-parallel synth --voice NAME --out FILE.wav [options] TEXT'],
  flags: pick(['voice', 'threads', 'speaker', 'engine', 'out', 'voices-dir'], {
    voice: 'the voice to speak with',
    threads: { value: 'T', help: 'onnxruntime intra-op threads (default 1)' },
    engine: { value: 'onnxruntime|sherpa', help: 'onnxruntime (default) or sherpa' },
    out: 'the WAV file to write',
  }),
  examples: [
    'piper-parallel synth --voice synthetic-siwis-medium --out bonjour.wav "Bonjour."',
    'piper-parallel synth --voice fr_FR-siwis-medium --threads 2 --engine sherpa --out a.wav "Salut."',
  ],
  async run({ values, positionals, io }) {
    const { synthCommand, places } = await voiceCode(values);
    return synthCommand(
      {
        text: positionals.join(' ') || undefined,
        voice: list(values, 'voice')?.[0],
        threads: str(values, 'threads'),
        out: str(values, 'out'),
        speaker: str(values, 'speaker'),
        engine: str(values, 'engine'),
        places,
      },
      io,
    );
  },
};

const schema: Command = {
  name: 'schema',
  summary: "print the archives' JSON Schema (both kinds, or one)",
  usage: ['piper-parallel schema [throughput|capacity]'],
  flags: pick([]),
  examples: ['piper-parallel schema', 'piper-parallel schema capacity > capacity.schema.json'],
  async run({ positionals, io }) {
    const [which, extra] = positionals;
    if (extra !== undefined)
      throw new PiperParallelError(
        'USAGE',
        `schema takes at most one argument, got "${extra}"; see piper-parallel schema --help`,
      );
    const kind = which === undefined ? 'both' : parseChoice(which, 'schema', ['throughput', 'capacity'] as const);
    const [{ z }, { archiveJsonSchema, ArchiveSchema }, { CapacityArchiveSchema }] = await Promise.all([
      import('zod'),
      import('../throughput/schema.js'),
      import('../capacity/archive/schema.js'),
    ]);
    const both = (): unknown => z.toJSONSchema(z.union([ArchiveSchema, CapacityArchiveSchema]));
    io.out(
      JSON.stringify(
        kind === 'throughput'
          ? archiveJsonSchema()
          : kind === 'capacity'
            ? z.toJSONSchema(CapacityArchiveSchema)
            : both(),
        null,
        2,
      ),
    );
    return 0;
  },
};

export const COMMANDS: readonly Command[] = [run, capacity, compare, report, summary, voices, phonemize, synth, schema];

export function findCommand(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}
