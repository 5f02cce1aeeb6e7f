/** A figure for a table or report: '-' where nothing was measured, never NaN. */
export const num = (v: number | null | undefined, digits = 2): string => (v === null || v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(digits));

/** A ratio as a signed change: 1.38 -> "+38%", 0.998 -> "-0.2%" (one decimal under 10%, so a bound near 1 keeps its side). */
export const signedPercent = (ratio: number): string => {
  const pct = (ratio - 1) * 100;
  const text = Math.abs(pct) < 10 ? pct.toFixed(1) : pct.toFixed(0);
  return `${pct >= 0 ? '+' : ''}${text}%`;
};
