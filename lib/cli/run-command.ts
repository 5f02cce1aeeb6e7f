import type { Archive } from '../archive/schema.js';
import { PiperParallelError } from '../errors.js';
import { colorEnabled, paintStatus, ProgressReporter } from '../report/progress.js';
import { armLine, headerLines } from '../report/table.js';
import { writeReports } from '../report/write.js';
import type { AffinityChoice, IsolationChoice } from '../run/conditions.js';
import { runArms, type RunArmsOptions } from '../run/run-arms.js';
import { parseChoice, parseList, parsePositive, parseWhole } from './parse.js';

export interface RunFlags {
  passes?: string;
  voice?: string[];
  streams?: string;
  threads?: string;
  affinity?: string;
  isolation?: string;
  warmup?: string;
  rounds?: string;
  seed?: string;
  precision?: string;
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
}

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Raw stderr for the live progress line (no newline added); absent: no live line. */
  errRaw?: (text: string) => void;
  /** Whether stdout / stderr are terminals (colour, live progress). */
  outTty?: boolean;
  errTty?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** The main job; returns the exit code. */
export async function runCommand(flags: RunFlags, command: string, io: Io, signal: AbortSignal, deps: Pick<RunArmsOptions, 'adapters'> = {}): Promise<number> {
  const passes = flags.passes === undefined ? undefined : parseWhole(flags.passes, 'passes', 1);
  const warmup = flags.warmup === undefined ? undefined : parseWhole(flags.warmup, '--warmup', 0);
  const rounds = flags.rounds === undefined ? undefined : parseWhole(flags.rounds, '--rounds', 1);
  const seed = flags.seed === undefined ? undefined : parseWhole(flags.seed, '--seed', 0);
  const precision = flags.precision === undefined ? undefined : parsePositive(flags.precision, '--precision', '5');
  const maxMinutes = flags['max-minutes'] === undefined ? undefined : parsePositive(flags['max-minutes'], '--max-minutes', '20');
  const settleSeconds = flags.settle === undefined ? undefined : parseWhole(flags.settle, '--settle', 0);
  const streams = flags.streams === undefined ? undefined : parseList(flags.streams, '--streams', 1);
  const threads = flags.threads === undefined ? undefined : parseList(flags.threads, '--threads', 1);
  const affinity = flags.affinity === undefined ? undefined : parseChoice<AffinityChoice>(flags.affinity, '--affinity', ['on', 'off', 'both']);
  const isolation = flags.isolation === undefined ? undefined : parseChoice<IsolationChoice>(flags.isolation, '--isolation', ['process', 'thread', 'both']);
  const barrierSeconds = flags['barrier-timeout'] === undefined ? undefined : parseWhole(flags['barrier-timeout'], '--barrier-timeout', 1);
  // Human output goes to stderr with --json so stdout carries only the archive.
  const toErr = flags.json === true;
  const paint = colorEnabled({ isTTY: toErr ? io.errTty : io.outTty }, io.env) ? paintStatus : (l: string) => l;
  const progress = flags.quiet ? undefined : io.errTty && io.errRaw ? new ProgressReporter({ tty: true, write: io.errRaw }) : new ProgressReporter({ tty: false, write: (t) => io.err(t.replace(/\n$/, '')) });
  const say = flags.quiet
    ? () => undefined
    : (line: string): void => {
        progress?.clear();
        (toErr ? io.err : io.out)(line);
      };
  const started = Date.now();
  let result;
  try {
    result = await runArms({
      passes,
      warmup,
      rounds,
      seed,
      precision,
      maxMinutes,
      settleSeconds,
      voices: flags.voice,
      streams,
      threads,
      affinity,
      isolation,
      textFile: flags['text-file'],
      outDir: flags['out-dir'],
      voicesDir: flags['voices-dir'],
      command,
      resume: flags.resume,
      adapters: deps.adapters,
      timeouts: barrierSeconds === undefined ? undefined : { barrierMs: barrierSeconds * 1000 },
      signal,
      onProgress: (e) => {
        if (e.kind === 'voices') {
          for (const v of e.voices) {
            say(v.synthetic ? `voice ${v.name}: SYNTHETIC stand-in${v.standsInFor ? ` for ${v.standsInFor} (not installed in --voices-dir)` : ''}` : `voice ${v.name}: real Piper voice`);
          }
        } else if (e.kind === 'start') {
          for (const l of headerLines(e.header)) say(l);
          const w = e.header.machine_detail.attente;
          if (w && w.attendu_s > 0) say(`waited ${w.attendu_s} s for the machine to settle (${w.calme ? 'calm' : 'still busy'}: 1-minute load ${w.vu.at(-1)?.charge_1min.toFixed(2)}, other programs ${((w.vu.at(-1)?.autre_cpu_coeurs ?? 0) * 100).toFixed(0)}% of a core)`);
        } else if (e.kind === 'arm-end') {
          say(paint(armLine(e.arm)));
        }
        progress?.handle(e);
      },
    });
  } finally {
    progress?.clear();
  }
  const a: Archive = result.archive;
  if (flags.json) io.out(JSON.stringify(a, null, 2));
  if (!flags.quiet) {
    for (const l of a.verdict.phrases) say(`verdict: ${l}`);
    for (const l of a.verdict.passage_a_l_echelle) say(`scaling: ${l}`);
    say(`rounds: ${a.arret.detail}`);
    say(a.controle_tenu ? 'controls: all held' : `controls: FAILED in ${a.bras.filter((b) => !b.controle_tenu).length} arm(s): nothing from this run may be published`);
    say(`wall time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  if (flags.quiet && !flags.json) io.out(result.path);
  else say(`archive: ${result.path}`);
  const code = a.controle_tenu ? 0 : 3;
  if (flags['no-report']) return code;
  try {
    const files = await writeReports(result.path, a);
    say(`reports: ${files.markdown} ${files.html}`);
  } catch (err) {
    // The archive is safe on disk; only the reports are missing, and they can be made again.
    io.err(`piper-parallel: the reports could not be written (${(err as Error).message}); the archive is kept: run piper-parallel report ${result.path}`);
    return 1;
  }
  return code;
}

export function exitCodeFor(err: unknown): number {
  if (err instanceof PiperParallelError) {
    if (err.code === 'USAGE') return 2;
    if (err.code === 'ABORTED') return 130;
  }
  return 1;
}
