/**
 * The parent's side of engines: make every voice sherpa-ready and try it in a throwaway process
 * before any stream starts, and say in the archive what each engine was.
 */
import type { Archive, Condition } from '../schema.js';
import type { VoiceInfo } from '../../voice/load.js';
import { probeSherpaVoice } from '../../voice/sherpa/probe.js';
import { sherpaReadyVoice, SHERPA_PROVIDER_CONFIG, type SherpaVoice } from '../../voice/sherpa/prepare.js';
import { ONNXRUNTIME_VERSION } from '../../core/version.js';
import { SESSION_SETTINGS, type SessionProfile } from '../../voice/session-profile.js';
import { engineOf, scopeOf } from './conditions.js';
import type { EngineSpec } from '../../workers/messages.js';

export const SHERPA_SESSION_LABEL =
  `intra-op T and inter-op T (sherpa-onnx sets both to numThreads; inter-op is unused in sequential ` +
  `execution), sequential, provider config ${SHERPA_PROVIDER_CONFIG.join(' ')} (Piper's graph ` +
  `optimization basic, CPU memory arena off, memory pattern off), one sentence per model run, silence scale 1`;

export interface EnginePlan {
  /** Each voice's sherpa-ready copy, when any arm runs sherpa-onnx. */
  sherpa: Map<string, SherpaVoice>;
  /** Whose session settings every onnxruntime-node stream uses. */
  session: SessionProfile;
  moteurs: NonNullable<Archive['protocole']['moteurs']>;
}

/** Ready every voice for the engines the conditions use; sherpa-onnx is tried in a child first. */
export async function planEngines(
  conditions: readonly Condition[],
  voices: readonly VoiceInfo[],
  sampleText: string,
  session: SessionProfile,
): Promise<EnginePlan> {
  const used = new Set(conditions.map(engineOf));
  const sherpa = new Map<string, SherpaVoice>();
  const moteurs: EnginePlan['moteurs'] = {};
  if (used.has('onnxruntime')) {
    moteurs.onnxruntime = {
      version: `onnxruntime-node ${ONNXRUNTIME_VERSION}`,
      onnxruntime: ONNXRUNTIME_VERSION,
      reglages: SESSION_SETTINGS[session].label,
    };
  }
  if (used.has('sherpa')) {
    for (const voice of voices) {
      const ready = await sherpaReadyVoice(voice);
      const probe = await probeSherpaVoice({ voice: ready, threads: 1, text: sampleText });
      sherpa.set(voice.name, ready);
      moteurs.sherpa = {
        version: `sherpa-onnx-node ${probe.versions.sherpa}`,
        onnxruntime: probe.versions.onnxruntime,
        reglages: SHERPA_SESSION_LABEL,
      };
    }
  }
  return { sherpa, session, moteurs };
}

/** What a worker runs for an arm of this condition. */
export function engineSpec(condition: Condition, voiceName: string, engines: EnginePlan): EngineSpec {
  if (engineOf(condition) === 'sherpa') {
    const voice = engines.sherpa.get(voiceName);
    if (!voice) throw new Error(`no sherpa-ready copy of ${voiceName} was planned`);
    return { kind: 'sherpa', voice };
  }
  return { kind: 'onnxruntime', scope: scopeOf(condition), session: engines.session };
}
