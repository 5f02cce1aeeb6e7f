/**
 * A sequential run's questions as the archive keeps them: each judged on every round both its arms
 * ran (their last look), at the run's level; one left open says what it can, and what more it needs.
 */
import type { Archive } from '../schema.js';
import { closeUnsettled, judgeLogs, type Judged } from '../sequential/answer.js';
import type { Question } from '../sequential/rule.js';
import { pairAnswer } from '../verdict/decision.js';
import { layoutLabel } from '../verdict/labels.js';
import { withinMargin } from '../verdict/pair.js';
import { conditionLabel } from '../arm/conditions.js';
import type { SequentialRun } from './looks.js';
import type { ArmPlan, Plan } from './plan.js';
import { recordArms, type RoundRun } from './rounds.js';

type QuestionRecord = NonNullable<Archive['verdict']['questions']>[number];

function asPair(a: string, b: string, j: Judged, confidence: number, marginPct: number) {
  const tranche = j.interval !== null && (j.interval[0] > 1 || j.interval[1] < 1);
  const equivalent = withinMargin(j.interval, marginPct);
  return {
    a,
    b,
    rapport: j.ratio,
    rapport_ic95: null,
    tranche,
    equivalent,
    famille: { taille: 1, confiance: confidence, ic: j.interval, tranche, equivalent },
  };
}

function record(
  seq: SequentialRun,
  q: Question<ArmPlan>,
  runs: ReadonlyMap<string, RoundRun[]>,
  plan: Plan,
): QuestionRecord {
  const [ra, rb] = recordArms([q.a, q.b], runs, plan.cores);
  const a = ra ? layoutLabel(ra, q.k) : conditionLabel(q.a.condition);
  const b = rb ? layoutLabel(rb, q.k) : conditionLabel(q.b.condition);
  const confidence = seq.confidence(q.voice);
  const logs = seq.logsOf(q, runs);
  const base = { voix: q.voice, flux: q.k, genre: q.kind, a, b, confiance: confidence, fin: q.closed ?? 'looks' };
  const regard = q.closed === 'budget' || q.closed === 'looks' ? null : (q.look ?? null);
  if (logs === null)
    return {
      ...base,
      reponse: 'controls-failed',
      rapport: null,
      ic: null,
      manches: 0,
      regard,
      phrase: `${q.voice}: ${a} against ${b}: an arm failed its controls, no answer`,
    };
  let j = judgeLogs(logs, confidence, plan.marginPct);
  if (j.state === 'open') j = closeUnsettled(j, logs, confidence, plan.marginPct);
  const more =
    j.state === 'not-resolved' && j.moreRounds ? `: about ${j.moreRounds} more round(s) would settle it` : '';
  return {
    ...base,
    reponse: j.state === 'open' ? 'not-resolved' : j.state,
    ...(j.protects ? { protege: j.protects === 'a' ? a : b } : {}),
    rapport: j.ratio,
    ic: j.interval,
    manches: j.rounds,
    regard,
    manches_en_plus: j.moreRounds ?? null,
    phrase: `${q.voice}, ${q.k} streams: ${pairAnswer(asPair(a, b, j, confidence, plan.marginPct), plan.marginPct)}${more} (${j.rounds} rounds)`,
  };
}

export function questionRecords(
  seq: SequentialRun,
  runs: ReadonlyMap<string, RoundRun[]>,
  plan: Plan,
): QuestionRecord[] {
  return seq.questions.map((q) => record(seq, q, runs, plan));
}
