/**
 * What a capacity run answers, before it is written: each layout's entry (its drift between runs measured where
 * earlier runs exist), the number to plan on per voice, and each voice's verdict. Reference trials measure the
 * machine, not an answer: only the drift reads them.
 */
import type { Calibration } from '../setup/calibrate.js';
import type { CapacityPlan } from '../setup/plan.js';
import type { CapacityArchive, CapacityEntry, ServerRecord, TrialRecord } from '../archive/schema.js';
import type { Sweep } from '../answer/sweep-state.js';
import { capacityEntry, voiceVerdict } from '../answer/verdict.js';
import { DEFAULT_DRIFT_SD, edgeTrials, roundLogSpeeds } from '../answer/live.js';
import { bestLayout, contenders, type LayoutSpeeds } from '../answer/layouts.js';
import { driftOf, driftPoints } from '../answer/drift.js';
import { historyKey, measuredDrift, speedDraw, type History } from '../setup/history.js';
import { conditionWords, planOn, stealByRound, type PlanConditions } from '../answer/plan-on.js';
import { SERVER_VOICE } from '../setup/server.js';

const GiB = 2 ** 30;
const MiB = 2 ** 20;

/** What the run measured, for its archive. */
export interface Measured {
  calibrations: Map<string, Calibration>;
  sweeps: Sweep[];
  trials: TrialRecord[];
  /** Whether the run carried on a partial file. */
  resumed: boolean;
  /** The server measured (--server), as the archive keeps it. */
  server?: ServerRecord | null;
  /** Earlier runs of this workload on this machine, from the out-dir. */
  history?: History;
}

export interface RunAnswers {
  /** A voice's name as the sentences say it: the server's address, SYNTHETIC for a stand-in. */
  label: (voice: string) => string;
  /** The answers' trials: every trial but the reference's. */
  trials: TrialRecord[];
  drift: ReturnType<typeof driftOf>;
  steal: ReturnType<typeof stealByRound>;
  capacite: CapacityEntry[];
  plans: NonNullable<CapacityArchive['plans']>;
  /** Each voice's verdict, in the plan's order. */
  verdicts: string[];
}

/** Which binds first, per layout: the memory (a worker per listener stopped at what MemAvailable holds) or the CPU. */
export function memoryLine(c: Calibration, entries: CapacityEntry[], memAvailable: number | null): string {
  if (c.workerRssBytes === null || memAvailable === null || c.memoryWorkers === null)
    return "Memory: a worker's peak or MemAvailable could not be read, so the memory bound is unknown.";
  const head =
    `Memory: a worker peaked at ${Math.round(c.workerRssBytes / MiB)} MiB; MemAvailable ${(memAvailable / GiB).toFixed(1)} ` +
    `GiB holds ${c.memoryWorkers} such workers`;
  const bound = entries.filter((e) => e.borne === 'memoire').map((e) => e.disposition);
  if (bound.length === 0) return `${head}: memory stopped no layout.`;
  return `${head}: memory binds first for ${bound.join(' and ')}${bound.length < entries.length ? ', not for the others' : ''}.`;
}

function labelOf(plan: CapacityPlan): (name: string) => string {
  return (name) =>
    name === SERVER_VOICE && plan.server
      ? `the server at ${plan.server.handle.description.address}`
      : plan.voices.find((v) => v.name === name)?.synthetic && !name.includes('synthetic')
        ? `${name} (SYNTHETIC)`
        : name;
}

/** Every layout's entry; with earlier runs here, the drift between runs is measured, not assumed, where it is the larger. */
function entries(plan: CapacityPlan, m: Measured, x: Pick<RunAnswers, 'label' | 'trials' | 'drift'>): CapacityEntry[] {
  const entryOf = (s: Sweep, driftSd?: { sd: number; runs: number }): CapacityEntry =>
    capacityEntry(s, x.trials, {
      voiceLabel: x.label(s.voice),
      maxStreams: plan.maxStreams,
      limitMs: plan.firstAudioMs,
      aloneMs: m.calibrations.get(s.voice)?.firstSentenceMs[s.layout.threads] ?? null,
      prebuffersMs: plan.prebuffersMs,
      seen: { lowLog: x.drift.lowLog, highLog: x.drift.highLog },
      // The number to plan on is chosen among the voice's layouts: each low end is read so all hold at once.
      layouts: m.sweeps.filter((o) => o.voice === s.voice).length,
      ...(driftSd ? { driftSd: driftSd.sd, driftRuns: driftSd.runs } : {}),
    });
  return m.sweeps.map((s) => {
    const first = entryOf(s);
    const earlier = m.history?.speeds.get(historyKey(s.voice, s.name)) ?? [];
    const measured = measuredDrift(earlier, speedDraw(first));
    if (measured === null) return first;
    const e = measured > DEFAULT_DRIFT_SD ? entryOf(s, { sd: measured, runs: earlier.length }) : first;
    return { ...e, derive_entre_runs_mesuree: measured, derive_entre_runs_runs: earlier.length };
  });
}

/** Each layout's S by round at its own edge: what the best layout, and the layouts not told apart from it, rest on. */
function speedsOf(capacite: readonly CapacityEntry[], trials: readonly TrialRecord[], voice: string): LayoutSpeeds[] {
  return capacite
    .filter((e) => e.voix === voice)
    .map((e) => ({
      layout: e.disposition,
      byRound: roundLogSpeeds(
        edgeTrials(
          trials.filter((t) => t.voix === e.voix && t.disposition === e.disposition),
          e.flux_tenu_essais,
        ),
      ),
    }));
}

export function runAnswers(plan: CapacityPlan, m: Measured): RunAnswers {
  const label = labelOf(plan);
  const trials = m.trials.filter((t) => t.but !== 'reference');
  // The machine's own movement over the run, from the reference and every whole trial of every layout (interleaved).
  const drift = driftOf(driftPoints(m.trials));
  const capacite = entries(plan, m, { label, trials, drift });
  const conditions = (v: (typeof plan.voices)[number]): PlanConditions => ({
    // A server runs its own session settings, which this tool cannot read.
    session: v.name === SERVER_VOICE ? null : plan.session,
    sentences: m.calibrations.get(v.name)?.audioSeconds.length ?? plan.text.lines.length,
    synthetic: v.synthetic,
  });
  const mine = (voice: string): CapacityEntry[] => capacite.filter((e) => e.voix === voice);
  const plans = plan.voices.map((v) =>
    planOn(
      v.name,
      label(v.name),
      mine(v.name),
      conditions(v),
      contenders(bestLayout(speedsOf(capacite, trials, v.name))),
    ),
  );
  const verdicts = plan.voices.map((v) =>
    voiceVerdict(label(v.name), mine(v.name), {
      conditions: conditionWords(conditions(v)),
      limitMs: plan.firstAudioMs,
      memory:
        v.name === SERVER_VOICE
          ? "Memory: the server's own, not read from here."
          : memoryLine(m.calibrations.get(v.name) as Calibration, mine(v.name), plan.memAvailableBytes),
      speeds: speedsOf(capacite, trials, v.name),
    }),
  );
  return { label, trials, drift, steal: stealByRound(m.trials), capacite, plans, verdicts };
}
