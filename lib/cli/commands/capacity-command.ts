/** `piper-parallel capacity`: how many live streams each layout serves before a gap; prints, archives, reports. */
import path from 'node:path';
import { PiperParallelError } from '../../core/errors.js';
import { CapacityLiveLine } from './capacity-live.js';
import { SESSION_PROFILES, sessionLine } from '../../voice/session-profile.js';
import { writeExclusive } from '../../archive/writer.js';
import type { ArrivalPattern } from '../../capacity/trial/arrivals.js';
import {
  DEFAULT_LAYOUT_CHOICES,
  LAYOUT_CHOICES,
  layoutsNamed,
  type LayoutChoice,
} from '../../capacity/trial/layouts.js';
import type { QueuePolicy } from '../../capacity/trial/queue.js';
import { capacityHtml, capacityMarkdown } from '../../capacity/report/render.js';
import { runCapacity, type CapacityOptions, type CapacityProgress } from '../../capacity/run/run-capacity.js';
import type { CapacityArchive, TrialRecord } from '../../capacity/archive/schema.js';
import { formatDuration } from '../../throughput/report/progress.js';
import { allowedCores } from '../../measure/clock.js';
import { parseChoice, parseList, parsePositive, parseWhole, settleSeconds, textFile } from '../args/parse.js';
import type { Io } from '../io/io.js';
import { SERVER_VOICE } from '../../capacity/setup/server.js';
import { NOT_PUBLISHABLE } from '../../report/words.js';

/** --sessions was retired; a profile name after it is --session mistyped, said so rather than "not a number". */
function retiredSessions(value: string): number {
  if ((SESSION_PROFILES as readonly string[]).includes(value))
    throw new PiperParallelError(
      'USAGE',
      `--sessions ${value}: did you mean --session ${value}? (--sessions was retired: evidence is counted by trial)`,
    );
  return parseWhole(value, '--sessions', 1);
}

export interface CapacityFlags {
  voice?: string[];
  'text-file'?: string;
  arrivals?: string;
  schedule?: string;
  'first-audio-ms'?: string;
  'max-streams'?: string;
  rounds?: string;
  sessions?: string;
  'prebuffer-ms'?: string;
  'max-minutes'?: string;
  seed?: string;
  label?: string;
  session?: string;
  isolation?: string;
  layouts?: string;
  server?: string;
  'server-voice'?: string;
  'server-timeout-s'?: string;
  'text-rate'?: string;
  settle?: string;
  'out-dir'?: string;
  'voices-dir'?: string;
  resume?: string;
  json?: boolean;
  quiet?: boolean;
  'no-report'?: boolean;
  redact?: boolean;
}

/** --layouts stream,pool: the layouts named, each once; default DEFAULT_LAYOUT_CHOICES. */
function layoutChoices(raw: string | undefined): readonly LayoutChoice[] {
  if (raw === undefined) return DEFAULT_LAYOUT_CHOICES;
  return raw.split(',').map((p) => parseChoice<LayoutChoice>(p.trim(), '--layouts', LAYOUT_CHOICES));
}

export function capacityOptions(f: CapacityFlags): CapacityOptions {
  const isolation =
    f.isolation === undefined
      ? undefined
      : parseChoice<'process' | 'thread'>(f.isolation, '--isolation', ['process', 'thread']);
  return {
    voices: f.voice,
    textFile: textFile(f['text-file'], f.resume),
    arrivals:
      f.arrivals === undefined
        ? undefined
        : parseChoice<ArrivalPattern>(f.arrivals, '--arrivals', ['together', 'staggered', 'poisson']),
    schedule:
      f.schedule === undefined ? undefined : parseChoice<QueuePolicy>(f.schedule, '--schedule', ['fifo', 'deadline']),
    firstAudioMs:
      f['first-audio-ms'] === undefined ? undefined : parsePositive(f['first-audio-ms'], '--first-audio-ms', '500'),
    maxStreams: f['max-streams'] === undefined ? undefined : parseWhole(f['max-streams'], '--max-streams', 1),
    rounds: f.rounds === undefined ? undefined : parseWhole(f.rounds, '--rounds', 1),
    sessions: f.sessions === undefined ? undefined : retiredSessions(f.sessions),
    prebuffersMs: f['prebuffer-ms'] === undefined ? undefined : parseList(f['prebuffer-ms'], '--prebuffer-ms', 0),
    maxMinutes: f['max-minutes'] === undefined ? undefined : parsePositive(f['max-minutes'], '--max-minutes', '7.5'),
    seed: f.seed === undefined ? undefined : parseWhole(f.seed, '--seed', 0),
    label: f.label,
    session: f.session,
    settleSeconds: settleSeconds(f.settle),
    layouts:
      isolation === undefined && f.layouts === undefined
        ? undefined
        : layoutsNamed(layoutChoices(f.layouts), allowedCores().length, isolation),
    server: f.server,
    serverVoice: f['server-voice'],
    serverTimeoutMs:
      f['server-timeout-s'] === undefined
        ? undefined
        : 1000 * parsePositive(f['server-timeout-s'], '--server-timeout-s', '30'),
    textRateCps: f['text-rate'] === undefined ? undefined : parsePositive(f['text-rate'], '--text-rate', '40'),
    outDir: f['out-dir'],
    voicesDir: f['voices-dir'],
    resume: f.resume,
    redact: f.redact === true,
  };
}

function progressLine(e: CapacityProgress): string | undefined {
  if (e.kind === 'voices') {
    const local = e.voices.some((v) => v.name !== SERVER_VOICE);
    return [
      ...e.voices.map((v) =>
        v.name === SERVER_VOICE
          ? "server: a running server, measured from outside (a connection per listener; its info and first audio include the server's own queue)"
          : `voice ${v.name}${v.synthetic ? ': SYNTHETIC stand-in' : ': real Piper voice'}`,
      ),
      ...(local ? [sessionLine(e.session)] : []),
    ].join('\n');
  }
  if (e.kind === 'calibrated' && e.voice === SERVER_VOICE)
    return (
      `server: one connection alone x${e.speed.toFixed(1)} real time, sentences ${e.sentenceAudioSeconds.map((s) => s.toFixed(1)).join(', ')} s, ` +
      `the first ${Math.round(e.firstSentenceMs[1] ?? Number.NaN)} ms`
    );
  if (e.kind === 'calibrated') {
    const first = Object.entries(e.firstSentenceMs)
      .map(([t, ms]) => `${Math.round(ms)} ms at ${t} thread${t === '1' ? '' : 's'}`)
      .join(', ');
    return (
      `${e.voice}: alone x${e.speed.toFixed(1)} real time, sentences ${e.sentenceAudioSeconds.map((s) => s.toFixed(1)).join(', ')} ` +
      `s, the first alone ${first}; a worker peaks at ${e.workerRssBytes === null ? '?' : Math.round(e.workerRssBytes / 2 ** 20)} ` +
      `MiB (memory holds ${e.memoryWorkers ?? '?'})`
    );
  }
  if (e.kind === 'plan')
    return (
      `plan: about ${formatDuration(e.seconds)} (${e.trials} trials or so; at most --max-minutes ${e.maxMinutes}), whole trials run to their end, ` +
      `answers replayed at pre-buffers ${e.prebuffersMs.join(', ')} ms; seed ${e.seed}${e.seedDrawn ? ' (drawn at random; --seed repeats it)' : ''}`
    );
  if (e.kind === 'note') return `note: ${e.text}`;
  if (e.kind === 'trial-end') return trialLine(e.trial, e.index);
  return undefined;
}

function trialLine(t: TrialRecord, index: number): string {
  const failed = t.controles.filter((c) => !c.held).map((c) => `${c.name} ${c.measured ?? '?'} ${c.unit}`);
  const kind = t.but === 'premier_son' ? 'first audio' : t.but === 'reference' ? 'reference' : 'whole';
  const outcome =
    t.etat !== 'done' && t.etat !== 'stopped'
      ? `${t.etat.toUpperCase()} ${t.erreur ?? ''}`
      : t.but !== 'premier_son'
        ? t.tenu
          ? 'no gap'
          : t.sans_trou
            ? `no gap heard, but behind real time (x${t.debit_vivant === null ? '?' : (t.debit_vivant / t.flux).toFixed(2)} per listener under load)`
            : 'gap'
        : t.sans_trou === false
          ? 'gap'
          : t.dans_la_borne
            ? 'in bound'
            : 'over the bound';
  const first = t.premier_son_max_ms === null ? '-' : `${Math.round(t.premier_son_max_ms)} ms`;
  return (
    `trial ${index} (round ${t.manche}${t.reprise > 0 ? `, again #${t.reprise}` : ''}): ${t.voix}, ` +
    `${t.disposition}, K=${t.flux} ${kind}: ${outcome}, first audio at most ${first}, ${t.trous} ` +
    `gap(s)${t.etat === 'stopped' ? ` (stopped: ${t.erreur})` : ''}${failed.length > 0 ? `, control FAILED: ${failed.join(', ')} (not counted)` : ''}`
  );
}

async function writeCapacityReports(file: string, a: CapacityArchive): Promise<string[]> {
  const dir = path.dirname(file);
  const base = path.basename(file, '.json');
  return [
    await writeExclusive(dir, base, capacityMarkdown(a), '.md'),
    await writeExclusive(dir, base, await capacityHtml(a), '.html'),
  ];
}

/** Per voice its one line (the number to plan on, or why none) and its verdict indented; the run's lines after. */
export function closingLines(a: Pick<CapacityArchive, 'plans' | 'derive' | 'phrases'>): string[] {
  const plans = a.plans ?? [];
  // The run's first phrases are its voices' verdicts, in the plans' order.
  const perVoice = plans.length > 0 ? a.phrases.slice(0, plans.length) : [];
  const lines = plans.flatMap((p, i) => [p.ligne ?? p.phrase, ...(perVoice[i] ? [`  ${perVoice[i]}`] : [])]);
  if (a.derive) lines.push(a.derive.phrase);
  if (a.derive?.phrase_vol) lines.push(a.derive.phrase_vol);
  for (const p of a.phrases.slice(perVoice.length)) lines.push(`capacity: ${p}`);
  return lines;
}

export async function capacityCommand(
  flags: CapacityFlags,
  command: string,
  io: Io,
  signal: AbortSignal,
): Promise<number> {
  const options = capacityOptions(flags);
  const say = flags.quiet ? () => undefined : (line: string): void => (flags.json ? io.err : io.out)(line);
  const started = Date.now();
  // On a terminal, the trial under way redrawn in place, as the throughput run's live line.
  const live = io.errTty && io.errRaw && !flags.quiet ? new CapacityLiveLine(io.errRaw) : undefined;
  const { archive, path: file } = await runCapacity({
    ...options,
    command,
    signal,
    onProgress: (e) => {
      const l = progressLine(e);
      if (l) {
        live?.clear();
        say(l);
      }
      live?.handle(e);
    },
  });
  live?.clear();
  if (flags.json) io.out(JSON.stringify(archive, null, 2));
  // Per voice, the line a deployer acts on first, its details indented under it; then the machine's drift.
  for (const l of closingLines(archive)) say(l);
  if (archive.machine_detail.avertissement_chaleur) say(archive.machine_detail.avertissement_chaleur);
  const rerun = archive.essais.filter((t) => !t.controle_tenu).length;
  const broken = archive.capacite.filter((c) => c.borne === 'erreur').length;
  const why =
    broken > 0 ? `${broken} layout sweep(s) broke` : 'a K was given up on after its controls failed three times';
  say(
    archive.controle_tenu
      ? `controls: every answer rests on trials whose controls held${rerun > 0 ? ` (${rerun} trial(s) failed a control and were run again)` : ''}`
      : `controls: FAILED: ${why}; ${NOT_PUBLISHABLE}`,
  );
  say(`wall time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (flags.quiet && !flags.json) io.out(file);
  else say(`archive: ${file}`);
  const code = archive.controle_tenu ? 0 : 3;
  if (flags['no-report']) return code;
  try {
    say(`reports: ${(await writeCapacityReports(file, archive)).join(' ')}`);
  } catch (err) {
    io.err(
      `piper-parallel: the reports could not be written (${(err as Error).message}); the archive is kept: run piper-parallel report ${file}`,
    );
    return 1;
  }
  return code;
}
