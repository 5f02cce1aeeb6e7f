/**
 * node dist/bench/first-pass.js ARCHIVE.json...: is the first timed pass after the streams start
 * slower than the next one? For every arm, round and stream with two timed passes or more: the
 * first pass's compute seconds over the second's, overall, per voice, and per layout and engine (a
 * ratio is unbiased by that cost only if it is the same for both layouts). Needs 2 passes per round
 * (e.g. --rounds 3 with 6 passes). Run once with --warmup 0 and once with the default warm-up to see
 * how much warm-up the first pass needs.
 */
import { readFileSync } from 'node:fs';
import type { Archive } from '../lib/throughput/schema.js';
import { median } from '../lib/measure/stats.js';

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
  for (const l of [...new Set(ratios.map((r) => r.layout))].sort())
    console.log(
      `  ${line(
        l,
        ratios.filter((r) => r.layout === l).map((r) => r.ratio),
      )}`,
    );
}
