/**
 * node dist/bench/reruns.js A.json B.json C.json [--wall-seconds a,b,c]: do runs of the same
 * experiment agree? For every layout comparison (voice, K, pair of layouts) it counts the claims
 * each run resolves, how many the others resolve the same way, contradictions, and how often one
 * run's ratio falls inside another's interval; and per run, whether the deployment question (K
 * processes against one process with K threads) was resolved, and timed pass seconds over wall.
 * Archives without layout ratios (before rounds) are read as their verdict then read them: two arms
 * resolved when their intervals do not overlap, the ratio's interval bounded by the arms' intervals.
 */
import { readFileSync } from 'node:fs';
import type { Archive, ArmRecord } from '../lib/throughput/schema.js';
import { layoutLabel } from '../lib/throughput/verdict/index.js';

interface Claim {
  key: string;
  voice: string;
  k: number;
  a: string;
  b: string;
  ratio: number;
  interval: [number, number] | null;
  resolved: boolean;
}

function pairsOf(a: Archive): Claim[] {
  const out: Claim[] = [];
  for (const c of a.verdict.comparaisons) {
    const recorded = (
      c as {
        paires?: Array<{
          a: string;
          b: string;
          rapport: number | null;
          rapport_ic95: [number, number] | null;
          tranche: boolean;
        }>;
      }
    ).paires;
    if (recorded) {
      for (const p of recorded)
        if (p.rapport !== null)
          out.push(
            claim({ voice: c.voix, k: c.flux }, p, { ratio: p.rapport, interval: p.rapport_ic95, resolved: p.tranche }),
          );
      continue;
    }
    const rows = c.classement;
    rows.forEach((x, i) =>
      rows.slice(i + 1).forEach((y) => {
        if (x.debit_agrege === null || y.debit_agrege === null) return;
        const apart = x.ic95 !== null && y.ic95 !== null && (x.ic95[0] > y.ic95[1] || y.ic95[0] > x.ic95[1]);
        out.push(
          claim(
            { voice: c.voix, k: c.flux },
            { a: x.disposition, b: y.disposition },
            {
              ratio: x.debit_agrege / y.debit_agrege,
              interval: x.ic95 && y.ic95 ? [x.ic95[0] / y.ic95[1], x.ic95[1] / y.ic95[0]] : null,
              resolved: apart,
            },
          ),
        );
      }),
    );
  }
  return out;
}

/** The same pair always under one key, A and B in name order, the ratio turned to match. */
function claim(
  { voice, k }: { voice: string; k: number },
  { a, b }: { a: string; b: string },
  { ratio, interval, resolved }: { ratio: number; interval: [number, number] | null; resolved: boolean },
): Claim {
  if (a <= b) return { key: `${voice}|${k}|${a}|${b}`, voice, k, a, b, ratio, interval, resolved };
  return {
    key: `${voice}|${k}|${b}|${a}`,
    voice,
    k,
    a: b,
    b: a,
    ratio: 1 / ratio,
    interval: interval ? [1 / interval[1], 1 / interval[0]] : null,
    resolved,
  };
}

function deploymentResolved(a: Archive, claims: Claim[]): Array<{ voice: string; resolved: boolean; text: string }> {
  return a.verdict.comparaisons
    .filter((c) => c.flux > 1)
    .map((c) => {
      const arms = a.bras.filter((b) => b.voix === c.voix && b.controle_tenu);
      const label = (b: ArmRecord): string => layoutLabel(b, c.flux);
      const parallel = arms.filter((b) => b.flux_simultanes === c.flux).map(label);
      const single = arms.find((b) => b.flux_simultanes === 1 && b.fils_par_flux === c.flux);
      const found = claims.filter(
        (x) =>
          x.voice === c.voix &&
          x.k === c.flux &&
          single &&
          [x.a, x.b].includes(label(single)) &&
          parallel.some((p) => [x.a, x.b].includes(p)),
      );
      const resolved = found.some((x) => x.resolved);
      return {
        voice: c.voix,
        resolved,
        text: found
          .map(
            (x) =>
              `${x.a} / ${x.b} = ${x.ratio.toFixed(3)}${x.interval ? ` [${x.interval[0].toFixed(3)}, ${x.interval[1].toFixed(3)}]` : ''}${x.resolved ? ' resolved' : ''}`,
          )
          .join('; '),
      };
    });
}

function timedShare(a: Archive, wallSeconds: number | undefined): string {
  const timed = a.bras.reduce(
    (sum, b) =>
      sum +
      b.synchro
        .filter((s) => !s.echauffement)
        .reduce((x, s) => x + (Math.max(...s.fins_ms) - Math.min(...s.departs_ms)) / 1000, 0),
    0,
  );
  const settle = a.machine_detail.attente?.attendu_s ?? 0;
  return wallSeconds === undefined
    ? `${timed.toFixed(1)} s timed`
    : `${timed.toFixed(1)} s timed / ${(wallSeconds - settle).toFixed(1)} s wall without the ${settle} s settle = ${(timed / (wallSeconds - settle)).toFixed(3)}`;
}

const args = process.argv.slice(2);
const wallAt = args.indexOf('--wall-seconds');
const walls = wallAt >= 0 ? (args[wallAt + 1] ?? '').split(',').map(Number) : [];
const files = args.filter((_, i) => wallAt < 0 || (i !== wallAt && i !== wallAt + 1));
const runs = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as Archive);
const claims = runs.map(pairsOf);
let resolvedClaims = 0;
let agreeing = 0;
let contradictions = 0;
let inside = 0;
let insideOf = 0;
claims.forEach((mine, i) => {
  for (const c of mine) {
    claims.forEach((theirs, j) => {
      if (i === j) return;
      const other = theirs.find((x) => x.key === c.key);
      if (other?.interval) {
        insideOf += 1;
        if (other.interval[0] <= c.ratio && c.ratio <= other.interval[1]) inside += 1;
      }
      if (!c.resolved) return;
      resolvedClaims += 1;
      if (other?.resolved && other.ratio > 1 === c.ratio > 1) agreeing += 1;
      if (other?.resolved && other.ratio > 1 !== c.ratio > 1) contradictions += 1;
    });
  }
});
console.log(`runs: ${files.join(' ')}`);
console.log(
  `resolved claims checked against the other runs: ${resolvedClaims}; resolved the same way there: ${agreeing} (${((agreeing / Math.max(1, resolvedClaims)) * 100).toFixed(0)}%); contradicted: ${contradictions}`,
);
console.log(
  `a run's ratio inside another run's 95% interval: ${inside} of ${insideOf} (${((inside / Math.max(1, insideOf)) * 100).toFixed(0)}%)`,
);
runs.forEach((a, i) => {
  console.log(`run ${i + 1}: ${timedShare(a, walls[i])}; controls ${a.controle_tenu ? 'held' : 'FAILED'}`);
  for (const d of deploymentResolved(a, claims[i] ?? []))
    console.log(`  deployment question, ${d.voice}: ${d.resolved ? 'resolved' : 'NOT resolved'}: ${d.text}`);
});
