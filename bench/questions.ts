/**
 * node dist/bench/questions.js A.json B.json C.json: do sequential runs agree on their questions?
 * For each question (voice, K, A over B) of each run: its answer, interval, rounds and look; then
 * contradictions (two runs' answers allowing no common ratio: winners of opposite sign, a winner
 * against an equivalence it excludes, a non-inferiority against a winner beyond it), how often one
 * run's ratio falls inside another's interval, and in how many (voice x run) every deployment
 * question was answered (a winner, an equivalence, or a non-inferiority).
 */
import { readFileSync } from 'node:fs';
import type { Archive } from '../lib/throughput/schema.js';

type Question = NonNullable<Archive['verdict']['questions']>[number];

/** The ratios an answer allows. */
function region(q: Question): [number, number] {
  if (q.reponse === 'winner') return (q.rapport ?? 1) > 1 ? [1, Infinity] : [0, 1];
  if (q.reponse === 'equivalent') return [0.94, 1 / 0.94];
  if (q.reponse === 'non-inferior') return q.protege === q.a ? [0.94, Infinity] : [0, 1 / 0.94];
  return [0, Infinity];
}

const key = (q: Question): string => `${q.voix}|${q.flux}|${q.a}|${q.b}`;
const files = process.argv.slice(2);
const runs = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Archive);
let contradictions = 0;
let inside = 0;
let quoted = 0;
const answered: boolean[] = [];
for (const [i, r] of runs.entries()) {
  const qs = r.verdict.questions ?? [];
  console.log(
    `${files[i]}: ${r.arret.manches} rounds, ${r.arret.raison}; controls ${r.controle_tenu ? 'held' : 'FAILED'}`,
  );
  for (const q of qs) {
    const ic = q.ic ? `[${q.ic.map((x) => x.toFixed(3)).join(', ')}]` : '[no interval]';
    console.log(
      `  ${q.voix} ${q.a} over ${q.b}: ${q.reponse} ${q.rapport?.toFixed(3)} ${ic}, ${q.manches} rounds, look ${q.regard}`,
    );
    for (const [j, o] of runs.entries()) {
      const other = j === i ? undefined : (o.verdict.questions ?? []).find((x) => key(x) === key(q));
      if (!other || other.rapport === null) continue;
      if (q.ic) {
        quoted += 1;
        if (other.rapport >= q.ic[0] && other.rapport <= q.ic[1]) inside += 1;
      }
      const [a0, a1] = region(q);
      const [b0, b1] = region(other);
      if (j > i && Math.max(a0, b0) > Math.min(a1, b1)) contradictions += 1;
    }
  }
  for (const v of new Set(qs.map((q) => q.voix)))
    answered.push(
      qs
        .filter((q) => q.voix === v && q.genre === 'deployment')
        .every((q) => ['winner', 'equivalent', 'non-inferior'].includes(q.reponse)),
    );
}
console.log(
  `contradictions ${contradictions}; other runs' ratios inside a run's interval ${inside} of ${quoted}; ` +
    `every deployment question answered in ${answered.filter(Boolean).length} of ${answered.length} (voice x run)`,
);
