/** Step 1 of a capacity run: every option checked and every voice ready, before anything is measured. */
import { parseServerUrl } from '../../server/probe.js';
import path from 'node:path';
import { chooseSession, type SessionProfile } from '../../voice/session-profile.js';
import { checkWritable, archiveBaseName } from '../../archive/writer.js';
import type { MachineBlock } from '../../archive/common-schema.js';
import { readMemAvailable } from '../../measure/memory.js';
import { MAX_SERVER_TIMEOUT_S } from '../../server/probe.js';
import { PiperParallelError } from '../../core/errors.js';
import { allowedCores } from '../../measure/clock.js';
import { machineBlock } from '../../measure/machine.js';
import { defaultVoices } from '../../voice/defaults.js';
import { CAPACITY_SENTENCES } from '../../voice/default-text.js';
import { loadText, type TextSource } from '../../voice/text-source.js';
import { checkLabel } from '../../measure/label.js';
import { drawSeed } from '../../core/prng.js';
import type { VoiceInfo } from '../../voice/load.js';
import { loadOnnxruntime } from '../../voice/onnxruntime.js';
import { locateVoice, voicePlaces, whereIsVoice, type VoicePlaces, type VoiceWhereabouts } from '../../voice/places.js';
import { prepareText, type PreparedText } from '../../voice/text.js';
import { ARRIVAL_PATTERNS, type ArrivalPattern } from '../trial/arrivals.js';
import { defaultLayouts, type Layout } from '../trial/layouts.js';
import type { CapacityOptions } from './options.js';
import { QUEUE_POLICIES, type QueuePolicy } from '../trial/queue.js';
import {
  DEFAULT_SERVER_TIMEOUT_MS,
  SERVER_LAYOUT,
  SERVER_VOICE,
  resolveServer,
  serverText,
  streamText,
  serverVoice,
  type ServerHandle,
} from './server.js';

/** With no --max-streams, no voice's ceiling passes this (about 25 GiB of workers at 250 MiB each; memory caps it first). */
export const MAX_STREAMS_LIMIT = 96;

export interface CapacityPlan {
  arrivals: ArrivalPattern;
  schedule: QueuePolicy;
  firstAudioMs: number;
  /** The sweep's ceiling: --max-streams, or MAX_STREAMS_LIMIT with each voice's own ceiling from its calibration. */
  maxStreams: number;
  /** --max-streams was given: every voice's ceiling is it; otherwise each voice's comes from its calibration. */
  maxStreamsAsked: boolean;
  rounds: number;
  /** Pre-buffers each answer is replayed at, ms, ascending, 0 first. */
  prebuffersMs: number[];
  /** Rounds beyond the planned ones (edges that moved) are added only while they fit in this. */
  maxMinutes: number;
  seed: number;
  /** The seed was drawn at random (no --seed). */
  seedDrawn: boolean;
  label: string | null;
  settleSeconds: number;
  layouts: Layout[];
  outDir: string;
  text: TextSource;
  voices: VoiceInfo[];
  prepared: Map<string, PreparedText>;
  cores: number[];
  machine: MachineBlock;
  memAvailableBytes: number | null;
  base: string;
  date: Date;
  command: string;
  /** Whose session settings every local worker runs. */
  session: SessionProfile;
  /** Said once, before any trial (e.g. a one-sentence text). */
  notes: string[];
  /** A running server swept as the voice `server`, probed before anything is measured; null without --server. */
  server: { handle: ServerHandle; timeoutMs: number; stream: { textRateCps: number | null } | null } | null;
}

/** The layouts a voice is swept with: the server has its one, every local voice the plan's. */
export const layoutsFor = (plan: Pick<CapacityPlan, 'layouts'>, voice: string): Layout[] =>
  voice === SERVER_VOICE ? [SERVER_LAYOUT] : plan.layouts;

/** The edge K and the next are each tried in at least this many trials, one per round. */
export const DEFAULT_ROUNDS = 3;
/** Pre-buffers replayed by default, ms: none, a quarter and half a second (a player's usual range). */
export const DEFAULT_PREBUFFERS_MS = [0, 250, 500];
/**
 * The default run's budget, calibration included: a later round's turn that would pass it is left out (said), so
 * the default run ends within 8 minutes with room for its last turn and the reports.
 */
export const DEFAULT_MAX_MINUTES = 7.5;

function whole(value: number | undefined, option: string, min: number, fallback: number, example: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min)
    throw new PiperParallelError(
      'USAGE',
      `${option} must be a whole number >= ${min}, got ${value}; e.g. ${option} ${example}`,
    );
  return value;
}

function oneOf<T extends string>(value: T | undefined, option: string, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!choices.includes(value))
    throw new PiperParallelError('USAGE', `${option} must be one of ${choices.join(', ')}, got "${value}"`);
  return value;
}

/** 0 always first (the answer itself), then the others ascending, each a whole number of ms at most 10 s. */
function prebuffers(values: number[] | undefined): number[] {
  const list = values ?? DEFAULT_PREBUFFERS_MS;
  for (const v of list)
    if (!Number.isInteger(v) || v < 0 || v > 10_000)
      throw new PiperParallelError(
        'USAGE',
        `--prebuffer-ms takes whole numbers of ms from 0 to 10000, got ${v}; e.g. --prebuffer-ms 0,250,500`,
      );
  return [...new Set([0, ...list])].sort((a, b) => a - b);
}

/** What a capacity run asks, checked without a side effect: no folder made, no voice built, no server asked. */
export interface AskedCapacity {
  arrivals: ArrivalPattern;
  schedule: QueuePolicy;
  firstAudioMs: number;
  maxStreams: number;
  rounds: number;
  prebuffersMs: number[];
  maxMinutes: number;
  seed: number;
  label: string | null;
  session: SessionProfile;
  settleSeconds: number;
  outDir: string;
  places: VoicePlaces;
  /** The local voices, found (a missing one refused) but not built. */
  voices: VoiceWhereabouts[];
  text: TextSource;
}

export async function askedCapacity(o: CapacityOptions): Promise<AskedCapacity> {
  const firstAudioMs = o.firstAudioMs ?? 500;
  if (!(Number.isFinite(firstAudioMs) && firstAudioMs > 0))
    throw new PiperParallelError(
      'USAGE',
      `--first-audio-ms must be a number of ms above 0, got ${firstAudioMs}; e.g. --first-audio-ms 500`,
    );
  const maxStreams = whole(o.maxStreams, '--max-streams', 1, MAX_STREAMS_LIMIT, '16');
  const rounds = whole(o.rounds, '--rounds', 1, DEFAULT_ROUNDS, '3');
  if (o.sessions !== undefined)
    throw new PiperParallelError(
      'USAGE',
      '--sessions was retired: evidence is now counted by trial, the independent unit; ask for more trials with --rounds',
    );
  const maxMinutes = o.maxMinutes ?? DEFAULT_MAX_MINUTES;
  if (!(Number.isFinite(maxMinutes) && maxMinutes > 0))
    throw new PiperParallelError(
      'USAGE',
      `--max-minutes must be a number of minutes above 0, got ${maxMinutes}; e.g. --max-minutes 7.5`,
    );
  // A URL refused before anything is made on disk (the out-dir was created, then the URL refused).
  if (typeof o.server === 'string') parseServerUrl(o.server);
  checkServerFlags(o);
  const places = voicePlaces(o.voicesDir);
  // A server alone unless local voices are named: its run is about the server.
  const names = o.voices ?? (o.server !== undefined ? [] : (await defaultVoices(places)).map((v) => v.name));
  const voices: VoiceWhereabouts[] = [];
  for (const n of names) voices.push(await whereIsVoice(n, places));
  return {
    arrivals: oneOf(o.arrivals, '--arrivals', ARRIVAL_PATTERNS, 'staggered'),
    schedule: oneOf(o.schedule, '--schedule', QUEUE_POLICIES, 'deadline'),
    firstAudioMs,
    maxStreams,
    rounds,
    prebuffersMs: prebuffers(o.prebuffersMs),
    maxMinutes,
    seed: whole(o.seed, '--seed', 0, drawSeed(), '1'),
    label: checkLabel(o.label),
    session: chooseSession({ asked: o.session }),
    settleSeconds: whole(o.settleSeconds, '--settle', 0, 30, '30'),
    outDir: path.resolve(o.outDir ?? 'measurements'),
    places,
    voices,
    text: await loadText(o.textFile, o.lines, {
      source: 'built-in French reply (capacity)',
      lines: CAPACITY_SENTENCES,
    }),
  };
}

export async function planCapacity(o: CapacityOptions): Promise<CapacityPlan> {
  const asked = await askedCapacity(o);
  const { text } = asked;
  // The server is asked what it is before a folder is made: an address that does not answer leaves nothing behind.
  const server = await planServer(o, text.lines);
  await checkWritable(asked.outDir);
  const voices: VoiceInfo[] = [];
  for (const v of asked.voices) voices.push(await locateVoice(v.name, asked.places));
  const prepared = new Map<string, PreparedText>();
  const notes: string[] = [];
  if (server) {
    voices.push(serverVoice());
    prepared.set(SERVER_VOICE, server.stream ? streamText(text.lines) : serverText(text.lines));
  }
  for (const v of voices.filter((x) => x.name !== SERVER_VOICE)) {
    const p = await prepareText(text.lines, v.config);
    if (p.sentences.length === 0)
      throw new PiperParallelError(
        'TEXT',
        `the text phonemizes to nothing for ${v.name}; give sentences with words in the voice's language`,
      );
    if (p.sentences.length === 1 && notes.length === 0)
      notes.push('the text is one sentence: a listener hears no gap, and the first audio is the whole wait');
    prepared.set(v.name, p);
  }
  await loadOnnxruntime();
  const cores = allowedCores();
  const date = (o.now ?? (() => new Date()))();
  return {
    ...asked,
    maxStreamsAsked: o.maxStreams !== undefined,
    seedDrawn: o.seed === undefined,
    text,
    voices,
    prepared,
    cores,
    date,
    layouts: o.layouts ?? defaultLayouts(cores.length),
    machine: await machineBlock(),
    memAvailableBytes: (o.memAvailableBytes ?? readMemAvailable)(),
    // Not piper-parallel-*: a glob for throughput archives must not pick these up.
    base: archiveBaseName(date, 'capacity'),
    command: o.command ?? 'runCapacity()',
    notes,
    server,
  };
}

/** The server's flags that need no server to be refused: before any voice is built or folder made. */
function checkServerFlags(o: CapacityOptions): void {
  if (o.serverVoice !== undefined && o.serverVoice.trim() === '')
    throw new PiperParallelError('USAGE', '--server-voice needs a voice name, e.g. --server-voice en_US-lessac-medium');
  if (o.server !== undefined) return;
  if (o.serverVoice !== undefined)
    throw new PiperParallelError(
      'USAGE',
      "--server-voice names a server's voice: give --server tcp://HOST:PORT or http://HOST:PORT too",
    );
  if (o.textRateCps !== undefined)
    throw new PiperParallelError(
      'USAGE',
      '--text-rate feeds a server streaming text: give --server tcp://HOST:PORT too',
    );
}

async function planServer(o: CapacityOptions, lines: readonly string[]): Promise<CapacityPlan['server']> {
  if (o.server === undefined) return null;
  const timeoutMs = o.serverTimeoutMs ?? DEFAULT_SERVER_TIMEOUT_MS;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= MAX_SERVER_TIMEOUT_S * 1000))
    throw new PiperParallelError(
      'USAGE',
      `--server-timeout-s must be a number of seconds above 0 and at most ${MAX_SERVER_TIMEOUT_S}; e.g. --server-timeout-s 30`,
    );
  const sample = serverText(lines).sentences[0]?.text ?? '';
  const handle = await resolveServer(o.server, sample, {
    timeoutMs,
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.serverVoice === undefined ? {} : { voice: o.serverVoice }),
  });
  const d = handle.description;
  if (o.textRateCps !== undefined && !d.streaming)
    throw new PiperParallelError(
      'USAGE',
      `--text-rate needs a server that takes streaming text in (Wyoming supports_synthesize_streaming); ` +
        `${d.address} does not say it does: leave --text-rate out`,
    );
  const rate = o.textRateCps ?? null;
  if (rate !== null && !(Number.isFinite(rate) && rate > 0))
    throw new PiperParallelError(
      'USAGE',
      `--text-rate must be characters a second above 0, got ${rate}; e.g. --text-rate 40`,
    );
  return { handle, timeoutMs, stream: d.streaming ? { textRateCps: rate } : null };
}

export { readMemAvailable };
