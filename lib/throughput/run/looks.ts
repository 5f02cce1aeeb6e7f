/**
 * A sequential run as it goes: its questions, the arms they still need, and at each look what is
 * answered and whether to go on (an open question, a look left, the next look within the budget).
 */
import type { Archive } from '../schema.js';
import { questionLevel } from '../sequential/design.js';
import { anyOpen, finish, look, neededArms, presetQuestions, type Question } from '../sequential/rule.js';
import { conditionShape } from '../sequential/shapes.js';
import { roundRatios } from '../verdict/pair.js';
import { conditionLabel } from '../arm/conditions.js';
import type { ArmPlan, Plan } from './plan.js';
import { recordArms, type RoundRun } from './rounds.js';

/** Kept for publishing the archive (seconds): the reports and the file after the last round. */
export const PUBLISH_RESERVE_MS = 20_000;

export interface LookOutcome {
  stop?: Archive['arret'];
  open: string[];
}

export const questionLabel = (q: Question<ArmPlan>): string =>
  `${q.voice} ${q.kind === 'pinning' ? `K=${q.k} pinned against free` : `${conditionLabel(q.a.condition)} against ${conditionLabel(q.b.condition)}`}`;

export class SequentialRun {
  readonly questions: Array<Question<ArmPlan>>;
  readonly looks: number[];
  private readonly confidenceOf: (voice: string) => number;

  constructor(private readonly plan: Plan & { looks: number[] }) {
    this.looks = plan.looks;
    this.questions = presetQuestions(plan.arms, (a) => conditionShape(a.condition, a.voice.name));
    const perVoice = new Map<string, number>();
    for (const q of this.questions) perVoice.set(q.voice, (perVoice.get(q.voice) ?? 0) + 1);
    this.confidenceOf = (voice) => questionLevel(this.looks, perVoice.get(voice) ?? 1).confidence;
  }

  confidence(voice: string): number {
    return this.confidenceOf(voice);
  }

  /** Arms that run in `round`: every arm up to the first look, then those an open question needs. */
  runs(arm: ArmPlan, round: number): boolean {
    if (round <= (this.looks[0] ?? 0)) return true;
    return neededArms(this.questions).has(arm);
  }

  /** A question's per-round log ratios, or null when either arm did not hold its controls. */
  logsOf(q: Question<ArmPlan>, runs: ReadonlyMap<string, RoundRun[]>): number[] | null {
    const [a, b] = recordArms([q.a, q.b], runs, this.plan.cores);
    if (!a || !b || !a.controle_tenu || !b.controle_tenu) return null;
    return roundRatios(a, b).map(Math.log);
  }

  /**
   * After `round`: a look if it is one, then whether to stop. `msPerArmRound` is what an arm-round
   * took so far; `elapsedMs` the run's time, settling included.
   */
  after(
    round: number,
    runs: ReadonlyMap<string, RoundRun[]>,
    time: { elapsedMs: number; msPerArmRound: number; budgetMs: number },
  ): LookOutcome {
    const j = this.looks.indexOf(round);
    const at = { confidence: (v: string) => this.confidence(v), marginPct: this.plan.marginPct };
    if (j >= 0)
      look(this.questions, { ...at, look: j + 1, lastRounds: this.looks.at(-1) ?? round }, (q) => this.logsOf(q, runs));
    const open = this.questions.filter((q) => !q.closed).map(questionLabel);
    if (!anyOpen(this.questions)) return { open, stop: this.closedAll(round) };
    if (j === this.looks.length - 1)
      return this.end(
        'looks',
        round,
        runs,
        `the last look, after ${round} rounds, left ${open.length} question(s) open`,
      );
    const nextRounds = (this.looks[j >= 0 ? j + 1 : this.looks.findIndex((n) => n > round)] ?? round + 1) - round;
    const armsNext = this.plan.arms.filter((a) => this.runs(a, round + 1)).length;
    const nextMs = (j >= 0 ? nextRounds : 1) * armsNext * time.msPerArmRound;
    if (time.elapsedMs + nextMs + PUBLISH_RESERVE_MS > time.budgetMs)
      return this.end(
        'time',
        round,
        runs,
        `${j >= 0 ? 'the next look' : 'another round'} (about ${Math.round(nextMs / 1000)} s) would pass ` +
          `the ${this.plan.maxMinutes}-minute budget after ${round} round(s)`,
      );
    return { open };
  }

  /** None open: all settled, or some beyond what the looks could settle (or without controls held). */
  private closedAll(round: number): Archive['arret'] {
    const n = (why: string): number => this.questions.filter((q) => q.closed === why).length;
    const settled = n('settled');
    if (settled === this.questions.length)
      return { raison: 'answered', manches: round, detail: `every question answered after ${round} round(s)` };
    const rest = [
      n('futile') > 0 ? `${n('futile')} given up (at the spread seen, not even the last look would settle it)` : '',
      n('controls') > 0 ? `${n('controls')} whose arms failed their controls` : '',
    ].filter(Boolean);
    return {
      raison: 'futile',
      manches: round,
      detail: `after ${round} round(s), ${settled} answered, ${rest.join(', ')}`,
    };
  }

  private end(
    why: 'looks' | 'time',
    round: number,
    runs: ReadonlyMap<string, RoundRun[]>,
    detail: string,
  ): LookOutcome {
    const open = this.questions.filter((q) => !q.closed).map(questionLabel);
    finish(
      this.questions,
      why === 'time' ? 'budget' : 'looks',
      { confidence: (v) => this.confidence(v), marginPct: this.plan.marginPct },
      (q) => this.logsOf(q, runs),
    );
    return { open, stop: { raison: why, manches: round, detail } };
  }
}
