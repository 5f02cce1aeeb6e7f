import { z } from 'zod';
import { VoiceConfigSchema } from '../voice/format/config.js';
import { SherpaVoiceSchema } from '../voice/sherpa/schema.js';
import { DEFAULT_SESSION_PROFILE, SESSION_PROFILES } from '../voice/session-profile.js';

/**
 * What runs a timed pass: onnxruntime-node from phoneme ids (scope model, the text phonemized by
 * the parent) or from text (scope text, phonemized inside the pass); sherpa-onnx, text only.
 */
export const EngineSpecSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('onnxruntime'),
    scope: z.enum(['model', 'text']),
    /** Whose session settings (lib/voice/session-profile.ts). */
    session: z.enum(SESSION_PROFILES).default(DEFAULT_SESSION_PROFILE),
  }),
  z.object({ kind: z.literal('sherpa'), voice: SherpaVoiceSchema }),
]);
export type EngineSpec = z.infer<typeof EngineSpecSchema>;

/** Everything a stream worker needs, sent once by the parent. */
export const InitMessageSchema = z.object({
  type: z.literal('init'),
  rang: z.number().int().nonnegative(),
  voice: z.object({ name: z.string(), onnxPath: z.string(), config: VoiceConfigSchema }),
  threads: z.number().int().positive(),
  /**
   * The text, phonemized once by the parent: each sentence's phoneme ids (and its share of the
   * phonemizer's time). No stream carries the phonemizer.
   */
  prepared: z.object({
    sentences: z.array(
      z.object({
        text: z.string(),
        phonemes: z.array(z.string()),
        ids: z.array(z.number().int().nonnegative()),
        phonemizeSeconds: z.number().nonnegative(),
      }),
    ),
    phonemizeSeconds: z.number().nonnegative(),
    missingPhonemes: z.record(z.string(), z.number()),
  }),
  warmup: z.number().int().nonnegative(),
  passes: z.number().int().positive(),
  engine: EngineSpecSchema.default({ kind: 'onnxruntime', scope: 'model', session: DEFAULT_SESSION_PROFILE }),
});

export const StartMessageSchema = z.object({
  type: z.literal('start'),
  pass: z.number().int().nonnegative(),
  /** The common start instant on the system monotonic clock, in ms. */
  atMs: z.number(),
});

/** Capacity: synthesize sentence `sentence` of the text now, as job `id`. */
export const JobMessageSchema = z.object({
  type: z.literal('job'),
  id: z.number().int().nonnegative(),
  sentence: z.number().int().nonnegative(),
});

export const ParentMessageSchema = z.discriminatedUnion('type', [
  InitMessageSchema,
  StartMessageSchema,
  JobMessageSchema,
]);
export type InitMessage = z.input<typeof InitMessageSchema>;
/** What the parent sends (defaults may be left out). */
export type ParentMessage = z.input<typeof ParentMessageSchema>;
/** What a worker receives, defaults filled in. */
export type ReceivedParentMessage = z.infer<typeof ParentMessageSchema>;

export const LoadedMessageSchema = z.object({
  type: z.literal('loaded'),
  pid: z.number().int(),
  /** Kernel thread id, for a stream run as a thread. */
  tid: z.number().int().optional(),
  /** Threads whose CPU is counted as this stream's (its own and its onnxruntime pool). */
  cpuThreads: z.number().int().optional(),
  /** Cores this worker may run on, as the OS reports them after any pinning. */
  cores: z.array(z.number().int().nonnegative()),
  loadSeconds: z.number().nonnegative(),
  phonemizeSeconds: z.number().nonnegative(),
  sentences: z.number().int().nonnegative(),
  missingPhonemes: z.record(z.string(), z.number()),
});

export const ReadyMessageSchema = z.object({ type: z.literal('ready'), pass: z.number().int().nonnegative() });

export const PassMessageSchema = z.object({
  type: z.literal('pass'),
  pass: z.number().int().nonnegative(),
  warmup: z.boolean(),
  computeSeconds: z.number().nonnegative(),
  inferenceSeconds: z.number().nonnegative(),
  audioSeconds: z.number().nonnegative(),
  /** null when the stream's CPU could not be read (thread schedstat missing or all zero). */
  cpuSeconds: z.number().nonnegative().nullable(),
  startMs: z.number(),
  endMs: z.number(),
  /**
   * Seconds of the pass spent phonemizing: absent at scope model (done before), null where it cannot
   * be told apart (sherpa-onnx phonemizes inside its call).
   */
  phonemizeSeconds: z.number().nonnegative().nullable().optional(),
  /** Peak resident memory of the worker's process so far (VmHWM), read after the pass. */
  peakRssBytes: z.number().int().nonnegative().optional(),
  /** Major page faults of the worker's process so far, read after the pass (absent where unreadable). */
  majorFaults: z.number().int().nonnegative().optional(),
});

export const FailedMessageSchema = z.object({
  type: z.literal('failed'),
  message: z.string(),
  code: z.string().optional(),
});

/** Capacity: job `id` is synthesized; its audio was ready at `endMs` (system monotonic clock). */
export const DoneMessageSchema = z.object({
  type: z.literal('done'),
  id: z.number().int().nonnegative(),
  sentence: z.number().int().nonnegative(),
  startMs: z.number(),
  endMs: z.number(),
  audioSeconds: z.number().nonnegative(),
  peakRssBytes: z.number().int().nonnegative().optional(),
  /** Major page faults of the worker's process just before and just after the job (absent where unreadable). */
  majorFaultsBefore: z.number().int().nonnegative().optional(),
  majorFaults: z.number().int().nonnegative().optional(),
  /**
   * A server's reply: each audio-start ... audio-stop pair it sent, in order (when its audio-stop came, its audio,
   * and the exact-zero silence at its end); a listener hears these, however the server split the text.
   */
  pairs: z
    .array(
      z.object({ endMs: z.number(), audioSeconds: z.number().nonnegative(), silenceSeconds: z.number().nonnegative() }),
    )
    .optional(),
});

export const WorkerMessageSchema = z.discriminatedUnion('type', [
  LoadedMessageSchema,
  ReadyMessageSchema,
  PassMessageSchema,
  FailedMessageSchema,
  DoneMessageSchema,
]);
export type WorkerMessage = z.infer<typeof WorkerMessageSchema>;
export type LoadedMessage = z.infer<typeof LoadedMessageSchema>;
export type PassMessage = z.infer<typeof PassMessageSchema>;
export type DoneMessage = z.infer<typeof DoneMessageSchema>;

/** Why sherpa-onnx is only ever run as a process (said by the planner, and by a thread worker that is sent it anyway). */
export const SHERPA_THREAD_REFUSAL =
  'sherpa-onnx runs only as separate processes (--isolation process): on a fatal error it ends ' +
  "its whole process, which for a worker thread is the parent's, archive and all";
