/**
 * What a listener hears, computed from timestamps (no audio device, nothing slept): the first
 * sentence plays as soon as it is ready; each next one when the previous has ended or when it is
 * ready, whichever is later. A gap is the wait between the two.
 */

/** A wait shorter than this is the clock's grain, not something anyone hears. */
export const GAP_MIN_MS = 1;

export interface ReadySentence {
  /** When its audio was ready (ms, the run's monotonic clock). */
  readyMs: number;
  audioSeconds: number;
}

export interface PlayedSentence extends ReadySentence {
  playMs: number;
  endMs: number;
  /** The silence before it (0 for the first sentence, whose wait is the time to first audio). */
  gapMs: number;
}

export interface StreamPlayback {
  arrivalMs: number;
  /** From the listener's arrival to the first sentence's audio. */
  firstAudioMs: number;
  gaps: number;
  gapSeconds: number;
  worstGapSeconds: number;
  sentences: PlayedSentence[];
}

export function playback(arrivalMs: number, sentences: readonly ReadySentence[]): StreamPlayback {
  const played: PlayedSentence[] = [];
  let endMs = Number.NaN;
  for (const [i, s] of sentences.entries()) {
    const playMs = i === 0 ? s.readyMs : Math.max(endMs, s.readyMs);
    const gapMs = i === 0 ? 0 : Math.max(0, s.readyMs - endMs);
    endMs = playMs + s.audioSeconds * 1000;
    played.push({ ...s, playMs, endMs, gapMs });
  }
  const gaps = played.filter((p) => p.gapMs >= GAP_MIN_MS);
  return {
    arrivalMs,
    firstAudioMs: (played[0]?.playMs ?? arrivalMs) - arrivalMs,
    gaps: gaps.length,
    gapSeconds: gaps.reduce((n, p) => n + p.gapMs, 0) / 1000,
    worstGapSeconds: Math.max(0, ...gaps.map((p) => p.gapMs)) / 1000,
    sentences: played,
  };
}

/** Nearest-rank percentile (p in 0..100) of the values; null for none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}
