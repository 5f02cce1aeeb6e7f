/**
 * node dist/bench/capacity-reruns.js A.json B.json C.json: do capacity runs of one workload agree?
 * For every (voice, layout) and every ordered pair of runs, whether run A's "a rerun may answer"
 * holds run B's answer (an unpublished one a miss); whether each run's number to plan on is at most
 * the other runs' answers with its layout and at least 60% of the least of them; the spread of S
 * between runs; per run, how many answers were published, the fewest rounds one rests on, answers at
 * the sweep's ceiling, the widest S interval (as a share of S), the drift seen, the steal, the wall
 * time; and each run's plan-on lines.
 */
import { readFileSync } from 'node:fs';
import { CapacityArchiveSchema, type CapacityArchive, type CapacityEntry } from '../lib/capacity/archive/schema.js';

const files = process.argv.slice(2);
if (files.length < 2) {
  process.stderr.write('usage: node dist/bench/capacity-reruns.js A.json B.json [C.json ...]\n');
  process.exit(2);
}
const runs: CapacityArchive[] = files.map((f) => CapacityArchiveSchema.parse(JSON.parse(readFileSync(f, 'utf8'))));
const published = (e: CapacityEntry): boolean => (e.essais_manquants ?? 0) === 0 && e.prevision !== null;
const key = (e: CapacityEntry): string => `${e.voix} | ${e.disposition}`;

let pairs = 0;
let held = 0;
const misses: string[] = [];
runs.forEach((a, i) =>
  runs.forEach((b, j) => {
    if (i === j) return;
    for (const x of a.capacite.filter(published)) {
      const y = b.capacite.find((e) => key(e) === key(x));
      if (!y) continue;
      pairs += 1;
      const [lo, hi] = x.prevision as [number, number];
      // An answer the other run did not publish is a miss: the range promised one.
      if (published(y) && y.flux_max_sans_trou >= lo && y.flux_max_sans_trou <= hi) held += 1;
      else
        misses.push(
          `run ${i + 1}'s ${lo} to ${hi} against run ${j + 1}'s ${published(y) ? y.flux_max_sans_trou : 'unpublished answer'} (${key(x)})`,
        );
    }
  }),
);
process.stdout.write(
  `each run's prediction held another's answer in ${held} of ${pairs} pairs (unpublished: a miss)\n`,
);
for (const m of misses) process.stdout.write(`  miss: ${m}\n`);

// The number to plan on against the other runs' answers with that layout: safe (at most theirs), useful (at least
// 60% of the least of every run's answer with it).
let planPairs = 0;
let safe = 0;
let useful = 0;
let planned = 0;
let voiceRuns = 0;
runs.forEach((a, i) =>
  (a.plans ?? []).forEach((p) => {
    voiceRuns += 1;
    if (p.flux === null || p.disposition === null) return;
    planned += 1;
    const answers = runs.map((r) => r.capacite.find((e) => e.voix === p.voix && e.disposition === p.disposition));
    const least = Math.min(...answers.map((e) => e?.flux_max_sans_trou ?? 0));
    if (p.flux >= 0.6 * least) useful += 1;
    answers.forEach((e, j) => {
      if (j === i || !e) return;
      planPairs += 1;
      if (published(e) && e.flux_max_sans_trou >= (p.flux as number)) safe += 1;
    });
  }),
);
process.stdout.write(
  `plan-on numbers: ${planned} of ${voiceRuns} voice-runs; at most the other runs' answers with that layout in ` +
    `${safe} of ${planPairs} pairs; at least 60% of the least run's answer in ${useful} of ${planned}\n`,
);

// The drift between runs: per (voice, layout), the sd of log S over the runs that measured it.
for (const k of [...new Set(runs.flatMap((r) => r.capacite.map(key)))]) {
  const logs = runs.flatMap((r) => {
    const s = r.capacite.find((e) => key(e) === k)?.debit_vivant;
    return s ? [Math.log(s)] : [];
  });
  if (logs.length < 2) continue;
  const m = logs.reduce((x, y) => x + y, 0) / logs.length;
  const sd = Math.sqrt(logs.reduce((x, y) => x + (y - m) ** 2, 0) / (logs.length - 1));
  process.stdout.write(
    `  S between runs, ${k}: ${logs.map((l) => `x${Math.exp(l).toFixed(2)}`).join(', ')} (sd of log ${sd.toFixed(3)})\n`,
  );
}

runs.forEach((a, i) => {
  const pub = a.capacite.filter(published);
  // What an answer rests on: rounds with a whole trial held at its K or above (verdict.ts's roundsShort).
  const support = (e: CapacityEntry): number =>
    new Set(
      a.essais
        .filter(
          (t) =>
            t.voix === e.voix &&
            t.disposition === e.disposition &&
            t.controle_tenu &&
            t.tenu &&
            t.flux >= e.flux_tenu_essais,
        )
        .map((t) => t.manche),
    ).size;
  const fewest = Math.min(...pub.map(support));
  const atCeiling = a.capacite.filter((e) => e.borne === 'flux_max').length;
  const widest = Math.max(
    0,
    ...pub.flatMap((e) =>
      e.debit_vivant && e.debit_vivant_ic95
        ? [Math.max(e.debit_vivant / e.debit_vivant_ic95[0] - 1, e.debit_vivant_ic95[1] / e.debit_vivant - 1)]
        : [],
    ),
  );
  const d = a.derive;
  process.stdout.write(
    `run ${i + 1} (${files[i]}): ${a.duree_s} s; ${pub.length} of ${a.capacite.length} answers published, the fewest ` +
      `rounds under one ${Number.isFinite(fewest) ? fewest : '-'}; ${atCeiling} at the sweep's ceiling; widest S interval +/-${(widest * 100).toFixed(0)}% of S; ` +
      `drift ${d ? `${d.vue ? 'seen' : 'not seen'}, ${((d.ecart ?? 0) * 100).toFixed(0)}%` : '-'}; steal at most ` +
      `${d?.vol_cpu_max === null || d?.vol_cpu_max === undefined ? '-' : `${(d.vol_cpu_max * 100).toFixed(1)}%`}; controls ${a.controle_tenu ? 'held' : 'FAILED'}\n`,
  );
  for (const e of a.capacite)
    process.stdout.write(
      `  ${key(e)}: ${published(e) ? `${e.flux_max_sans_trou} [${e.prevision?.join('-')}]` : `not published (${e.essais_manquants ?? '?'} more)`}` +
        `, S ${e.debit_vivant?.toFixed(2) ?? '-'} ${e.debit_vivant_ic95 ? `[${e.debit_vivant_ic95.map((x) => x.toFixed(2)).join(', ')}]` : ''}\n`,
    );
  for (const p of a.plans ?? []) process.stdout.write(`  ${p.phrase}\n`);
});
