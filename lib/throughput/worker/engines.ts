/**
 * What one timed pass runs, per engine and scope. Every engine loads once, outside the timing,
 * and reports audio, time in the model and, where it can be told apart, time phonemizing.
 */
import { PiperParallelError } from '../../core/errors.js';
import { monotonicMs } from '../../measure/clock.js';
import type { VoiceInfo } from '../../voice/load.js';
import { SherpaSynthesizer } from '../../voice/sherpa/engine.js';
import { Synthesizer } from '../../voice/synthesizer.js';
import { prepareText, type PreparedText } from '../../voice/text.js';
import { floatToInt16 } from '../../voice/format/wav.js';
import type { EngineSpec } from '../../workers/messages.js';
import type { SessionProfile } from '../../voice/session-profile.js';

export interface PassOutcome {
  audioSeconds: number;
  inferenceSeconds: number;
  /** Absent at scope model; null where the engine phonemizes inside its own call. */
  phonemizeSeconds?: number | null;
}

export interface PassEngine {
  /**
   * A warm-up pass, untimed: every sentence (or line) once, the longest first. Under piper-tts's
   * session settings (arena and memory pattern on) a fresh session runs each input shape slower
   * its first time and somewhat slower its second: after the longest sentence alone, or every
   * sentence once, the first timed pass ran 20-35% below the speed the session settles at; after
   * every sentence twice (the default --warmup 2), at it (docs/contributing/method-notes.md). The
   * longest first: the arena grows with the order it is asked in.
   */
  run(warmup: boolean): Promise<PassOutcome>;
  release(): Promise<void>;
}

/** Where the longest of `sizes` is (the first of equals): what a warm-up pass runs. */
export function longestIndex(sizes: readonly number[]): number {
  let best = 0;
  for (const [i, n] of sizes.entries()) if (n > (sizes[best] ?? -1)) best = i;
  return best;
}

/** The order a warm-up pass runs the sentences in: by size, the longest first (the first of equals first). */
export function warmupOrder(sizes: readonly number[]): number[] {
  return [...sizes.keys()].sort((a, b) => (sizes[b] ?? 0) - (sizes[a] ?? 0) || a - b);
}

/** What a warm-up pass runs: every sentence (or line), the longest first, whatever the threads. */
const warmupOf = <T>(items: readonly T[], sizes: readonly number[]): T[] =>
  warmupOrder(sizes).flatMap((i) => (items[i] === undefined ? [] : [items[i] as T]));

/** The lines of the text, in order, once each: what a text-scope pass starts from. */
export function textLines(prepared: PreparedText): string[] {
  const lines: string[] = [];
  for (const s of prepared.sentences) if (lines[lines.length - 1] !== s.text) lines.push(s.text);
  return lines;
}

async function onnxruntimeModel(
  voice: VoiceInfo,
  { threads, session }: { threads: number; session: SessionProfile },
  prepared: PreparedText,
  create: CreateSession,
): Promise<PassEngine> {
  const synth = await create(() => Synthesizer.create(voice, { threads, session }));
  const feeds = synth.feedsFor(prepared);
  const warmupFeeds = warmupOf(
    feeds,
    prepared.sentences.map((s) => s.ids.length),
  );
  return {
    run: async (warmup) => {
      const r = await synth.synthesize(warmup ? warmupFeeds : feeds);
      return { audioSeconds: r.audioSeconds, inferenceSeconds: r.inferenceSeconds };
    },
    release: () => synth.release(),
  };
}

async function onnxruntimeText(
  voice: VoiceInfo,
  { threads, session }: { threads: number; session: SessionProfile },
  prepared: PreparedText,
  create: CreateSession,
): Promise<PassEngine> {
  const synth = await create(() => Synthesizer.create(voice, { threads, session }));
  const lines = textLines(prepared);
  // Loads the phonemizer's WebAssembly before any timed pass.
  await prepareText(lines.slice(0, 1), voice.config, undefined, false);
  return {
    run: async (warmup) => {
      let audioSeconds = 0;
      let inferenceSeconds = 0;
      let phonemizeSeconds = 0;
      for (const line of warmup
        ? warmupOf(
            lines,
            lines.map((l) => l.length),
          )
        : lines) {
        const t0 = monotonicMs();
        const text = await prepareText([line], voice.config, undefined, false);
        phonemizeSeconds += (monotonicMs() - t0) / 1000;
        const r = await synth.synthesize(synth.feedsFor(text));
        audioSeconds += r.audioSeconds;
        inferenceSeconds += r.inferenceSeconds;
      }
      return { audioSeconds, inferenceSeconds, phonemizeSeconds };
    },
    release: () => synth.release(),
  };
}

async function sherpa(
  spec: Extract<EngineSpec, { kind: 'sherpa' }>,
  threads: number,
  prepared: PreparedText,
  create: CreateSession,
): Promise<PassEngine> {
  const synth = await create(async () => SherpaSynthesizer.create(spec.voice, threads));
  const lines = textLines(prepared);
  return {
    run: async (warmup) => {
      let audioSeconds = 0;
      let inferenceSeconds = 0;
      for (const line of warmup
        ? warmupOf(
            lines,
            lines.map((l) => l.length),
          )
        : lines) {
        const t0 = monotonicMs();
        const out = synth.synthesize(line);
        // The same int16 conversion the onnxruntime side does inside its timing.
        floatToInt16(out.samples);
        inferenceSeconds += (monotonicMs() - t0) / 1000;
        audioSeconds += out.audioSeconds;
      }
      return { audioSeconds, inferenceSeconds, phonemizeSeconds: null };
    },
    release: async () => undefined,
  };
}

type CreateSession = <T>(create: () => Promise<T>) => Promise<T>;

export async function createPassEngine(
  spec: EngineSpec,
  voice: VoiceInfo,
  threads: number,
  prepared: PreparedText,
  create: CreateSession,
): Promise<PassEngine> {
  if (prepared.sentences.length === 0) {
    throw new PiperParallelError(
      'TEXT',
      "the text phonemizes to nothing; give sentences with words in the voice's language",
    );
  }
  if (spec.kind === 'sherpa') return sherpa(spec, threads, prepared, create);
  return spec.scope === 'text'
    ? onnxruntimeText(voice, { threads, session: spec.session }, prepared, create)
    : onnxruntimeModel(voice, { threads, session: spec.session }, prepared, create);
}
