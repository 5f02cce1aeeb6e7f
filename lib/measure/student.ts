/**
 * Student's t distribution at any level, for intervals adjusted over a family of comparisons (the
 * 95% table in stats.ts covers one comparison only). The regularized incomplete beta function by
 * its continued fraction (Lentz), the quantile by bisection: both small, both tested on table values.
 */

export function logGamma(x: number): number {
  // Lanczos approximation (g = 7, 9 terms), accurate to ~1e-13 for x > 0.
  const c = [
    0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531, -176.6150291621406,
    12.507343278686905, -0.13857109526572012, 9.984369578019572e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = c[0] as number;
  const t = z + 7.5;
  for (let i = 1; i < 9; i += 1) a += (c[i] as number) / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The continued fraction of the incomplete beta function, by Lentz's method. */
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let h = d;
  for (let m = 1; m <= 300; m += 1) {
    for (const num of [
      (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m)),
      (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1)),
    ]) {
      d = 1 + num * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + num / c;
      if (Math.abs(c) < tiny) c = tiny;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-15) break;
  }
  return h;
}

/** I_x(a, b), the regularized incomplete beta function. */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(a, b, x)) / a : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** P(T <= t) for Student's t with `df` degrees of freedom. */
export function studentCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** The `p` quantile of Student's t with `df` degrees of freedom (0 < p < 1). */
export function studentQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`a quantile's probability must be between 0 and 1, got ${p}`);
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be > 0, got ${df}`);
  if (p < 0.5) return -studentQuantile(1 - p, df);
  return bisectQuantile((x) => studentCdf(x, df), p, 1);
}

/** The x >= 0 where an increasing `cdf` reaches `p`, by bisection from [0, `hi`] (doubled until it holds x). */
export function bisectQuantile(cdf: (x: number) => number, p: number, hi: number): number {
  let lo = 0;
  let top = hi;
  while (cdf(top) < p) top *= 2;
  for (let i = 0; i < 200 && top - lo > 1e-12 * top; i += 1) {
    const mid = (lo + top) / 2;
    if (cdf(mid) < p) lo = mid;
    else top = mid;
  }
  return (lo + top) / 2;
}

/** Two-sided p-value of a t statistic. */
export function studentTwoSidedP(t: number, df: number): number {
  return Math.min(1, 2 * (1 - studentCdf(Math.abs(t), df)));
}
