/**
 * What a listener hears, computed from timestamps (no audio device, nothing slept): the first
 * sentence plays once it is ready and the player's pre-buffer has passed; each next one when the
 * previous has ended or when it is ready, whichever is later. A gap is the wait between the two.
 */

/** A wait shorter than this is the clock's grain, not something anyone hears. */
export const GAP_MIN_MS = 1;
/**
 * A gap shorter than this is reported apart (`trous_courts`) and does not fail a trial: 20 ms is
 * about one audio callback of a desktop player, below what a listener notices in speech.
 */
export const GAP_TOLERANCE_MS = 20;

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
  /** From the listener's arrival to the first sentence's audio (the pre-buffer included). */
  firstAudioMs: number;
  /** Gaps of at least the tolerance: these are heard. */
  gaps: number;
  /** Gaps of at least GAP_MIN_MS but under the tolerance, reported apart. */
  shortGaps: number;
  gapSeconds: number;
  /** The longest gap of any length, s. */
  worstGapSeconds: number;
  sentences: PlayedSentence[];
}

export interface PlaybackOptions {
  /** The player holds the first audio this long before playing it (default 0). */
  prebufferMs?: number;
  /** Gaps shorter than this are short gaps (default GAP_TOLERANCE_MS). */
  toleranceMs?: number;
}

export function playback(
  arrivalMs: number,
  sentences: readonly ReadySentence[],
  o: PlaybackOptions = {},
): StreamPlayback {
  const prebufferMs = o.prebufferMs ?? 0;
  const toleranceMs = o.toleranceMs ?? GAP_TOLERANCE_MS;
  const played: PlayedSentence[] = [];
  let endMs = Number.NaN;
  for (const [i, s] of sentences.entries()) {
    const playMs = i === 0 ? s.readyMs + prebufferMs : Math.max(endMs, s.readyMs);
    const gapMs = i === 0 ? 0 : Math.max(0, s.readyMs - endMs);
    endMs = playMs + s.audioSeconds * 1000;
    played.push({ ...s, playMs, endMs, gapMs });
  }
  const any = played.filter((p) => p.gapMs >= GAP_MIN_MS);
  const heard = any.filter((p) => p.gapMs >= toleranceMs);
  return {
    arrivalMs,
    firstAudioMs: (played[0]?.playMs ?? arrivalMs) - arrivalMs,
    gaps: heard.length,
    shortGaps: any.length - heard.length,
    gapSeconds: heard.reduce((n, p) => n + p.gapMs, 0) / 1000,
    worstGapSeconds: Math.max(0, ...any.map((p) => p.gapMs)) / 1000,
    sentences: played,
  };
}

/** Nearest-rank percentile (p in 0..100) of the values; null for none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}
