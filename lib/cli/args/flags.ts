/** Every flag the command line knows, defined once; each command picks the ones that apply to it. */

export interface FlagSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** The value's placeholder in the help (`--rounds R`). */
  value?: string;
  help: string;
  /** Still refused with a word of why, but no longer offered by the help or the completion. */
  retired?: true;
}

const text = (value: string, help: string): FlagSpec => ({ type: 'string', value, help });
const flag = (help: string): FlagSpec => ({ type: 'boolean', help });

export const FLAGS = {
  voice: {
    type: 'string',
    multiple: true,
    value: 'NAME',
    help: 'voice to measure (repeatable); default fr_FR-siwis-medium and fr_FR-tom-medium when installed, else their synthetic stand-ins',
  },
  'espeak-voice': text('CODE', 'an espeak-ng voice code instead of a Piper voice, e.g. fr or en-us'),
  streams: text(
    'LIST',
    'simultaneous streams K, e.g. 1,2 (default conditions without --streams/--threads/--affinity: K=1; K=2 free; K=2 pinned; K=1 T=2)',
  ),
  threads: text('LIST', 'onnxruntime intra-op threads per stream, e.g. 1,2'),
  affinity: text('on|off|both', 'one core per stream (util-linux taskset), or free'),
  isolation: text(
    'process|thread|both',
    'streams as child processes (default), as worker threads of one process (shared-memory barrier), or both',
  ),
  layouts: text(
    'LIST',
    'capacity layouts, comma-separated: stream (one process per listener), stream-pinned (the same, pinned to cores), ' +
      'threads (1 process x C threads), pool (C one-thread processes); default stream,threads,pool',
  ),
  engine: text(
    'onnxruntime|sherpa|both',
    'who runs the voice: onnxruntime-node (default), sherpa-onnx (processes only), or both side by side',
  ),
  scope: text(
    'model|text',
    'what a timed pass covers: phoneme ids to audio (model; default with onnxruntime alone) or text ' +
      'to audio, phonemizing included (text; the default with sherpa)',
  ),
  session: text(
    'piper-tts|libpiper',
    "whose onnxruntime session settings: piper-tts (default: Python Piper's, as the piper CLI, its HTTP server and " +
      "wyoming-piper run) or libpiper (Piper's C++ library's)",
  ),
  arrivals: text(
    'together|staggered|poisson',
    'when listeners arrive (default staggered: spread evenly over one mean sentence; poisson is seeded)',
  ),
  schedule: text('fifo|deadline', "the queue's order (default deadline: the sentence due soonest first)"),
  'first-audio-ms': text('MS', 'the bound of the second answer: first audio p95 within it (default 500)'),
  'max-streams': text('N', "the sweep's ceiling (default: half again above each voice's calibrated speed, at most 96)"),
  warmup: text(
    'N',
    "untimed warm-up passes each time an arm's streams start, in every round (default 2): every sentence, the longest first",
  ),
  rounds: text(
    'R',
    "a fixed run: split each arm's N passes into R rounds, each running every arm once; no look, no early stop (default: the sequential run)",
  ),
  sessions: { ...text('N', 'retired: evidence is counted by trial (refused, saying so)'), retired: true },
  server: text(
    'URL',
    "a running server to measure: tcp://HOST:PORT (Wyoming, e.g. wyoming-piper) or http://HOST:PORT (Piper's HTTP server); with --voice, that local voice's layouts run beside it",
  ),
  'server-voice': text(
    'NAME',
    "the server's voice to measure, sent with every request (Wyoming voice.name, Piper HTTP's voice; default: the server's own default voice)",
  ),
  'text-rate': text(
    'CPS',
    "a streaming Wyoming server: each listener's reply written at CPS characters a second, as a language model would (default: all at once)",
  ),
  'server-timeout-s': text(
    'S',
    "a server's connection, info or next audio event not come within S seconds fails the trial (default 30)",
  ),
  'prebuffer-ms': text(
    'MS,MS',
    "the player's pre-buffers each answer is replayed at, from the same trials (default 0,250,500)",
  ),
  seed: text(
    'N',
    "seed of the rounds' order (default drawn at random, printed and archived; give it to repeat a run's order)",
  ),
  margin: text('PCT', 'two layouts within ±PCT% of each other are called equivalent (default 6)'),
  label: text('NAME', 'a name for this machine in summaries (archived)'),
  precision: {
    ...text('PCT', 'retired: a run without --rounds stops when its questions are answered (refused, saying so)'),
    retired: true,
  },
  'max-minutes': text(
    'M',
    'the time budget in minutes, settling included (a sequential run: default 10; capacity: default 7.5)',
  ),
  settle: text(
    'SECONDS',
    'wait up to this long for a busy machine to calm down (default 30; PIPER_PARALLEL_SETTLE sets it too)',
  ),
  resume: text('FILE', 'carry on an interrupted run (measurements/.partial/<run>.jsonl)'),
  'barrier-timeout': text('S', 'seconds to wait for every stream at a barrier (default 120)'),
  'text-file': text(
    'FILE',
    'one sentence per line (UTF-8, at most 1 MB); default built-in French sentences (PIPER_PARALLEL_TEXT_FILE sets it too)',
  ),
  'out-dir': text('DIR', 'where archives and reports go (default ./measurements)'),
  'voices-dir': text(
    'DIR',
    'the only place voices are read from and built into (default ./voices when it holds real voices, else ~/.cache/piper-parallel/voices)',
  ),
  out: text('FILE', 'write to this file instead of stdout'),
  speaker: text('ID|NAME', 'the speaker of a multi-speaker voice (default 0)'),
  'base-url': text('URL', 'a mirror of the piper-voices layout (or PIPER_VOICES_BASE_URL)'),
  tolerance: text('PCT', 'a change within ±PCT% is no regression (default 5)'),
  price: {
    type: 'string',
    multiple: true,
    value: 'LABEL=AMOUNT|AMOUNT',
    help: "a machine's price per hour (repeatable; a bare AMOUNT for every machine): cost per live stream-hour and per hour of speech",
  },
  format: text('md|html', 'Markdown (default) or a self-contained HTML page with charts'),
  force: flag('compare runs from different machines or workloads anyway'),
  redact: flag("leave the host name and the command line's folders out of the archive (to publish it)"),
  json: flag('print JSON on stdout, everything else on stderr'),
  csv: flag('print the machine table as CSV on stdout (RFC 4180), for a spreadsheet or a script'),
  quiet: flag('print only the archive path (or the JSON); no progress'),
  'no-report': flag('do not write the Markdown and HTML reports beside the archive'),
  'dry-run': flag('check every option, print the plan and how long it may take; measure and write nothing'),
  help: { type: 'boolean', short: 'h', help: "this command's help" },
} as const satisfies Record<string, FlagSpec>;

export type FlagName = keyof typeof FLAGS;

/**
 * The flags a command takes, each with its own help where the shared one does not fit, and its own placeholder where
 * it takes fewer values (the help and the completion offer only what the command accepts).
 */
export function pick(
  names: readonly FlagName[],
  overrides: Partial<Record<FlagName, string | { value: string; help: string }>> = {},
): Record<string, FlagSpec> {
  const out: Record<string, FlagSpec> = {};
  for (const n of [...names, 'help' as const]) {
    const o = overrides[n];
    out[n] = { ...FLAGS[n], ...(typeof o === 'string' ? { help: o } : (o ?? {})) };
  }
  return out;
}
