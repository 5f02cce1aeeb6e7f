import { z } from 'zod';
import { LoadedMessageSchema, PassMessageSchema } from '../../workers/messages.js';
import type { ArmRun } from './arm.js';

const SnapshotSchema = z.object({ systemBusyTicks: z.number(), ownTicks: z.number(), atMs: z.number() });

/** One arm's run in one round, as the partial file keeps it (JSON drops what is undefined). */
export const ArmRunSchema = z.object({
  state: z.enum(['done', 'failed', 'timed-out', 'aborted']),
  message: z.string().optional(),
  children: z.array(
    z.object({
      rang: z.number().int().nonnegative(),
      pid: z.number().int().optional(),
      core: z.number().int().optional(),
      loaded: LoadedMessageSchema.optional(),
      passes: z.array(PassMessageSchema),
    }),
  ),
  sync: z.array(
    z.object({
      pass: z.number().int(),
      warmup: z.boolean(),
      atMs: z.number(),
      startsMs: z.array(z.number()),
      endsMs: z.array(z.number()),
      skewMs: z.number(),
      lateMs: z.number(),
    }),
  ),
  timedCpu: z.array(z.object({ before: SnapshotSchema, after: SnapshotSchema })),
  swapPages: z.number().nullable().optional(),
  wallSeconds: z.number(),
});

/** A parsed partial line back to the run it was. */
export function toArmRun(value: z.infer<typeof ArmRunSchema>): ArmRun {
  return {
    ...value,
    children: value.children.map((c) => ({
      rang: c.rang,
      pid: c.pid,
      core: c.core,
      loaded: c.loaded,
      passes: c.passes,
    })),
  };
}
