import path from 'node:path';
import type { Archive } from '../../lib/archive/schema.js';
import { median } from '../../lib/measure/stats.js';
import { runArms } from '../../lib/run/run-arms.js';
import { sharedVoicesDir, tempDir } from './paths.js';

/**
 * A small real run (synthetic voice, a one-word text): K=1 and K=2, free and pinned, so every
 * chart kind has data. Made once per test file.
 */
let made: Promise<{ archive: Archive; path: string }> | undefined;
export function realArchive(): Promise<{ archive: Archive; path: string }> {
  made ??= runArms({
    settleSeconds: 0,
    passes: 3,
    warmup: 0,
    voices: ['synthetic-siwis-medium'],
    streams: [1, 2],
    affinity: 'both',
    lines: ['Oui.'],
    outDir: path.join(tempDir('report-run'), 'm'),
    voicesDir: sharedVoicesDir(),
  }).then((r) => ({ archive: r.archive, path: r.path }));
  return made;
}

/** The same archive with one arm's cpu_sum control failed, figures and all. */
export function withFailedControl(a: Archive): Archive {
  const copy = structuredClone(a);
  const arm = copy.bras.find((b) => b.flux_simultanes === 2);
  if (!arm) throw new Error('fixture has no K=2 arm');
  arm.controles = arm.controles.filter((c) => c.name !== 'cpu_sum');
  arm.controles.push({ name: 'cpu_sum', threshold: 150, measured: 120.5, unit: '%', held: false, message: 'the streams used 120.5% together, 29.5 points short of 150%' });
  arm.controle_tenu = false;
  copy.controle_tenu = false;
  return copy;
}

/** What each chart of the report must hold, counted from the archive independently of the chart code. */
export function expectedMarks(a: Archive): Map<string, number> {
  const out = new Map<string, number>();
  const voice = 'synthetic-siwis-medium';
  const arms = a.bras;
  out.set('drift', arms.reduce((n, b) => n + b.synchro.filter((s) => !s.echauffement && s.etendue_s > 0 && s.audio_total_s > 0).length, 0));
  out.set(`throughput-${voice}`,
    arms.filter((b) => b.debit_agrege_passe_mediane !== null).length
    + arms.filter((b) => b.debit_agrege_ic95 !== null).length
    + arms.reduce((n, b) => n + b.debit_par_flux_mediane.filter((v) => v !== null).length, 0));
  // The ideal line is one mark; one dot per arm.
  out.set(`scaling-${voice}`, 1 + arms.filter((b) => b.debit_agrege_passe_mediane !== null).length);
  out.set(`skew-${voice}`, arms.filter((b) => b.flux_simultanes >= 2).reduce((n, b) => n + b.synchro.filter((s) => !s.echauffement).length, 0));
  arms.forEach((b, i) => {
    const limits = b.controles.filter((c) => c.name === 'cpu_max' || c.name === 'cpu_sum').length;
    out.set(`cpu-${voice}-${i}`, b.enfants.reduce((n, c) => n + c.passes.filter((p) => p.cpu_pourcent !== null).length, 0) + limits);
  });
  return out;
}

/**
 * Recomputed from two archives' own figures, not from compare's verdicts: is there an arm, its
 * controls held and its own spread within the tolerance in both runs, whose aggregate or
 * per-stream median throughput fell by more than the tolerance? compare must exit 4 exactly then.
 */
type Arm = Archive['bras'][number];
const armKeyOf = (x: Arm): string => [x.voix, x.flux_simultanes, x.fils_par_flux, x.affinite_demandee, x.isolation].join(' ');
// An unknown spread (too few passes) is not steady: compare calls it NOISY.
const steady = (x: Arm, tolerancePercent: number): boolean => x.dispersion_relative !== null && x.dispersion_relative * 100 <= tolerancePercent;

/** Pairs of arms compare can count: same key, controls held and own spread within the tolerance in both runs. */
function countablePairs(a: Archive, b: Archive, tolerancePercent: number): Array<[Arm, Arm]> {
  return a.bras.flatMap((x): Array<[Arm, Arm]> => {
    const y = b.bras.find((z) => armKeyOf(z) === armKeyOf(x));
    return y && x.controle_tenu && y.controle_tenu && steady(x, tolerancePercent) && steady(y, tolerancePercent) ? [[x, y]] : [];
  });
}

export function throughputFellBeyond(a: Archive, b: Archive, tolerancePercent: number): boolean {
  const perStream = (x: Arm): number | null => (x.debit_par_flux_mediane.some((v) => v === null) ? null : median(x.debit_par_flux_mediane as number[]));
  const fell = (va: number | null, vb: number | null): boolean => va !== null && vb !== null && va > 0 && ((vb - va) / va) * 100 < -tolerancePercent;
  return countablePairs(a, b, tolerancePercent).some(([x, y]) => fell(x.debit_agrege_passe_mediane, y.debit_agrege_passe_mediane) || fell(perStream(x), perStream(y)));
}

/** Recomputed the same way: could compare count any arm at all? If not, it must exit 2. */
export function anyArmComparable(a: Archive, b: Archive, tolerancePercent: number): boolean {
  return countablePairs(a, b, tolerancePercent).length > 0;
}
