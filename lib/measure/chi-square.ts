/**
 * The chi-square distribution, for an upper confidence bound on a variance read from a few runs: the regularized lower
 * incomplete gamma by its power series (the quantiles this tool asks for are small), the quantile by bisection.
 */
import { bisectQuantile, logGamma } from './student.js';

/** P(a, x), the regularized lower incomplete gamma function. */
function lowerGamma(a: number, x: number): number {
  if (x <= 0) return 0;
  let term = 1 / a;
  let sum = term;
  for (let n = 1; n < 5000; n += 1) {
    term *= x / (a + n);
    sum += term;
    if (term < sum * 1e-16) break;
  }
  return Math.min(1, Math.exp(-x + a * Math.log(x) - logGamma(a)) * sum);
}

/** P(X <= x) for chi-square with `df` degrees of freedom. */
export function chiSquareCdf(x: number, df: number): number {
  return lowerGamma(df / 2, x / 2);
}

/** The `p` quantile of chi-square with `df` degrees of freedom (0 < p < 1). */
export function chiSquareQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`a quantile's probability must be between 0 and 1, got ${p}`);
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be > 0, got ${df}`);
  return bisectQuantile((x) => chiSquareCdf(x, df), p, Math.max(1, df));
}
