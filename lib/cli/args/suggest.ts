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

/**
 * The closest of `names` to `typed`, if close enough to be a typo: at most 2 edits and at most a quarter of the
 * word, dashes aside (--sesion is --session; --version is not --session, two edits in seven letters).
 */
export function closest(typed: string, names: readonly string[]): string | undefined {
  const bare = (s: string): string => s.replace(/^-+/, '');
  let best: { name: string; d: number } | undefined;
  for (const name of names) {
    const d = editDistance(bare(typed), bare(name));
    if (d <= 2 && d * 4 <= Math.max(bare(typed).length, bare(name).length) && (!best || d < best.d)) best = { name, d };
  }
  return best?.name;
}
