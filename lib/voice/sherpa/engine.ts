/**
 * sherpa-onnx-node, loaded lazily and typed here: only what this tool calls. It phonemizes inside
 * `generate` (its own espeak-ng), so it can only be timed text to audio.
 */
import { createRequire } from 'node:module';
import { PiperParallelError, toError } from '../../core/errors.js';
import type { SherpaVoice } from './prepare.js';

interface GeneratedAudio {
  samples: Float32Array;
  sampleRate: number;
}
interface OfflineTts {
  readonly sampleRate: number;
  readonly numSpeakers: number;
  generate(request: {
    text: string;
    sid: number;
    speed: number;
    generationConfig: { silenceScale: number; sid: number; speed: number };
  }): GeneratedAudio;
}
export interface SherpaModule {
  OfflineTts: new (config: unknown) => OfflineTts;
  version?: string;
  onnxruntimeVersion?: string;
}

const require = createRequire(import.meta.url);
let loaded: SherpaModule | undefined;

/** sherpa-onnx-node, or a one-line error saying how to install it. */
export function loadSherpa(): SherpaModule {
  if (loaded) return loaded;
  try {
    loaded = require('sherpa-onnx-node') as SherpaModule;
    return loaded;
  } catch (err) {
    throw new PiperParallelError(
      'RUNTIME',
      `sherpa-onnx-node could not be loaded (${toError(err).message.split('\n')[0]}); install it with ` +
        `\`npm install sherpa-onnx-node\` (its platform package, e.g. sherpa-onnx-linux-x64, must install ` +
        `too), or use --engine onnxruntime`,
      { cause: err },
    );
  }
}

/** Versions for the archive: sherpa-onnx and the onnxruntime it carries. */
export function sherpaVersions(): { sherpa: string; onnxruntime: string } {
  const m = loadSherpa();
  const read = (v: unknown): string =>
    typeof v === 'function' ? String((v as () => unknown)()) : typeof v === 'string' ? v : 'unknown';
  return { sherpa: read(m.version), onnxruntime: read(m.onnxruntimeVersion) };
}

export interface SherpaSynthesis {
  samples: Float32Array;
  audioSeconds: number;
}

/** One sherpa-onnx OfflineTts for one voice, created once and reused for every pass. */
export class SherpaSynthesizer {
  private constructor(
    readonly voice: SherpaVoice,
    private readonly tts: OfflineTts,
    private readonly sid: number,
  ) {}

  /**
   * Same settings as the onnxruntime side: T intra-op threads, Piper's session settings through
   * the provider config, one sentence per model run as Piper does (maxNumSentences 1), and
   * pauses left as the model made them (silenceScale 1).
   */
  static create(voice: SherpaVoice, threads: number, speakerId = 0): SherpaSynthesizer {
    const sherpa = loadSherpa();
    const config = {
      model: {
        vits: {
          model: voice.model,
          tokens: voice.tokens,
          dataDir: voice.dataDir,
          noiseScale: voice.noiseScale,
          noiseScaleW: voice.noiseScaleW,
          lengthScale: voice.lengthScale,
        },
        numThreads: threads,
        provider: voice.provider,
        debug: 0,
      },
      maxNumSentences: 1,
      silenceScale: 1,
    };
    let tts: OfflineTts;
    try {
      tts = new sherpa.OfflineTts(config);
    } catch (err) {
      throw new PiperParallelError(
        'VOICE_LOAD',
        `voice ${voice.name}: sherpa-onnx could not load ${voice.model} (${toError(err).message.split('\n')[0]}); ` +
          `delete ${voice.dir} to have it made anew, or use --engine onnxruntime`,
        { cause: err },
      );
    }
    return new SherpaSynthesizer(voice, tts, speakerId);
  }

  /** Text to audio: sherpa phonemizes, splits sentences and runs the model inside this call. */
  synthesize(text: string): SherpaSynthesis {
    let out: GeneratedAudio;
    try {
      out = this.tts.generate({
        text,
        sid: this.sid,
        speed: 1,
        generationConfig: { silenceScale: 1, sid: this.sid, speed: 1 },
      });
    } catch (err) {
      throw new PiperParallelError(
        'SYNTHESIS',
        `sherpa-onnx failed while synthesizing with ${this.voice.name} (${toError(err).message.split('\n')[0]})`,
        { cause: err },
      );
    }
    return { samples: out.samples, audioSeconds: out.samples.length / (out.sampleRate || this.voice.sampleRate) };
  }
}
