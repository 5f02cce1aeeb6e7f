import { z } from 'zod';
import { readPartialLines } from '../../archive/partial.js';
import { ConditionSchema, type Condition } from '../schema.js';
import { PiperParallelError } from '../../core/errors.js';
import { ArmRunSchema, toArmRun } from '../arm/arm-run-schema.js';
import type { RoundRun } from './rounds.js';
import { SESSION_PROFILES } from '../../voice/session-profile.js';

/** The first line of a partial file: everything needed to carry the run on. */
export const PartialHeaderSchema = z.object({
  /** --label, kept so a resumed run archives it. */
  label: z.string().nullable().optional(),
  base: z.string(),
  date_utc: z.string(),
  machine: z.string(),
  passes: z.number().int().positive(),
  warmup: z.number().int().nonnegative(),
  rounds: z.number().int().positive(),
  seed: z.number().int(),
  precisionPct: z.number().nullable(),
  maxMinutes: z.number().nullable(),
  /** A sequential run (looks, stops when answered); absent in partial files from before it: fixed. */
  sequential: z.boolean().optional(),
  /** Absent in partial files from before --margin. */
  marginPct: z.number().optional(),
  conditions: z.array(ConditionSchema),
  text: z.object({ source: z.string(), lines: z.array(z.string()), sha256: z.string() }),
  voices: z.array(z.object({ name: z.string(), sha256: z.string(), standsInFor: z.string().optional() })),
  command: z.string(),
  /** The session profile; absent in partial files from before profiles: libpiper's settings. */
  session: z.enum(SESSION_PROFILES).optional(),
  /** --redact: a resume with --resume alone publishes redacted too (absent: older partial files, not redacted). */
  redact: z.boolean().optional(),
});
export type PartialHeader = z.infer<typeof PartialHeaderSchema>;

export interface PartialRun {
  file: string;
  header: PartialHeader;
  /** Finished arm-rounds by `<arm key>#<round>`, in the order they were written. */
  rounds: Map<string, RoundRun & { key: string }>;
}

const RoundLineSchema = z.object({
  kind: z.literal('round'),
  key: z.string(),
  round: z.number().int().positive(),
  order: z.number().int().positive(),
  run: ArmRunSchema,
});

/** Read a partial file; a last line cut off by a crash is ignored, anything else broken is refused. */
export async function readPartial(file: string): Promise<PartialRun> {
  const parsed = await readPartialLines(file);
  const [first, ...rest] = parsed as Array<{ kind?: string; header?: unknown }>;
  const header = PartialHeaderSchema.safeParse(first?.kind === 'header' ? first.header : undefined);
  if (!header.success)
    throw new PiperParallelError(
      'USAGE',
      `--resume ${file} has no valid header line (a partial file of this version of piper-parallel?); start a new run`,
    );
  const rounds = new Map<string, RoundRun & { key: string }>();
  for (const r of rest) {
    const line = RoundLineSchema.safeParse(r);
    if (!line.success)
      throw new PiperParallelError(
        'USAGE',
        `--resume ${file} holds a line that is not an arm's round; the file is damaged`,
      );
    rounds.set(`${line.data.key}#${line.data.round}`, {
      key: line.data.key,
      round: line.data.round,
      order: line.data.order,
      run: toArmRun(line.data.run),
    });
  }
  return { file, header: header.data, rounds };
}

export interface Requested {
  passes?: number;
  warmup?: number;
  rounds?: number;
  seed?: number;
  conditions?: Condition[];
  voices?: string[];
  textSha256?: string;
}

/** What the command asks that the interrupted run did differently (only what was asked). */
export function resumeDifferences(h: PartialHeader, r: Requested): string[] {
  const out: string[] = [];
  if (r.passes !== undefined && r.passes !== h.passes) out.push(`passes ${h.passes} then, ${r.passes} now`);
  if (r.warmup !== undefined && r.warmup !== h.warmup) out.push(`--warmup ${h.warmup} then, ${r.warmup} now`);
  if (r.rounds !== undefined && r.rounds !== h.rounds) out.push(`--rounds ${h.rounds} then, ${r.rounds} now`);
  if (r.seed !== undefined && r.seed !== h.seed) out.push(`--seed ${h.seed} then, ${r.seed} now`);
  if (r.conditions !== undefined && JSON.stringify(r.conditions) !== JSON.stringify(h.conditions))
    out.push('other conditions (--streams/--threads/--affinity/--isolation)');
  if (r.voices !== undefined && JSON.stringify(r.voices) !== JSON.stringify(h.voices.map((v) => v.name)))
    out.push(`voices ${h.voices.map((v) => v.name).join(',')} then, ${r.voices.join(',')} now`);
  if (r.textSha256 !== undefined && r.textSha256 !== h.text.sha256) out.push('another text');
  return out;
}
