/**
 * The onnxruntime session settings a measurement runs with, named after who sets them. Figures of
 * one profile are not figures of the other: the archive names the profile and compare refuses to
 * set two side by side unless forced.
 */
import type * as Ort from 'onnxruntime-node';
import { PiperParallelError } from '../core/errors.js';

export const SESSION_PROFILES = ['piper-tts', 'libpiper'] as const;
export type SessionProfile = (typeof SESSION_PROFILES)[number];

/**
 * What most self-hosters run: Python Piper (`piper-tts`: the `piper` CLI, `piper.http_server`,
 * wyoming-piper). Its `PiperVoice.load` (piper1-gpl src/piper/voice.py) passes a bare
 * `onnxruntime.SessionOptions()`, so onnxruntime's defaults apply.
 */
export const DEFAULT_SESSION_PROFILE: SessionProfile = 'piper-tts';

interface ProfileSettings {
  options: Pick<
    Ort.InferenceSession.SessionOptions,
    'graphOptimizationLevel' | 'enableCpuMemArena' | 'enableMemPattern'
  >;
  /** In words, for the archive and the reports. */
  label: string;
}

export const SESSION_SETTINGS: Readonly<Record<SessionProfile, ProfileSettings>> = {
  // onnxruntime's SessionOptions defaults, set explicitly so a binding's own defaults cannot move them.
  'piper-tts': {
    options: { graphOptimizationLevel: 'all', enableCpuMemArena: true, enableMemPattern: true },
    label:
      'profile piper-tts: intra-op T, inter-op 1, sequential, graph optimization all, CPU memory arena on, ' +
      "memory pattern on (onnxruntime's defaults, as Python Piper leaves them; its intra-op threads, left to " +
      "onnxruntime there, are the layout's here)",
  },
  // libpiper (piper1-gpl's C++ library) sets these on its session.
  libpiper: {
    options: { graphOptimizationLevel: 'basic', enableCpuMemArena: false, enableMemPattern: false },
    label:
      'intra-op T, inter-op 1, sequential, graph optimization basic, CPU memory arena off, memory pattern off (as Piper sets them)',
  },
};

/** The profile an archive's session label names; archives from before profiles ran libpiper's settings. */
export function profileOfLabel(label: string | undefined): SessionProfile | null {
  if (label === undefined) return null;
  return label.startsWith('profile piper-tts') ? 'piper-tts' : 'libpiper';
}

/**
 * The profile a run measures with: a resumed run keeps its own (files from before profiles ran
 * libpiper's); sherpa-onnx sets libpiper's settings in its provider config, so a run with it does too.
 */
export function chooseSession(o: {
  asked: string | undefined;
  resumed?: SessionProfile | undefined;
  sherpa?: boolean;
}): SessionProfile {
  const asked = o.asked;
  if (asked !== undefined && !(SESSION_PROFILES as readonly string[]).includes(asked))
    throw new PiperParallelError(
      'USAGE',
      `--session must be one of ${SESSION_PROFILES.join(', ')}, got "${asked}"; e.g. --session ${DEFAULT_SESSION_PROFILE}`,
    );
  const profile = asked as SessionProfile | undefined;
  if (o.resumed !== undefined) {
    if (profile !== undefined && profile !== o.resumed)
      throw new PiperParallelError(
        'USAGE',
        `--resume: the interrupted run measured with --session ${o.resumed}, not ${profile}; resume without --session`,
      );
    return o.resumed;
  }
  if (o.sherpa) {
    if (profile === 'piper-tts')
      throw new PiperParallelError(
        'USAGE',
        "--session piper-tts with sherpa-onnx: sherpa-onnx runs libpiper's settings, so both engines must; use --session libpiper, or --engine onnxruntime",
      );
    return 'libpiper';
  }
  return profile ?? DEFAULT_SESSION_PROFILE;
}

/** One line for a run's header: the profile and what it sets. */
export function sessionLine(profile: SessionProfile | null): string {
  if (profile === null) return 'session: not recorded (an archive from before the settings were)';
  const p = profile;
  const what =
    p === 'piper-tts'
      ? "Python Piper's (piper CLI, piper.http_server, wyoming-piper): graph optimization all, CPU memory arena and memory pattern on"
      : "libpiper's (Piper's C++ library): graph optimization basic, CPU memory arena and memory pattern off";
  return `session: ${p}, ${what}`;
}
