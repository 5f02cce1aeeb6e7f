/**
 * node dist/bench/first-pass.js ARCHIVE.json...: is the first timed pass after the streams start
 * slower than the next one? For every arm, round and stream with two timed passes or more: the
 * first pass's compute seconds over the second's, overall, per voice, and per layout and engine (a
 * ratio is unbiased by that cost only if it is the same for both layouts). Needs 2 passes per round
 * (e.g. --rounds 3 with 6 passes). Run once with --warmup 0 and once with the default warm-up to see
 * how much warm-up the first pass needs.
 *
 * Then, over every archive given, what that cost adds to the deployment ratio: per voice, K and
 * round (the independent unit: a round's streams share their start), the mean log first/second of
 * the 1-process x K-threads arm minus the mean over the K-process arms, with a t interval over those
 * rounds. Zero when the threaded arm pays no more on its first pass than the processes.
 */
import { readFileSync } from 'node:fs';
import type { Archive } from '../lib/throughput/schema.js';
import { Prng } from '../lib/core/prng.js';
import { median, stdev, tQuantile975 } from '../lib/measure/stats.js';

/**
 * How often a layout that pays no first-pass cost at all would still show a median within 2% of 1,
 * at this many stream rounds and this spread: the layout's own ratios, moved so their median is 1,
 * resampled (seeded, 2,000 draws). What a bound of 2% can resolve at the sample a run affords.
 */
function withinTwoPercentByChance(ratios: readonly number[]): number {
  const shift = median(ratios);
  const centered = ratios.map((r) => r / shift);
  const prng = new Prng(20261202);
  let inside = 0;
  const draws = 2000;
  for (let d = 0; d < draws; d += 1) {
    const sample = centered.map(() => centered[Math.floor(prng.next() * centered.length)] as number);
    if (Math.abs(median(sample) - 1) <= 0.02) inside += 1;
  }
  return inside / draws;
}

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Per voice, K and round: log first/second of the threaded arm minus the K-process arms' mean. */
function threadedExcess(a: Archive): number[] {
  const perArm = new Map<string, Map<number, number[]>>();
  for (const b of a.bras) {
    const kind =
      b.fils_par_flux > 1 && b.flux_simultanes === 1
        ? 'threads'
        : b.fils_par_flux === 1 && b.flux_simultanes > 1
          ? 'processes'
          : '';
    if (kind === '') continue;
    const k = kind === 'threads' ? b.fils_par_flux : b.flux_simultanes;
    const key = `${b.voix}|${k}|${kind}|${b.affinite_demandee ? 'pinned' : 'free'}`;
    const rounds = perArm.get(key) ?? new Map<number, number[]>();
    for (const e of b.enfants)
      for (const round of new Set(e.passes.map((p) => p.manche))) {
        const [first, second] = e.passes.filter((p) => p.manche === round).sort((x, y) => x.passe - y.passe);
        if (first && second)
          rounds.set(round, [...(rounds.get(round) ?? []), Math.log(first.temps_calcul_s / second.temps_calcul_s)]);
      }
    perArm.set(key, rounds);
  }
  const out: number[] = [];
  for (const [key, rounds] of perArm) {
    const [voice, k, kind] = key.split('|');
    if (kind !== 'threads') continue;
    const others = [...perArm].filter(([o]) => o.startsWith(`${voice}|${k}|processes|`)).map(([, r]) => r);
    for (const [round, logs] of rounds) {
      const proc = others.map((r) => r.get(round)).filter((l): l is number[] => l !== undefined && l.length > 0);
      if (proc.length > 0) out.push(mean(logs) - mean(proc.map(mean)));
    }
  }
  return out;
}

const excess: number[] = [];

for (const file of process.argv.slice(2)) {
  const a = JSON.parse(readFileSync(file, 'utf8')) as Archive;
  const ratios: Array<{ voice: string; layout: string; ratio: number }> = [];
  for (const b of a.bras) {
    for (const e of b.enfants) {
      for (const round of new Set(e.passes.map((p) => p.manche))) {
        const [first, second] = e.passes.filter((p) => p.manche === round).sort((x, y) => x.passe - y.passe);
        const layout = `K=${b.flux_simultanes} T=${b.fils_par_flux} ${b.affinite_demandee ? 'pinned' : 'free'} ${b.isolation}, ${b.moteur ?? 'onnxruntime'} ${b.portee ?? 'model'}`;
        if (first && second)
          ratios.push({ voice: b.voix, layout, ratio: first.temps_calcul_s / second.temps_calcul_s });
      }
    }
  }
  const line = (label: string, r: number[]): string =>
    `${label}: median ${median(r).toFixed(3)}, ${r.filter((x) => x > 1).length} of ${r.length} slower, range ${Math.min(...r).toFixed(3)}-${Math.max(...r).toFixed(3)}`;
  console.log(
    `${file} (warm-up ${a.protocole.passes_echauffement}, ${a.arret.manches} rounds): first timed pass / second, compute seconds`,
  );
  console.log(
    `  ${line(
      'all',
      ratios.map((r) => r.ratio),
    )}`,
  );
  for (const v of new Set(ratios.map((r) => r.voice)))
    console.log(
      `  ${line(
        v,
        ratios.filter((r) => r.voice === v).map((r) => r.ratio),
      )}`,
    );
  for (const l of [...new Set(ratios.map((r) => r.layout))].sort()) {
    const r = ratios.filter((x) => x.layout === l).map((x) => x.ratio);
    const chance = withinTwoPercentByChance(r);
    console.log(`  ${line(l, r)}; with no cost, within 2% of 1 by chance ${(100 * chance).toFixed(0)}% of the time`);
  }
  excess.push(...threadedExcess(a));
}
if (excess.length >= 2) {
  const m = mean(excess);
  const half = (tQuantile975(excess.length - 1) * (stdev(excess) ?? 0)) / Math.sqrt(excess.length);
  const pct = (x: number): string => `${(100 * (Math.exp(x) - 1)).toFixed(1)}%`;
  console.log(
    `the threaded arm's first-pass cost beyond the processes' (what it adds to the deployment ratio), ${excess.length} rounds: ` +
      `${pct(m)} [${pct(m - half)}, ${pct(m + half)}] (95%, t over rounds); ${excess.filter((x) => x > 0).length} of ${excess.length} rounds above 0`,
  );
}
