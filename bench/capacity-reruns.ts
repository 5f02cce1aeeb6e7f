/**
 * node dist/bench/capacity-reruns.js A.json B.json C.json: do capacity runs of one workload agree?
 * For every (voice, layout) and every ordered pair of runs, whether run A's "a rerun may answer"
 * holds run B's published answer; per run, how many answers were published, the fewest whole trials
 * one rests on, the widest S interval (as a share of S), the drift seen, the steal, the wall time;
 * and each run's plan-on lines.
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
      const y = b.capacite.find((e) => key(e) === key(x) && published(e));
      if (!y) continue;
      pairs += 1;
      const [lo, hi] = x.prevision as [number, number];
      if (y.flux_max_sans_trou >= lo && y.flux_max_sans_trou <= hi) held += 1;
      else misses.push(`run ${i + 1}'s ${lo} to ${hi} against run ${j + 1}'s ${y.flux_max_sans_trou} (${key(x)})`);
    }
  }),
);
process.stdout.write(`each run's prediction held another's published answer in ${held} of ${pairs} pairs\n`);
for (const m of misses) process.stdout.write(`  miss: ${m}\n`);

runs.forEach((a, i) => {
  const pub = a.capacite.filter(published);
  // What an answer rests on: whole trials at its K or above that served with no gap (verdict.ts's trialsShort).
  const support = (e: CapacityEntry): number =>
    e.preuves.filter((p) => p.flux >= e.flux_tenu_essais).reduce((n, p) => n + p.essais_tenus, 0);
  const fewest = Math.min(...pub.map(support));
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
      `whole trials at or above its K under one ${Number.isFinite(fewest) ? fewest : '-'}; widest S interval +/-${(widest * 100).toFixed(0)}% of S; ` +
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
