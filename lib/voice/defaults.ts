/** The default voices: each real one where it is installed, else its synthetic stand-in. */
import { findVoice, voicePlaces, type VoicePlaces } from './places.js';
import { SYNTHETIC_VOICES } from './synthetic/build.js';

const DEFAULT_VOICE_PAIRS = SYNTHETIC_VOICES.map((s) => ({ real: s.standsInFor, synthetic: s.name }));

/** The default voices: the real ones when installed (--voices-dir, ./voices or the cache), else their synthetic stand-ins. */
export async function defaultVoices(
  voicesDir?: string | VoicePlaces,
): Promise<Array<{ name: string; standsInFor?: string }>> {
  const places = typeof voicesDir === 'object' ? voicesDir : voicePlaces(voicesDir);
  const out: Array<{ name: string; standsInFor?: string }> = [];
  for (const p of DEFAULT_VOICE_PAIRS)
    out.push((await findVoice(p.real, places)) ? { name: p.real } : { name: p.synthetic, standsInFor: p.real });
  return out;
}
