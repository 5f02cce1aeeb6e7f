/** Step 1 of a capacity run: every option checked and every voice ready, before anything is measured. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkWritable, archiveBaseName } from '../archive/writer.js';
import type { MachineBlock } from '../archive/schema.js';
import { PiperParallelError } from '../errors.js';
import { allowedCores } from '../measure/clock.js';
import { machineBlock } from '../measure/machine.js';
import { defaultVoices } from '../run/plan.js';
import { loadText, type TextSource } from '../run/text-source.js';
import type { VoiceInfo } from '../voice/load.js';
import { loadOnnxruntime } from '../voice/onnxruntime.js';
import { locateVoice, voicePlaces } from '../voice/places.js';
import { prepareText, type PreparedText } from '../voice/text.js';
import { ARRIVAL_PATTERNS, type ArrivalPattern } from './arrivals.js';
import { defaultLayouts, type Layout } from './layouts.js';
import type { CapacityOptions } from './options.js';
import { QUEUE_POLICIES, type QueuePolicy } from './queue.js';

export interface CapacityPlan {
  arrivals: ArrivalPattern;
  schedule: QueuePolicy;
  firstAudioMs: number;
  maxStreams: number;
  rounds: number;
  seed: number;
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
  /** Said once, before any trial (e.g. a one-sentence text). */
  notes: string[];
}

function whole(value: number | undefined, option: string, min: number, fallback: number, example: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) throw new PiperParallelError('USAGE', `${option} must be a whole number >= ${min}, got ${value}; e.g. ${option} ${example}`);
  return value;
}

function oneOf<T extends string>(value: T | undefined, option: string, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!choices.includes(value)) throw new PiperParallelError('USAGE', `${option} must be one of ${choices.join(', ')}, got "${value}"`);
  return value;
}

/** MemAvailable from /proc/meminfo, in bytes; null where unreadable. */
export function readMemAvailable(): number | null {
  try {
    const m = /^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export async function planCapacity(o: CapacityOptions): Promise<CapacityPlan> {
  const firstAudioMs = o.firstAudioMs ?? 500;
  if (!(Number.isFinite(firstAudioMs) && firstAudioMs > 0)) throw new PiperParallelError('USAGE', `--first-audio-ms must be a number of ms above 0, got ${firstAudioMs}; e.g. --first-audio-ms 500`);
  const maxStreams = whole(o.maxStreams, '--max-streams', 1, 32, '16');
  const rounds = whole(o.rounds, '--rounds', 1, 2, '2');
  const seed = whole(o.seed, '--seed', 0, 1, '1');
  const settleSeconds = whole(o.settleSeconds, '--settle', 0, 30, '30');
  const arrivals = oneOf(o.arrivals, '--arrivals', ARRIVAL_PATTERNS, 'staggered');
  const schedule = oneOf(o.schedule, '--schedule', QUEUE_POLICIES, 'deadline');
  const outDir = path.resolve(o.outDir ?? 'measurements');
  await checkWritable(outDir);
  const places = voicePlaces(o.voicesDir);
  const names = o.voices ?? (await defaultVoices(places)).map((v) => v.name);
  const voices: VoiceInfo[] = [];
  for (const n of names) voices.push(await locateVoice(n, places));
  const text = await loadText(o.textFile, o.lines);
  const prepared = new Map<string, PreparedText>();
  const notes: string[] = [];
  for (const v of voices) {
    const p = await prepareText(text.lines, v.config);
    if (p.sentences.length === 0) throw new PiperParallelError('TEXT', `the text phonemizes to nothing for ${v.name}; give sentences with words in the voice's language`);
    if (p.sentences.length === 1 && notes.length === 0) notes.push('the text is one sentence: a listener hears no gap, and the first audio is the whole wait');
    prepared.set(v.name, p);
  }
  await loadOnnxruntime();
  const cores = allowedCores();
  const date = (o.now ?? (() => new Date()))();
  return {
    arrivals, schedule, firstAudioMs, maxStreams, rounds, seed, settleSeconds, outDir, text, voices, prepared, cores, date,
    layouts: o.layouts ?? defaultLayouts(cores.length),
    machine: await machineBlock(),
    memAvailableBytes: (o.memAvailableBytes ?? readMemAvailable)(),
    // Not piper-parallel-*: a glob for throughput archives must not pick these up.
    base: archiveBaseName(date, 'capacity'),
    command: o.command ?? 'runCapacity()',
    notes,
  };
}
