import { z } from 'zod';

/** A sherpa-ready copy of a voice (see prepare.ts): what a worker or a probe needs to load it. */
export const SherpaVoiceSchema = z.object({
  name: z.string(),
  dir: z.string(),
  model: z.string(),
  tokens: z.string(),
  dataDir: z.string(),
  /** The provider string: "cpu:" and the config file with Piper's session settings. */
  provider: z.string(),
  sampleRate: z.number().int().positive(),
  numSpeakers: z.number().int().positive(),
  noiseScale: z.number(),
  noiseScaleW: z.number(),
  lengthScale: z.number(),
});
export type SherpaVoice = z.infer<typeof SherpaVoiceSchema>;

export const ProbeRequestSchema = z.object({
  voice: SherpaVoiceSchema,
  threads: z.number().int().positive(),
  speakerId: z.number().int().nonnegative().default(0),
  text: z.string().min(1),
  wav: z.string().optional(),
});
export type ProbeRequest = z.input<typeof ProbeRequestSchema>;

export const ProbeResultSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    samples: z.number().int().nonnegative(),
    audioSeconds: z.number().nonnegative(),
    loadSeconds: z.number().nonnegative(),
    synthSeconds: z.number().nonnegative(),
    versions: z.object({ sherpa: z.string(), onnxruntime: z.string() }),
  }),
  z.object({ ok: z.literal(false), message: z.string() }),
]);
export type ProbeResult = Extract<z.infer<typeof ProbeResultSchema>, { ok: true }>;
