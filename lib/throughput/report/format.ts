/** A figure for a table or report: '-' where nothing was measured, never NaN. */
export const num = (v: number | null | undefined, digits = 2): string =>
  v === null || v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(digits);

export { signedPercent } from '../verdict/labels.js';
