/** Whether pinning may be called optional: the rule the decision line and the sequential simulation share. */

/**
 * What the one line may say of pinning where a layout won pinned and free and neither was resolved over the other.
 * "Pinning optional" only where free is shown not slower than pinned by more than the margin (the upper bound of
 * pinned over free at most 1 / (1 - m): non-inferior or equivalent); otherwise the two are not told apart, and free
 * may be up to `freeSlowerPct` slower (null: never compared). No difference shown is not equivalence.
 */
export function pinningSay(
  pinnedOverFree: [number, number] | null,
  marginPct: number,
): { optional: true } | { optional: false; freeSlowerPct: number | null } {
  if (pinnedOverFree === null) return { optional: false, freeSlowerPct: null };
  if (pinnedOverFree[1] <= 1 / (1 - marginPct / 100)) return { optional: true };
  return { optional: false, freeSlowerPct: Math.ceil((1 - 1 / pinnedOverFree[1]) * 100 - 1e-9) };
}
