/**
 * A small seeded generator (sfc32 seeded through splitmix32) so the same seed gives the same
 * voice byte for byte on every machine. Not for cryptography.
 */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i += 1) this.nextUint32();
  }

  nextUint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Fill with uniform values in [-bound, bound). */
  fillUniform(out: Float32Array, bound: number): Float32Array {
    for (let i = 0; i < out.length; i += 1) out[i] = (this.next() * 2 - 1) * bound;
    return out;
  }
}

/** A seed for a run that was given none: drawn at random, so reruns do not repeat one order; archived and printed so `--seed` repeats it. */
export function drawSeed(): number {
  return 1 + Math.floor(Math.random() * 999_999);
}
