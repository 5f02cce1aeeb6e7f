/**
 * Math.max and Math.min over an array of any length: spreading a long array (an archive's) into
 * Math.max throws a RangeError. Same results: -Infinity / Infinity when empty, NaN when any is NaN.
 */
export const maxOf = (values: Iterable<number>): number => {
  let out = Number.NEGATIVE_INFINITY;
  for (const v of values) out = Math.max(out, v);
  return out;
};

export const minOf = (values: Iterable<number>): number => {
  let out = Number.POSITIVE_INFINITY;
  for (const v of values) out = Math.min(out, v);
  return out;
};
