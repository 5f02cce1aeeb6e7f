import { z } from 'zod';
import { PiperParallelError } from '../../core/errors.js';

const positive = z.number().positive();

/** Marks a voice written by our generator; its figures must always be named synthetic. */
export const SyntheticBlockSchema = z.object({
  seed: z.number().int(),
  generator_version: z.string(),
  parameter_count: z.number().int().positive(),
  architecture: z.string(),
  /** sha256 of the .onnx the generator wrote, checked before a built voice is reused. */
  onnx_sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

/**
 * A Piper `.onnx.json`. Only what inference needs is required; everything else a published
 * config carries (dataset, language, piper_version, ...) is kept as is.
 */
export const VoiceConfigSchema = z.looseObject({
  dataset: z.string().optional(),
  audio: z.looseObject({
    sample_rate: z.number().int().positive(),
    quality: z.string().optional(),
  }),
  espeak: z.looseObject({ voice: z.string().min(1) }),
  language: z.looseObject({ code: z.string() }).optional(),
  inference: z.looseObject({
    noise_scale: z.number().nonnegative(),
    length_scale: positive,
    noise_w: z.number().nonnegative(),
  }),
  phoneme_type: z.string().optional(),
  phoneme_map: z.record(z.string(), z.array(z.string())).optional(),
  phoneme_id_map: z
    .record(z.string(), z.array(z.number().int().nonnegative()).min(1))
    .refine((m) => Object.keys(m).length > 0, 'must not be empty'),
  num_symbols: z.number().int().positive(),
  num_speakers: z.number().int().positive(),
  speaker_id_map: z.record(z.string(), z.number().int().nonnegative()).optional(),
  piper_version: z.string().optional(),
  synthetic: SyntheticBlockSchema.optional(),
});

export type VoiceConfig = z.infer<typeof VoiceConfigSchema>;

/** Validate a parsed config; the error names the file and the first offending key. */
export function parseVoiceConfig(value: unknown, source: string): VoiceConfig {
  const result = VoiceConfigSchema.safeParse(value);
  if (result.success) {
    const cfg = result.data;
    for (const [symbol, ids] of Object.entries(cfg.phoneme_id_map)) {
      const bad = ids.find((id) => id >= cfg.num_symbols);
      if (bad !== undefined) {
        throw new PiperParallelError(
          'VOICE_CONFIG',
          `${source}: key phoneme_id_map.${JSON.stringify(symbol)} has id ${bad}, not below num_symbols ` +
            `(${cfg.num_symbols}); fix the file or fetch the voice again`,
        );
      }
    }
    return cfg;
  }
  const issue = result.error.issues[0];
  const key = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(top level)';
  const what = issue ? issue.message : 'invalid';
  throw new PiperParallelError(
    'VOICE_CONFIG',
    `${source}: key ${key}: ${what}; fix the file or fetch the voice again`,
    { cause: result.error },
  );
}

/** Parse JSON text then validate; a syntax error names the file too. */
export function parseVoiceConfigText(text: string, source: string): VoiceConfig {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new PiperParallelError(
      'VOICE_CONFIG',
      `${source}: not valid JSON (${(err as Error).message}); fix the file or fetch the voice again`,
      { cause: err },
    );
  }
  return parseVoiceConfig(value, source);
}
