import type { Archive } from '../../throughput/schema.js';
import type { Io } from '../io/io.js';
import { colorEnabled, paintStatus, ProgressReporter } from '../../throughput/report/progress.js';
import { armLine, decisionBlock, headerLines } from '../../throughput/report/table.js';
import { writeReports } from '../../throughput/report/write.js';
import type { AffinityChoice, EngineChoice, IsolationChoice, Scope } from '../../throughput/arm/conditions.js';
import { runArms, type Progress, type RunArmsOptions } from '../../throughput/run/run-arms.js';
import { parseChoice, parseList, parsePositive, parseWhole, settleSeconds, textFile } from '../args/parse.js';
import { NOT_PUBLISHABLE } from '../../report/words.js';

export interface RunFlags {
  passes?: string;
  voice?: string[];
  streams?: string;
  threads?: string;
  affinity?: string;
  isolation?: string;
  engine?: string;
  scope?: string;
  session?: string;
  warmup?: string;
  rounds?: string;
  seed?: string;
  precision?: string;
  margin?: string;
  label?: string;
  'max-minutes'?: string;
  settle?: string;
  'text-file'?: string;
  'out-dir'?: string;
  'voices-dir'?: string;
  json?: boolean;
  quiet?: boolean;
  resume?: string;
  'barrier-timeout'?: string;
  'no-report'?: boolean;
  force?: boolean;
  redact?: boolean;
}

/** The run's options from the command line's flags, each checked with a message that names it. */
export function runOptions(flags: RunFlags): RunArmsOptions {
  const barrierSeconds =
    flags['barrier-timeout'] === undefined ? undefined : parseWhole(flags['barrier-timeout'], '--barrier-timeout', 1);
  return {
    passes: flags.passes === undefined ? undefined : parseWhole(flags.passes, 'passes', 1),
    warmup: flags.warmup === undefined ? undefined : parseWhole(flags.warmup, '--warmup', 0),
    rounds: flags.rounds === undefined ? undefined : parseWhole(flags.rounds, '--rounds', 1),
    seed: flags.seed === undefined ? undefined : parseWhole(flags.seed, '--seed', 0),
    margin: flags.margin === undefined ? undefined : parsePositive(flags.margin, '--margin', '6'),
    precision: flags.precision === undefined ? undefined : parsePositive(flags.precision, '--precision', '5'),
    maxMinutes:
      flags['max-minutes'] === undefined ? undefined : parsePositive(flags['max-minutes'], '--max-minutes', '20'),
    settleSeconds: settleSeconds(flags.settle),
    streams: flags.streams === undefined ? undefined : parseList(flags.streams, '--streams', 1),
    threads: flags.threads === undefined ? undefined : parseList(flags.threads, '--threads', 1),
    affinity:
      flags.affinity === undefined
        ? undefined
        : parseChoice<AffinityChoice>(flags.affinity, '--affinity', ['on', 'off', 'both']),
    isolation:
      flags.isolation === undefined
        ? undefined
        : parseChoice<IsolationChoice>(flags.isolation, '--isolation', ['process', 'thread', 'both']),
    engine:
      flags.engine === undefined
        ? undefined
        : parseChoice<EngineChoice>(flags.engine, '--engine', ['onnxruntime', 'sherpa', 'both']),
    scope: flags.scope === undefined ? undefined : parseChoice<Scope>(flags.scope, '--scope', ['model', 'text']),
    session: flags.session,
    label: flags.label,
    voices: flags.voice,
    textFile: textFile(flags['text-file'], flags.resume),
    outDir: flags['out-dir'],
    voicesDir: flags['voices-dir'],
    resume: flags.resume,
    force: flags.force === true,
    redact: flags.redact === true,
    timeouts: barrierSeconds === undefined ? undefined : { barrierMs: barrierSeconds * 1000 },
  };
}

/** What the terminal shows while the run goes: the voices, the header, each arm's line at the end, and live progress. */
function progressPrinter(
  say: (line: string) => void,
  paint: (line: string) => string,
  progress: ProgressReporter | undefined,
): (e: Progress) => void {
  return (e) => {
    if (e.kind === 'voices') {
      for (const v of e.voices) {
        const where = v.dir ? ` (${v.from}: ${v.dir})` : '';
        say(
          v.synthetic
            ? `voice ${v.name}: SYNTHETIC stand-in${v.standsInFor ? ` for ${v.standsInFor}, which is not installed` : ''}${where}`
            : `voice ${v.name}: real Piper voice${where}`,
        );
      }
    } else if (e.kind === 'start') {
      for (const l of headerLines(e.header)) say(l);
      const w = e.header.machine_detail.attente;
      if (w && w.attendu_s > 0)
        say(
          `waited ${w.attendu_s} s for the machine to settle (${w.calme ? 'calm' : 'still busy'}: 1-minute ` +
            `load ${w.vu.at(-1)?.charge_1min.toFixed(2)}, other programs ${((w.vu.at(-1)?.autre_cpu_coeurs ?? 0) * 100).toFixed(0)}% of a core)`,
        );
    } else if (e.kind === 'arm-end') {
      say(paint(armLine(e.arm)));
    } else if (e.kind === 'look') {
      say(lookLine(e));
    }
    progress?.handle(e);
  };
}

/** What a look settled: the questions still open by name, and why the run stops if it does. */
export function lookLine(e: Extract<Progress, { kind: 'look' }>): string {
  const where = e.look > 0 ? `look ${e.look}/${e.looks} after round ${e.round}` : `after round ${e.round}`;
  if (e.open.length === 0) return `${where}: stopping${e.stop ? `, ${e.stop}` : ''}`;
  return `${where}: open: ${e.open.join('; ')}${e.stop ? `; stopping: ${e.stop}` : ''}`;
}

/** The verdict and the closing lines, then the reports beside the archive; returns the exit code. */
async function publish(
  { archive: a, path: file }: { archive: Archive; path: string },
  flags: RunFlags,
  io: Io,
  { say, startedMs }: { say: (line: string) => void; startedMs: number },
): Promise<number> {
  if (flags.json) io.out(JSON.stringify(a, null, 2));
  if (!flags.quiet) {
    for (const l of a.verdict.passage_a_l_echelle) say(`scaling: ${l}`);
    say(`rounds: ${a.arret.detail}`);
    say(
      a.controle_tenu
        ? 'controls: all held'
        : `controls: FAILED in ${a.bras.filter((b) => !b.controle_tenu).length} arm(s): ${NOT_PUBLISHABLE}`,
    );
    if (a.machine_detail.avertissement_chaleur) say(a.machine_detail.avertissement_chaleur);
    for (const l of decisionBlock(a)) say(l);
    say(`wall time: ${((Date.now() - startedMs) / 1000).toFixed(1)} s`);
  }
  if (flags.quiet && !flags.json) io.out(file);
  else say(`archive: ${file}`);
  const code = a.controle_tenu ? 0 : 3;
  if (flags['no-report']) return code;
  try {
    const files = await writeReports(file, a);
    say(`reports: ${files.markdown} ${files.html}`);
  } catch (err) {
    // The archive is safe on disk; only the reports are missing, and they can be made again.
    io.err(
      `piper-parallel: the reports could not be written (${(err as Error).message}); the archive is kept: run piper-parallel report ${file}`,
    );
    return 1;
  }
  return code;
}

/** The main job; returns the exit code. */
export async function runCommand(
  flags: RunFlags,
  command: string,
  io: Io,
  signal: AbortSignal,
  deps: Pick<RunArmsOptions, 'adapters'> = {},
): Promise<number> {
  const options = runOptions(flags);
  // Human output goes to stderr with --json so stdout carries only the archive.
  const toErr = flags.json === true;
  const colour =
    (toErr ? io.errColour : io.outColour) ?? colorEnabled({ isTTY: toErr ? io.errTty : io.outTty }, io.env);
  const paint = colour ? paintStatus : (l: string) => l;
  const progress = flags.quiet
    ? undefined
    : io.errTty && io.errRaw
      ? new ProgressReporter({ tty: true, write: io.errRaw })
      : new ProgressReporter({ tty: false, write: (t) => io.err(t.replace(/\n$/, '')) });
  const say = flags.quiet
    ? () => undefined
    : (line: string): void => {
        progress?.clear();
        (toErr ? io.err : io.out)(line);
      };
  const startedMs = Date.now();
  let result;
  try {
    result = await runArms({
      ...options,
      command,
      adapters: deps.adapters,
      signal,
      onProgress: progressPrinter(say, paint, progress),
    });
  } finally {
    progress?.clear();
  }
  return publish(result, flags, io, { say, startedMs });
}
