export interface Summary {
  min: number | null;
  max: number | null;
  mediane: number | null;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** The original script's summary: min, max, median. */
export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) return { min: null, max: null, mediane: null };
  return { min: Math.min(...values), max: Math.max(...values), mediane: median(values) };
}
