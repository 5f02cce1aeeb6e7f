import type { ArmRecord } from '../archive/schema.js';
import { armVerdict } from './table.js';

/** A figure for a report: '-' where nothing was measured. */
export const num = (v: number | null | undefined, digits = 2): string => (v === null || v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(digits));

export const ARM_COLUMNS = ['K', 'T', 'affinity', 'isolation', 'per stream (x real time)', 'aggregate [95% interval]', 'CPU sum', 'cores seen', 'controls'] as const;

/** One arm as the reports' table row: the same cells for Markdown and HTML. */
export function armCells(arm: ArmRecord): { cells: string[]; held: boolean } {
  const interval = arm.debit_agrege_ic95 ? ` [${num(arm.debit_agrege_ic95[0], 1)}, ${num(arm.debit_agrege_ic95[1], 1)}]` : ' [no interval]';
  const verdict = armVerdict(arm);
  return {
    held: verdict === 'OK',
    cells: [
      String(arm.flux_simultanes),
      String(arm.fils_par_flux),
      arm.affinite_demandee ? 'one core each' : 'free',
      arm.isolation,
      arm.debit_par_flux_mediane.map((v) => `x${num(v)}`).join(' '),
      `x${num(arm.debit_agrege_mediane)}${interval}`,
      `${num(arm.cpu_somme_medianes, 0)}%`,
      arm.affinites_vues.map((s) => `[${s.join(',')}]`).join(' '),
      verdict + (arm.bruyant ? ` NOISY (spread ${num((arm.dispersion_relative ?? 0) * 100, 0)}% of median)` : ''),
    ],
  };
}
