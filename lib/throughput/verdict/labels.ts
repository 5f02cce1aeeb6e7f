/** Words and figures the verdict and the reports share: who is who, and an arm's one centre. */
import type { ArmRecord } from '../schema.js';

/** A voice as reports name it: a synthetic stand-in always says so. */
export function armVoiceLabel(arm: Pick<ArmRecord, 'voix' | 'voix_synthetique'>): string {
  return arm.voix_synthetique && !arm.voix.includes('synthetic') ? `${arm.voix} (synthetic)` : arm.voix;
}

/** A ratio as a signed change: 1.38 -> "+38%", 0.998 -> "-0.2%" (one decimal under 10%, so a bound near 1 keeps its side). */
export const signedPercent = (ratio: number): string => {
  const pct = (ratio - 1) * 100;
  const text = Math.abs(pct) < 10 ? pct.toFixed(1) : pct.toFixed(0);
  return `${pct >= 0 ? '+' : ''}${text}%`;
};

/**
 * The figure an arm is ranked, tabled and charted by: the centre its interval is built around
 * (geometric mean of its round figures); archives from before it have the pass median only.
 */
export function armCentre(arm: Pick<ArmRecord, 'debit_agrege_centre' | 'debit_agrege_passe_mediane'>): number | null {
  return arm.debit_agrege_centre !== undefined ? arm.debit_agrege_centre : arm.debit_agrege_passe_mediane;
}

/** How a layout serves K streams, in words. */
export function layoutLabel(
  arm: Pick<ArmRecord, 'isolation' | 'affinite_demandee' | 'flux_simultanes' | 'fils_par_flux'>,
  k: number,
): string {
  const unit = arm.isolation === 'thread' ? 'thread stream' : 'process';
  const pin = arm.affinite_demandee ? 'pinned' : 'free';
  if (arm.flux_simultanes === 1) {
    const base = `1 ${unit} x ${arm.fils_par_flux} thread${arm.fils_par_flux > 1 ? 's' : ''}${arm.affinite_demandee ? ', pinned' : ''}`;
    return k > 1 ? `${base}, serving the ${k} one after another` : base;
  }
  return `${arm.flux_simultanes} ${unit}${arm.isolation === 'thread' ? 's' : 'es'} x ${arm.fils_par_flux} thread${arm.fils_par_flux > 1 ? 's' : ''}, ${pin}`;
}

/** The engines as sentences name them. */
export const ENGINE_NAMES: Readonly<Record<'onnxruntime' | 'sherpa', string>> = {
  onnxruntime: 'onnxruntime-node',
  sherpa: 'sherpa-onnx',
};
