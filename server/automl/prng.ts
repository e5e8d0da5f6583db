// Seeded pseudo-random numbers for the AutoML engine: every random choice (splits, shuffles,
// permutations, subsamples) goes through here so that the same seed gives the same model.

/** A tiny, fast 32-bit PRNG (mulberry32). Not cryptographic; we only need reproducibility. */
export class Rng {
  /**
   * The 32-bit state, in a one-element Int32Array: V8 keeps it unboxed there, where a number
   * field past 2^30 became a heap number (the generator ran ~4x slower). Same bits, same stream.
   */
  private readonly state = new Int32Array(1);

  constructor(seed: number) {
    // Mix the seed so that small consecutive seeds (0, 1, 2) give unrelated streams.
    this.state[0] = Math.imul((seed | 0) ^ 0x9e3779b9, 0x85ebca6b) ^ 0x2c1b3c6d;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    const st = this.state;
    let t = (st[0] = (st[0] + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** In-place Fisher-Yates shuffle. */
  shuffle<T extends { length: number; [i: number]: number }>(a: T): T {
    for (let i = a.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
    return a;
  }
}

/** 0..n-1 in a seeded random order. */
export function permutation(n: number, rng: Rng): Int32Array {
  const p = new Int32Array(n);
  for (let i = 0; i < n; i++) p[i] = i;
  return rng.shuffle(p);
}

/**
 * The fixed held-out split used by the bench and the dataset-quality tests: a seeded shuffle of the
 * row indices, the first `trainFraction` for training and the rest for testing. Kept here so both
 * use exactly the same rows.
 */
export function holdoutSplit(
  n: number,
  seed = 1234,
  trainFraction = 0.8,
): { train: Int32Array; test: Int32Array } {
  const p = permutation(n, new Rng(seed));
  const nTrain = Math.round(n * trainFraction);
  return { train: p.slice(0, nTrain), test: p.slice(nTrain) };
}
