/**
 * The answer at other pre-buffers, replayed from the archived timelines of the same trials (no
 * more synthesis): each listener's sentences, when ready and how long, played with the first held
 * back `prebufferMs`. A whole trial holds at a pre-buffer when no listener hears a gap of at least
 * the tolerance and the machine kept pace; a K holds when every such trial at it held and none at a
 * smaller K failed.
 */
import type { TrialRecord } from '../archive/schema.js';
import { playback } from '../trial/playback.js';

/** Whole trials run to their planned end with their controls held: the only ones whose every sentence is known. */
const replayable = (t: TrialRecord): boolean => t.controle_tenu && t.but === 'sans_trou' && t.etat === 'done';

/** The listener's gaps at this pre-buffer, from its archived timeline. */
export function gapsAt(stream: TrialRecord['flux_detail'][number], prebufferMs: number): number {
  if (stream.arrivee_ms === null) return 0;
  const ready = stream.phrases.map((p) => ({ readyMs: p.pret_ms, audioSeconds: p.audio_s }));
  return playback(stream.arrivee_ms, ready, { prebufferMs }).gaps;
}

export function trialHeldAt(t: TrialRecord, prebufferMs: number): boolean {
  return t.au_rythme !== false && t.flux_detail.every((s) => gapsAt(s, prebufferMs) === 0);
}

export interface BufferAnswer {
  prebufferMs: number;
  /** The largest K held at this pre-buffer (0 when the smallest K tried failed). */
  held: number;
  /** No K just above `held` was tried (none failed, or the first that failed is further up): it may serve more. */
  atLeast: boolean;
}

export function heldAtBuffer(trials: readonly TrialRecord[], prebufferMs: number): BufferAnswer {
  const byK = new Map<number, boolean[]>();
  for (const t of trials.filter(replayable)) byK.set(t.flux, [...(byK.get(t.flux) ?? []), trialHeldAt(t, prebufferMs)]);
  let held = 0;
  for (const k of [...byK.keys()].sort((x, y) => x - y)) {
    // A K between the last held and the first failed was never tried: the answer may lie there.
    if (!(byK.get(k) as boolean[]).every(Boolean)) return { prebufferMs, held, atLeast: k > held + 1 };
    held = k;
  }
  return { prebufferMs, held, atLeast: true };
}
