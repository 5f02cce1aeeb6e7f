import type * as Ort from 'onnxruntime-node';
import { loadOnnxruntime } from './onnxruntime.js';
import { PiperParallelError, toError } from '../core/errors.js';
import { floatToInt16 } from './format/wav.js';
import type { PreparedText } from './text.js';
import type { VoiceInfo } from './load.js';
import { DEFAULT_SESSION_PROFILE, SESSION_SETTINGS, type SessionProfile } from './session-profile.js';

export interface SynthesizerOptions {
  /** intra-op threads; inter-op is always 1 and execution sequential. */
  threads?: number;
  /** Speaker name or id, for multi-speaker voices only. */
  speaker?: string | number;
  /** Override the config's inference scales. */
  noiseScale?: number;
  lengthScale?: number;
  noiseW?: number;
  /** Whose session settings (default piper-tts, onnxruntime's defaults as Python Piper leaves them). */
  session?: SessionProfile;
}

export interface SentenceTiming {
  samples: number;
  /** Done ahead of time (see prepareText); reported here so a sentence's cost is complete. */
  phonemizeSeconds: number;
  audioSeconds: number;
  inferenceSeconds: number;
  convertSeconds: number;
}

export interface SynthesisResult {
  sentences: SentenceTiming[];
  samples: number;
  phonemizeSeconds: number;
  audioSeconds: number;
  inferenceSeconds: number;
  convertSeconds: number;
  /** The int16 audio of every sentence, one after another, when asked for. */
  audio?: Int16Array;
}

/**
 * What libpiper (piper1-gpl's C++ library) sets on its session: basic graph optimization, no CPU
 * memory arena, no memory pattern; one same-run comparison here had the arena on about 13% faster.
 */
export const PIPER_SESSION_OPTIONS = SESSION_SETTINGS.libpiper.options;

type Feeds = Record<string, Ort.Tensor>;
export interface SentenceFeeds {
  feeds: Feeds;
  phonemizeSeconds: number;
}

/** One onnxruntime session for one voice, created once and reused for every pass. */
export class Synthesizer {
  private readonly session: Ort.InferenceSession;
  private readonly scales: Ort.Tensor;
  private readonly sid: Ort.Tensor | undefined;

  private constructor(
    readonly voice: VoiceInfo,
    private readonly ort: typeof Ort,
    made: { session: Ort.InferenceSession; scales: Ort.Tensor; sid: Ort.Tensor | undefined },
    private readonly now: () => number,
  ) {
    this.session = made.session;
    this.scales = made.scales;
    this.sid = made.sid;
  }

  static async create(
    voice: VoiceInfo,
    options: SynthesizerOptions = {},
    now: () => number = performance.now.bind(performance),
  ): Promise<Synthesizer> {
    const threads = options.threads ?? 1;
    if (!Number.isInteger(threads) || threads < 1) {
      throw new PiperParallelError('USAGE', `--threads must be a whole number >= 1 (got ${threads})`);
    }
    const ort = await loadOnnxruntime();
    const cfg = voice.config;
    let sid: Ort.Tensor | undefined;
    if (cfg.num_speakers > 1) {
      const speaker = options.speaker ?? 0;
      const id = typeof speaker === 'number' ? speaker : cfg.speaker_id_map?.[speaker];
      if (id === undefined || !Number.isInteger(id) || id < 0 || id >= cfg.num_speakers) {
        const names = Object.keys(cfg.speaker_id_map ?? {})
          .slice(0, 10)
          .join(', ');
        throw new PiperParallelError(
          'USAGE',
          `--speaker "${String(speaker)}" is not a speaker of ${voice.name} (ids 0-${cfg.num_speakers - 1}; names: ${names})`,
        );
      }
      sid = new ort.Tensor('int64', BigInt64Array.from([BigInt(id)]), [1]);
    } else if (options.speaker !== undefined) {
      throw new PiperParallelError('USAGE', `--speaker given but ${voice.name} has a single speaker; drop --speaker`);
    }
    let session: Ort.InferenceSession;
    try {
      session = await ort.InferenceSession.create(voice.onnxPath, {
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        ...SESSION_SETTINGS[options.session ?? DEFAULT_SESSION_PROFILE].options,
      });
    } catch (err) {
      throw new PiperParallelError(
        'VOICE_LOAD',
        `${voice.onnxPath}: onnxruntime could not load it (${toError(err).message.split('\n')[0]}); fetch or build the voice again`,
        { cause: err },
      );
    }
    const scales = new ort.Tensor(
      'float32',
      Float32Array.from([
        options.noiseScale ?? cfg.inference.noise_scale,
        options.lengthScale ?? cfg.inference.length_scale,
        options.noiseW ?? cfg.inference.noise_w,
      ]),
      [3],
    );
    return new Synthesizer(voice, ort, { session, scales, sid }, now);
  }

  /** Input tensors for each sentence, built once so a timed pass only runs inference. */
  feedsFor(prepared: PreparedText): SentenceFeeds[] {
    return prepared.sentences.map((s) => {
      const feeds: Feeds = {
        input: new this.ort.Tensor(
          'int64',
          BigInt64Array.from(s.ids, (v) => BigInt(v)),
          [1, s.ids.length],
        ),
        input_lengths: new this.ort.Tensor('int64', BigInt64Array.from([BigInt(s.ids.length)]), [1]),
        scales: this.scales,
      };
      if (this.sid) feeds.sid = this.sid;
      return { feeds, phonemizeSeconds: s.phonemizeSeconds };
    });
  }

  /** Synthesize every sentence; timings per sentence and in total. */
  async synthesize(feeds: readonly SentenceFeeds[], keepAudio = false): Promise<SynthesisResult> {
    const rate = this.voice.config.audio.sample_rate;
    const sentences: SentenceTiming[] = [];
    const chunks: Int16Array[] = [];
    for (const f of feeds) {
      const t0 = this.now();
      let out: Ort.InferenceSession.OnnxValueMapType;
      try {
        out = await this.session.run(f.feeds);
      } catch (err) {
        throw new PiperParallelError(
          'SYNTHESIS',
          `onnxruntime failed while synthesizing with ${this.voice.name} (${toError(err).message.split('\n')[0]})`,
          { cause: err },
        );
      }
      const t1 = this.now();
      const tensor = out.output;
      if (!tensor || !(tensor.data instanceof Float32Array)) {
        throw new PiperParallelError(
          'SYNTHESIS',
          `${this.voice.name}: the model has no float32 "output"; is it a Piper voice?`,
        );
      }
      const pcm = floatToInt16(tensor.data);
      const t2 = this.now();
      if (keepAudio) chunks.push(pcm);
      sentences.push({
        samples: pcm.length,
        phonemizeSeconds: f.phonemizeSeconds,
        audioSeconds: pcm.length / rate,
        inferenceSeconds: (t1 - t0) / 1000,
        convertSeconds: (t2 - t1) / 1000,
      });
    }
    const sum = (k: keyof SentenceTiming): number => sentences.reduce((a, s) => a + s[k], 0);
    const result: SynthesisResult = {
      sentences,
      samples: sum('samples'),
      phonemizeSeconds: sum('phonemizeSeconds'),
      audioSeconds: sum('audioSeconds'),
      inferenceSeconds: sum('inferenceSeconds'),
      convertSeconds: sum('convertSeconds'),
    };
    if (keepAudio) {
      const all = new Int16Array(result.samples);
      let at = 0;
      for (const c of chunks) {
        all.set(c, at);
        at += c.length;
      }
      result.audio = all;
    }
    return result;
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}
