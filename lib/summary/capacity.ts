/** A machine and voice's capacity runs as summary figures: per layout, both answers over the runs. */
import type { CapacityAnswerView } from '../capacity/archive/view.js';
import type { CapacityFigure, CapacityInput, CapacityLayout } from './types.js';
import { maxOf, minOf } from '../core/extremes.js';
import { tQuantile975 } from '../measure/stats.js';
import { betweenRuns } from './combine.js';

/** Runs needed before the drift between them is estimated and a planning K given. */
export const RUNS_FOR_PLANNING = 3;

/** Each run's S as one draw; its own variance of log S from its interval (half-width / t). */
function liveSpeed(answers: CapacityAnswerView[]): Pick<CapacityLayout, 'liveSpeed' | 'planningK'> {
  const speeds = answers.map((a) => a.noGap?.speed ?? null);
  if (speeds.length === 0 || speeds.some((s) => s === null)) return { liveSpeed: null, planningK: null };
  const known = speeds as Array<NonNullable<(typeof speeds)[number]>>;
  const within = known.map((s) =>
    s.trials < 2 ? null : (Math.log(s.high / s.centre) / tQuantile975(s.trials - 1)) ** 2,
  );
  const split = betweenRuns(
    known.map((s) => s.centre),
    within,
  );
  const most = maxOf(answers.map((a) => a.noGap?.k ?? 0));
  const planningK =
    known.length >= RUNS_FOR_PLANNING && split ? Math.max(0, Math.min(most, Math.floor(split.rerun[0] + 1e-9))) : null;
  return {
    liveSpeed: {
      perRun: known.map((s) => s.centre),
      betweenPct: split?.betweenPct ?? null,
      rerun: split?.rerun ?? null,
    },
    planningK,
  };
}

/**
 * Several runs' answers for one layout: the least any run gave (every run served that many), the
 * range from the least any run's trials left open to the most, and every run's answer.
 */
function combineAnswers(
  answers: Array<{
    k: number;
    range: { min: number; max: number };
    sessions: number | null;
    gapRateMax: number | null;
    evidence: string | null;
    firstAudioP95Ms: number | null;
  }>,
): CapacityFigure | null {
  const least = [...answers].sort((a, b) => a.k - b.k)[0];
  if (!least) return null;
  return {
    k: least.k,
    range: { min: minOf(answers.map((a) => a.range.min)), max: maxOf(answers.map((a) => a.range.max)) },
    perRun: answers.map((a) => a.k),
    sessions: least.sessions,
    gapRateMax: least.gapRateMax,
    evidence: least.evidence,
    firstAudioP95Ms: least.firstAudioP95Ms,
  };
}

function layoutFigures(layout: string, answers: CapacityAnswerView[], total: number): CapacityLayout | null {
  const held = answers.filter((a) => a.controlsHeld);
  const noGaps = held.map((a) => a.noGap);
  const noGap =
    noGaps.length > 0 && noGaps.every((n) => n !== null)
      ? combineAnswers(
          noGaps.map((n) => ({
            k: n.k,
            range: n.range,
            sessions: n.sessions,
            gapRateMax: n.gapRateMax,
            evidence: n.evidence,
            firstAudioP95Ms: null,
          })),
        )
      : null;
  const inBound = combineAnswers(
    held.map((a) => ({
      k: a.inBound.k,
      range: a.inBound.range,
      sessions: null,
      gapRateMax: null,
      evidence: null,
      firstAudioP95Ms: a.inBound.firstAudioP95Ms,
    })),
  );
  return inBound ? { layout, noGap, inBound, runsLeftOut: total - held.length, ...liveSpeed(held) } : null;
}

export interface CapacityFigures {
  layouts: CapacityLayout[];
  best: CapacityLayout | null;
  notes: string[];
}

export function capacityFigures(runs: CapacityInput[], voice: string): CapacityFigures {
  const answers = runs.flatMap((r) => r.view.answers.filter((a) => a.voice === voice));
  const names = [...new Set(answers.map((a) => a.layout))];
  const layouts = names
    .map((n) =>
      layoutFigures(
        n,
        answers.filter((a) => a.layout === n),
        answers.filter((a) => a.layout === n).length,
      ),
    )
    .filter((l): l is CapacityLayout => l !== null);
  const score = (l: CapacityLayout): number => (l.noGap?.k ?? l.inBound.k) * 1000 + l.inBound.k;
  const best = [...layouts].sort((a, b) => score(b) - score(a))[0] ?? null;
  const leftOut = names.filter((n) => !layouts.some((l) => l.layout === n));
  const notes = leftOut.length > 0 ? [`capacity: ${leftOut.join(', ')} left out: no run of it held its controls`] : [];
  if (runs.some((r) => r.view.schemaVersion === 1))
    notes.push(
      'capacity: schema 1 archives have no answer without the first-audio bound: their rows show the bounded answer only',
    );
  return { layouts, best, notes };
}
