/** "Did you mean": the flag or command closest to what was typed, by edit distance. */

/** Levenshtein distance: insertions, deletions and substitutions, one each. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1)
      row[j] = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return previous[b.length] as number;
}

/** The closest of `names` to `typed`, if close enough to be a typo (at most 2 edits, and under a third of it). */
export function closest(typed: string, names: readonly string[]): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const name of names) {
    const d = editDistance(typed, name);
    if (d <= 2 && d * 3 < Math.max(typed.length, name.length) && (!best || d < best.d)) best = { name, d };
  }
  return best?.name;
}
