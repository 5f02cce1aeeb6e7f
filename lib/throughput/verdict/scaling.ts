/** Aggregate against K beside the ideal, per layout family: how far more streams still pay. */
import type { ArmRecord } from '../schema.js';
import { armCentre, armVoiceLabel } from './labels.js';

const x = (v: number | null): string => (v === null ? '-' : `x${v.toFixed(1)}`);

/**
 * Cores K streams of a family can keep busy: each stream min(T, cores), or one core when pinned;
 * never more than the machine has. The ideal at K is the single stream's aggregate times
 * usable(K) / usable(1): a T=2 stream on 2 cores already uses both, so two of them cannot double it.
 */
export function usableCores(k: number, threads: number, pinned: boolean, cores: number): number {
  const perStream = pinned ? 1 : Math.min(threads, cores);
  return Math.min(k * perStream, cores);
}

/** One line per layout family (isolation, T, affinity) that ran at two K or more. */
export function scaling(voiceArms: ArmRecord[], cores: number, groupLabel: string | undefined): string[] {
  const lines: string[] = [];
  const families = new Map<string, ArmRecord[]>();
  for (const a of voiceArms) {
    const key = `${a.isolation}|${a.fils_par_flux}|${a.affinite_demandee}`;
    families.set(key, [...(families.get(key) ?? []), a]);
  }
  for (const arms of families.values()) {
    const baseline = arms.find((a) => a.flux_simultanes === 1);
    const single = baseline ? armCentre(baseline) : null;
    if (new Set(arms.map((a) => a.flux_simultanes)).size < 2 || !baseline || single === null) continue;
    const first = arms[0] as ArmRecord;
    const family =
      `${armVoiceLabel(first)}${groupLabel ? ` [${groupLabel}]` : ''}, ${first.isolation}, T=${first.fils_par_flux}, ` +
      `${first.affinite_demandee ? 'pinned' : 'free'}`;
    // A K=1 arm whose controls failed measured something else: it cannot be what the others scale from.
    if (!baseline.controle_tenu) {
      lines.push(`${family}: no baseline, the K=1 arm's controls failed`);
      continue;
    }
    const unit = usableCores(1, first.fils_par_flux, first.affinite_demandee, cores);
    const cells = [...arms]
      .sort((a, b) => a.flux_simultanes - b.flux_simultanes)
      .map((a) => {
        const ideal = (usableCores(a.flux_simultanes, a.fils_par_flux, a.affinite_demandee, cores) / unit) * single;
        const got = armCentre(a);
        const share = got !== null ? `, ${((got / ideal) * 100).toFixed(0)}%` : '';
        return `K=${a.flux_simultanes} ${x(got)} (ideal ${x(ideal)}${share}${a.controle_tenu ? '' : ', controls failed'})`;
      });
    lines.push(`${family}: ${cells.join('; ')}`);
  }
  return lines;
}
