/**
 * A trial's live speed S: the seconds of speech the machine made per second of wall time while it
 * was fully loaded by the trial. The span counted starts when the last listener arrived (the
 * arrival stagger, when the machine is still filling up, is left out) and covers only the instants
 * when at least min(cores, workers) sentences were being synthesized (the tail where a few workers
 * finish alone, and any idle wait, are left out; so is playback, which needs no CPU). A sentence
 * that straddles the span counts for the share of its synthesis inside it.
 */
import type { JobRecord } from './trial.js';

export interface LiveSpeed {
  /** x real time over the span; null when the span is empty (the machine was never fully loaded after the last arrival). */
  speed: number | null;
  /** The span's length, ms. */
  spanMs: number;
}

/** Instants where the number of sentences in synthesis changes, with the change. */
function events(jobs: readonly JobRecord[]): Array<[number, number]> {
  return (
    jobs
      .flatMap((j): Array<[number, number]> => [
        [j.startMs, 1],
        [j.endMs, -1],
      ])
      // At one instant a start comes before an end: a sentence handed over is no gap in the load.
      .sort((x, y) => x[0] - y[0] || y[1] - x[1])
  );
}

/** The intervals, after `fromMs`, during which at least `busy` sentences were in synthesis. */
export function loadedSpans(jobs: readonly JobRecord[], busy: number, fromMs: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let running = 0;
  let openMs: number | null = null;
  for (const [atMs, change] of events(jobs)) {
    const was = running >= busy;
    running += change;
    const is = running >= busy;
    if (!was && is) openMs = atMs;
    if (was && !is && openMs !== null) {
      const a = Math.max(openMs, fromMs);
      if (atMs > a) out.push([a, atMs]);
      openMs = null;
    }
  }
  return out;
}

const overlapMs = (a0: number, a1: number, b0: number, b1: number): number =>
  Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/**
 * A server's live speed: a request's interval holds its wait in the server's queue, which pro rata would count
 * as synthesis (on a server with one lock, the first sentences' short waits would read high). Counted instead by
 * delivery: within each loaded span, the speech of the sentences that came after its first one, over the time from
 * that first one to its last.
 */
export function deliveredSpeed(jobs: readonly JobRecord[], arrivalsMs: readonly number[], busy: number): LiveSpeed {
  const known = arrivalsMs.filter(Number.isFinite);
  if (jobs.length === 0 || known.length === 0) return { speed: null, spanMs: 0 };
  // Each audio pair is a delivery of its speech; silence a server added after it plays but is not speech.
  const deliveries = jobs.flatMap((j) =>
    j.pairs && j.pairs.length > 0
      ? j.pairs.map((p) => ({ endMs: p.endMs, audioSeconds: p.audioSeconds - p.silenceSeconds }))
      : [{ endMs: j.endMs, audioSeconds: j.audioSeconds }],
  );
  let audio = 0;
  let spanMs = 0;
  for (const [a, b] of loadedSpans(jobs, Math.max(1, busy), Math.max(...known))) {
    const came = deliveries.filter((j) => j.endMs >= a && j.endMs <= b).sort((x, y) => x.endMs - y.endMs);
    const first = came[0];
    const last = came.at(-1);
    if (!first || !last || last.endMs <= first.endMs) continue;
    audio += came.slice(1).reduce((n, j) => n + j.audioSeconds, 0);
    spanMs += last.endMs - first.endMs;
  }
  return spanMs > 0 ? { speed: (audio * 1000) / spanMs, spanMs } : { speed: null, spanMs: 0 };
}

export function liveSpeed(jobs: readonly JobRecord[], arrivalsMs: readonly number[], busy: number): LiveSpeed {
  const known = arrivalsMs.filter(Number.isFinite);
  if (jobs.length === 0 || known.length === 0) return { speed: null, spanMs: 0 };
  const spans = loadedSpans(jobs, Math.max(1, busy), Math.max(...known));
  const spanMs = spans.reduce((n, [a, b]) => n + (b - a), 0);
  if (spanMs <= 0) return { speed: null, spanMs: 0 };
  let audio = 0;
  for (const j of jobs) {
    const lengthMs = j.endMs - j.startMs;
    if (lengthMs <= 0) continue;
    const inside = spans.reduce((n, [a, b]) => n + overlapMs(j.startMs, j.endMs, a, b), 0);
    audio += (j.audioSeconds * inside) / lengthMs;
  }
  return { speed: (audio * 1000) / spanMs, spanMs };
}
