/**
 * Seeded simulated default runs, for the sequential rule's error rates (tests) and figures (bench):
 * two voices of four arms, the noise of a fitted model, the budget in arm-rounds of a measured
 * length, and the same `look` and `finish` the run uses. A design may be broken on purpose (plain
 * 95% intervals at every look; passes counted as if independent) to show the checks can fail.
 */
import { Prng } from '../../lib/core/prng.js';
import { lookRounds, questionLevel } from '../../lib/throughput/sequential/design.js';
import {
  anyOpen,
  finish,
  look,
  neededArms,
  presetQuestions,
  type Question,
} from '../../lib/throughput/sequential/rule.js';
import { pinningSay } from '../../lib/throughput/sequential/pinning.js';

/** Log-scale noise of one arm's figure in one round. */
export interface NoiseModel {
  /** Machine drift shared by a voice's arms within a round (cancels in a ratio). */
  roundSd: number;
  /** The arm's own worker set in that round: fresh workers every round, their speed kept for its passes. */
  armSd: number;
  /** Pass to pass within one worker set. */
  passSd: number;
  /** Now and then a worker set far off: how often, and how far. */
  outlierRate: number;
  outlierSd: number;
}

/** The design under test, or a broken one. */
export type DesignKind = 'sequential' | 'plain-95' | 'passes-as-rounds';

export interface SimulationSetup {
  noise: NoiseModel;
  /** True ratios: each K-process layout over 1 process x K threads, and pinned over free. */
  deployment: number;
  pinning: number;
  /** Timed passes per arm per round (the default 1). */
  passes: number;
  design: DesignKind;
  /** The number on the command line (6), the margin, the budget and what an arm-round costs. */
  number: number;
  marginPct: number;
  budgetSeconds: number;
  armRoundSeconds: number;
  overheadSeconds: number;
}

type Arm = 'single-1' | 'free' | 'pinned' | 'threads';
const ARMS: Arm[] = ['single-1', 'free', 'pinned', 'threads'];
const SHAPES = {
  'single-1': { streams: 1, threads: 1, pinned: false },
  free: { streams: 2, threads: 1, pinned: false },
  pinned: { streams: 2, threads: 1, pinned: true },
  threads: { streams: 1, threads: 2, pinned: false },
};

export interface SimulatedVoice {
  questions: Array<Question<Arm> & { truth: number }>;
  rounds: number;
  /** The whole run's simulated seconds (both voices). */
  seconds: number;
}

function noiseDraw(rng: Prng): (sd: number) => number {
  return (sd) => sd * Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}

/** One round of one voice: each arm's pass logs. */
function roundLogs(rng: Prng, s: SimulationSetup, truth: Record<Arm, number>): Record<Arm, number[]> {
  const g = noiseDraw(rng);
  const shared = g(s.noise.roundSd);
  const out = {} as Record<Arm, number[]>;
  for (const arm of ARMS) {
    const own = rng.next() < s.noise.outlierRate ? g(s.noise.outlierSd) : g(s.noise.armSd);
    out[arm] = Array.from({ length: s.passes }, () => truth[arm] + shared + own + g(s.noise.passSd));
  }
  return out;
}

/** A question's logs as the design sees them: one per round (the round's mean), or one per pass. */
function logsFor(q: Question<Arm>, data: Array<Record<Arm, number[]>>, design: DesignKind): number[] {
  const mean = (v: number[]): number => v.reduce((a, b) => a + b, 0) / v.length;
  if (design === 'passes-as-rounds') return data.flatMap((r) => r[q.a].map((v, i) => v - (r[q.b][i] ?? v)));
  return data.map((r) => mean(r[q.a]) - mean(r[q.b]));
}

/** One simulated default run of two voices; returns each voice's questions and rounds. */
export function simulateRun(s: SimulationSetup, seed: number): SimulatedVoice[] {
  const rng = new Prng(seed);
  const looks = lookRounds(s.number);
  const last = looks.at(-1) ?? 0;
  const truth: Record<Arm, number> = {
    'single-1': -Math.log(1.6),
    threads: 0,
    free: Math.log(s.deployment),
    pinned: Math.log(s.deployment * s.pinning),
  };
  const voices = [0, 1].map(() => {
    const questions = presetQuestions(ARMS, (a) => ({ voice: 'v', group: 'g', ...SHAPES[a] }));
    return { questions, data: [] as Array<Record<Arm, number[]>>, rounds: 0 };
  });
  const confidence = (): number =>
    s.design === 'plain-95' ? 0.95 : questionLevel(looks, voices[0]?.questions.length ?? 1).confidence;
  let seconds = s.overheadSeconds;
  let round = 0;
  let why: 'budget' | 'looks' | undefined;
  while (why === undefined && voices.some((v) => anyOpen(v.questions))) {
    round += 1;
    for (const v of voices) {
      if (!anyOpen(v.questions)) continue;
      const needed = round <= (looks[0] ?? 0) ? ARMS.length : neededArms(v.questions).size;
      seconds += needed * s.armRoundSeconds;
      v.data.push(roundLogs(rng, s, truth));
      v.rounds = round;
    }
    const j = looks.indexOf(round);
    if (j < 0) continue;
    for (const v of voices)
      look(v.questions, { look: j + 1, lastRounds: last, confidence, marginPct: s.marginPct }, (q) =>
        logsFor(q, v.data, s.design),
      );
    const next = (looks[j + 1] ?? round) - round;
    const nextSeconds = voices.reduce(
      (sum, v) => sum + (anyOpen(v.questions) ? neededArms(v.questions).size * next * s.armRoundSeconds : 0),
      0,
    );
    if (j + 1 === looks.length) why = 'looks';
    else if (seconds + nextSeconds > s.budgetSeconds) why = 'budget';
  }
  return voices.map((v) => {
    if (why) finish(v.questions, why, { confidence, marginPct: s.marginPct }, (q) => logsFor(q, v.data, s.design));
    return {
      rounds: v.rounds,
      seconds,
      questions: v.questions.map((q) => ({
        ...q,
        truth: q.kind === 'pinning' ? s.pinning : s.deployment,
      })),
    };
  });
}

/**
 * Whether a voice's one line says "pinning optional": both K-process layouts won over threads and pinned against free
 * was not resolved (null where the line says something else). `rule` 'non-inferior' is the run's (pinningSay);
 * 'unresolved', optional whenever pinning was not resolved, is the rule it replaced, kept to show it fails.
 */
export function saysPinningOptional(
  v: SimulatedVoice,
  marginPct: number,
  rule: 'non-inferior' | 'unresolved' = 'non-inferior',
): boolean | null {
  const won = (q: (typeof v.questions)[number]): boolean => q.judged?.state === 'winner' && (q.judged.ratio ?? 0) > 1;
  const deployment = v.questions.filter((q) => q.kind === 'deployment');
  const pinning = v.questions.find((q) => q.kind === 'pinning');
  if (!pinning || deployment.length < 2 || !deployment.every(won) || pinning.judged?.state === 'winner') return null;
  return rule === 'unresolved' || pinningSay(pinning.judged?.interval ?? null, marginPct).optional;
}

/** Error rates and answers over `runs` seeded simulated runs. */
export interface SimulationFigures {
  voices: number;
  /** Final intervals holding the true ratio: each, and all of a voice's together. */
  coverage: number;
  familyCoverage: number;
  /** A voice with any winner claimed where the truth is equal (meaningful when the truth is 1). */
  anyWinner: number;
  /** Questions whose truth lies at or beyond the margin, called equivalent; of those not equal, a winner of the wrong sign. */
  falseEquivalent: number;
  wrongSign: number;
  /** Of the voices whose line weighs pinning (both K-process layouts won, pinning unresolved), those said optional. */
  pinningOptional: number;
  /** A voice whose deployment questions all have an answer (winner, equivalent, non-inferior). */
  deploymentAnswered: number;
  medianRounds: number;
  /** The run's simulated wall time, median and largest, against the fixed design of 6 rounds of every arm. */
  medianSeconds: number;
  maxSeconds: number;
  fixedSeconds: number;
}

export function simulate(s: SimulationSetup, runs: number, seed: number): SimulationFigures {
  const voices = Array.from({ length: runs }, (_, i) => simulateRun(s, seed * 100_003 + i)).flat();
  const qs = voices.flatMap((v) => v.questions);
  const holds = (q: (typeof qs)[number]): boolean =>
    q.judged?.interval ? q.judged.interval[0] <= q.truth && q.truth <= q.judged.interval[1] : true;
  const answeredStates = ['winner', 'equivalent', 'non-inferior'];
  const m = s.marginPct / 100;
  const beyond = qs.filter((q) => q.truth <= 1 - m + 1e-9 || q.truth >= 1 / (1 - m) - 1e-9);
  const share = <Q>(of: Q[], test: (q: Q) => boolean): number =>
    of.length === 0 ? 0 : of.filter(test).length / of.length;
  const rounds = voices.map((v) => v.rounds).sort((a, b) => a - b);
  const seconds = voices.map((v) => v.seconds).sort((a, b) => a - b);
  return {
    voices: voices.length,
    coverage: qs.filter(holds).length / qs.length,
    familyCoverage: voices.filter((v) => v.questions.every(holds)).length / voices.length,
    anyWinner: voices.filter((v) => v.questions.some((q) => q.judged?.state === 'winner')).length / voices.length,
    falseEquivalent: share(beyond, (q) => q.judged?.state === 'equivalent'),
    wrongSign: share(
      qs.filter((q) => q.truth !== 1),
      (q) => q.judged?.state === 'winner' && (q.judged.ratio ?? 1) > 1 !== q.truth > 1,
    ),
    pinningOptional: share(
      voices.filter((v) => saysPinningOptional(v, s.marginPct) !== null),
      (v) => saysPinningOptional(v, s.marginPct) === true,
    ),
    deploymentAnswered:
      voices.filter((v) =>
        v.questions.filter((q) => q.kind === 'deployment').every((q) => answeredStates.includes(q.judged?.state ?? '')),
      ).length / voices.length,
    medianRounds: rounds[Math.floor(rounds.length / 2)] ?? 0,
    medianSeconds: seconds[Math.floor(seconds.length / 2)] ?? 0,
    maxSeconds: seconds.at(-1) ?? 0,
    fixedSeconds: s.overheadSeconds + 6 * 2 * 4 * s.armRoundSeconds,
  };
}
