import { phonemesToIds, phonemizeLine } from './phonemize.js';
import type { VoiceConfig } from './format/config.js';
import { PiperParallelError } from '../core/errors.js';

export interface PreparedSentence {
  text: string;
  phonemes: string[];
  ids: number[];
  /** Its share of its line's phonemizer call (espeak splits a line into sentences in one call). */
  phonemizeSeconds: number;
}

export interface PreparedText {
  sentences: PreparedSentence[];
  phonemizeSeconds: number;
  /** Phonemes the voice's map lacks, skipped as Piper does. */
  missingPhonemes: Record<string, number>;
}

/**
 * Phonemize text lines for a voice, ahead of synthesis (a benchmark times only inference).
 * Each line is phonemized on its own; espeak splits it into sentences as Piper does.
 */
export async function prepareText(
  lines: readonly string[],
  config: VoiceConfig,
  now: () => number = performance.now.bind(performance),
  warn = true,
): Promise<PreparedText> {
  if (config.phoneme_type !== undefined && config.phoneme_type !== 'espeak') {
    throw new PiperParallelError(
      'PHONEMIZE',
      `phoneme_type "${config.phoneme_type}" is not supported (only espeak voices); pick an espeak voice`,
    );
  }
  const start = now();
  const sentences: PreparedSentence[] = [];
  const missing: Record<string, number> = {};
  for (const line of lines) {
    const text = line.trim();
    if (text.length === 0) continue;
    const lineStart = now();
    const found = await phonemizeLine(text, config.espeak.voice);
    const share = (now() - lineStart) / 1000 / Math.max(1, found.length);
    for (const s of found) {
      const { ids, missing: lacking } = phonemesToIds(s.phonemes, config.phoneme_id_map, config.phoneme_map);
      for (const [p, n] of lacking) missing[p] = (missing[p] ?? 0) + n;
      sentences.push({ text, phonemes: s.phonemes, ids, phonemizeSeconds: share });
    }
  }
  const lackingList = Object.entries(missing);
  if (warn && lackingList.length > 0) {
    process.emitWarning(
      `voice's phoneme_id_map lacks ${lackingList.map(([p, n]) => `"${p}" x${n}`).join(', ')}; skipped as Piper does`,
      'PhonemeWarning',
    );
  }
  return { sentences, phonemizeSeconds: (now() - start) / 1000, missingPhonemes: missing };
}
