import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { armKey } from '../archive/partial.js';
import { ArmSchema, ConditionSchema, type ArmRecord, type Condition } from '../archive/schema.js';
import { PiperParallelError } from '../errors.js';

/** The first line of a partial file: everything needed to carry the run on. */
export const PartialHeaderSchema = z.object({
  base: z.string(),
  date_utc: z.string(),
  machine: z.string(),
  passes: z.number().int().positive(),
  warmup: z.number().int().nonnegative(),
  conditions: z.array(ConditionSchema),
  text: z.object({ source: z.string(), lines: z.array(z.string()), sha256: z.string() }),
  voices: z.array(z.object({ name: z.string(), sha256: z.string(), standsInFor: z.string().optional() })),
  command: z.string(),
});
export type PartialHeader = z.infer<typeof PartialHeaderSchema>;

export interface PartialRun {
  file: string;
  header: PartialHeader;
  /** Finished arms by key, in the order they were written. */
  arms: Map<string, ArmRecord>;
}

/** Read a partial file; a last line cut off by a crash is ignored, anything else broken is refused. */
export async function readPartial(file: string): Promise<PartialRun> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new PiperParallelError('USAGE', `--resume ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); give a file from measurements/.partial/`, { cause: err });
  }
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const parsed: unknown[] = [];
  lines.forEach((line, i) => {
    try {
      parsed.push(JSON.parse(line));
    } catch (err) {
      if (i < lines.length - 1) throw new PiperParallelError('USAGE', `--resume ${file}: line ${i + 1} is not JSON; the file is damaged`, { cause: err });
    }
  });
  const [first, ...rest] = parsed as Array<{ kind?: string; header?: unknown; arm?: unknown }>;
  const header = PartialHeaderSchema.safeParse(first?.kind === 'header' ? first.header : undefined);
  if (!header.success) throw new PiperParallelError('USAGE', `--resume ${file} has no valid header line; is it a piper-parallel partial file?`);
  const arms = new Map<string, ArmRecord>();
  for (const r of rest) {
    const arm = ArmSchema.safeParse(r.arm);
    if (r.kind !== 'arm' || !arm.success) throw new PiperParallelError('USAGE', `--resume ${file} holds a line that is not an arm; the file is damaged`);
    arms.set(armKey(arm.data), arm.data);
  }
  return { file, header: header.data, arms };
}

export interface Requested {
  passes?: number;
  warmup?: number;
  conditions?: Condition[];
  voices?: string[];
  textSha256?: string;
}

/** What the command asks that the interrupted run did differently (only what was asked). */
export function resumeDifferences(h: PartialHeader, r: Requested): string[] {
  const out: string[] = [];
  if (r.passes !== undefined && r.passes !== h.passes) out.push(`passes ${h.passes} then, ${r.passes} now`);
  if (r.warmup !== undefined && r.warmup !== h.warmup) out.push(`--warmup ${h.warmup} then, ${r.warmup} now`);
  if (r.conditions !== undefined && JSON.stringify(r.conditions) !== JSON.stringify(h.conditions)) out.push('other conditions (--streams/--threads/--affinity/--isolation)');
  if (r.voices !== undefined && JSON.stringify(r.voices) !== JSON.stringify(h.voices.map((v) => v.name))) out.push(`voices ${h.voices.map((v) => v.name).join(',')} then, ${r.voices.join(',')} now`);
  if (r.textSha256 !== undefined && r.textSha256 !== h.text.sha256) out.push('another text');
  return out;
}
