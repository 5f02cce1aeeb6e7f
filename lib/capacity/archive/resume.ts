/** A capacity run's partial file: its header (the plan's choices) and every trial and calibration so far. */
import { z } from 'zod';
import { SESSION_PROFILES } from '../../voice/session-profile.js';
import { readPartialLines } from '../../archive/partial.js';
import { PiperParallelError } from '../../core/errors.js';
import type { Calibration } from './calibration.js';
import { TrialSchema, type TrialRecord } from './schema.js';

/**
 * What a resume must find unchanged: the voices' files, the machine, and what the server said it is. A trial
 * measured on one and a trial on another are not one run (a stream resumed against a server that stopped
 * streaming would send only its first line and count it whole).
 */
export const RunIdentitySchema = z.object({
  /** Each local voice's model sha256, by name. */
  voices: z.record(z.string(), z.string()),
  machine: z.string(),
  server: z.object({ protocol: z.string(), request: z.string().nullable(), streaming: z.boolean() }).nullable(),
});
export type RunIdentity = z.infer<typeof RunIdentitySchema>;

/** What changed between the interrupted run and this one, a phrase each; none when it is the same run. */
export function identityChanges(then: RunIdentity, now: RunIdentity): string[] {
  const changes: string[] = [];
  for (const [name, digest] of Object.entries(then.voices)) {
    const current = now.voices[name];
    if (current !== undefined && current !== digest)
      changes.push(`voice ${name} changed (sha256 ${digest.slice(0, 12)} then, ${current.slice(0, 12)} now)`);
  }
  if (then.machine !== now.machine)
    changes.push(`it ran on another machine (${then.machine}; this one is ${now.machine})`);
  const words = (s: RunIdentity['server']): string =>
    s
      ? `${s.protocol}${s.request ? ` ${s.request}` : ''}, ${s.streaming ? 'streaming' : 'not streaming'} text`
      : 'no server';
  if (words(then.server) !== words(now.server))
    changes.push(`the server changed (${words(then.server)} then, ${words(now.server)} now)`);
  return changes;
}

export const CapacityHeaderSchema = z.object({
  kind: z.literal('capacity'),
  base: z.string(),
  date_utc: z.string(),
  voices: z.array(z.string()),
  /** The --server address a run measured, if any (probed again on a resume). */
  server: z.string().nullable().optional(),
  /** --text-rate and --server-timeout-s of that run: a resume sends text and waits as it did (absent: older partial files). */
  textRateCps: z.number().positive().nullable().optional(),
  /** --server-voice of that run: a resume asks for the same voice (absent: older partial files, the default voice). */
  serverVoice: z.string().nullable().optional(),
  serverTimeoutMs: z.number().positive().nullable().optional(),
  text: z.object({ source: z.string(), lines: z.array(z.string()) }),
  arrivals: z.enum(['together', 'staggered', 'poisson']),
  schedule: z.enum(['fifo', 'deadline']),
  firstAudioMs: z.number().positive(),
  maxStreams: z.number().int().positive(),
  /** --max-streams was given (absent: older partial files, whose ceiling was always kept). */
  maxStreamsAsked: z.boolean().optional(),
  rounds: z.number().int().positive(),
  prebuffersMs: z.array(z.number().int().nonnegative()),
  maxMinutes: z.number().positive(),
  seed: z.number().int(),
  label: z.string().nullable(),
  layouts: z.array(
    z.object({
      workers: z.union([z.literal('K'), z.number().int().positive()]),
      threads: z.number().int().positive(),
      pinned: z.boolean(),
      isolation: z.enum(['process', 'thread', 'server']),
    }),
  ),
  command: z.string(),
  /** The session profile; absent in partial files from before profiles: libpiper's settings. */
  session: z.enum(SESSION_PROFILES).optional(),
  /** Checked on a resume; absent in older partial files (not checked). */
  identity: RunIdentitySchema.optional(),
  /** --redact: a resume with --resume alone publishes redacted too (absent: older partial files, not redacted). */
  redact: z.boolean().optional(),
});
export type CapacityHeader = z.infer<typeof CapacityHeaderSchema>;

const CalibrationSchema = z.object({
  audioSeconds: z.array(z.number()),
  computeSeconds: z.array(z.number()),
  speed: z.number(),
  firstSentenceMs: z.record(z.string(), z.number()),
  loadSeconds: z.number(),
  workerRssBytes: z.number().nullable(),
  memoryWorkers: z.number().int().nullable(),
});

export interface CapacityPartial {
  file: string;
  header: CapacityHeader;
  trials: Map<string, TrialRecord>;
  calibrations: Map<string, Calibration>;
}

export const calibrationKey = (voice: string): string => `calibration|${voice}`;

export async function readCapacityPartial(file: string): Promise<CapacityPartial> {
  const parsed = (await readPartialLines(file)) as Array<{
    kind?: string;
    header?: unknown;
    key?: string;
    run?: unknown;
  }>;
  const header = CapacityHeaderSchema.safeParse(parsed[0]?.kind === 'header' ? parsed[0].header : undefined);
  if (!header.success)
    throw new PiperParallelError(
      'USAGE',
      `--resume ${file} is not a capacity run's partial file; resume a throughput run with piper-parallel --resume, or start a new run`,
    );
  const trials = new Map<string, TrialRecord>();
  const calibrations = new Map<string, Calibration>();
  for (const line of parsed.slice(1)) {
    const key = String(line.key ?? '');
    if (key.startsWith('calibration|')) {
      const c = CalibrationSchema.safeParse(line.run);
      if (c.success) calibrations.set(key.slice('calibration|'.length), c.data);
      continue;
    }
    const t = TrialSchema.safeParse(line.run);
    if (!t.success)
      throw new PiperParallelError('USAGE', `--resume ${file} holds a line that is not a trial; the file is damaged`);
    trials.set(key, t.data);
  }
  return { file, header: header.data, trials, calibrations };
}
