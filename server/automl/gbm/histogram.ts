// Gradient histograms: per feature and bin, the sums of gradients, hessians and rows of a leaf's
// rows. Split finding scans these (255 bins at most) instead of sorting rows.

import type { BinnedData } from './model';
import { type BlockFn, type BlockSource, type ThreadPool, activePool } from '../threads';

/**
 * Histogram additions (rows x numbers per bin x features) from which a build is shared with the
 * pool: below, publishing it and waking a thread (a few microseconds) costs more than it saves.
 */
const PARALLEL_MIN_CELLS = 150_000;

/** Fills hist from rows idx[s, e) with gradients g / hessians h (indexed by absolute row). */
type BuildFn = BlockFn;

/**
 * The histogram loop is generated per data layout (features, their bin offsets, values per leaf)
 * as straight-line code: one statement per feature with its offset a constant and the row's
 * gradients in locals. V8 then keeps everything in registers; the generic loop over features
 * reloads the offset, re-checks bounds and (vector leaves) re-reads the gradients per feature.
 * Measured on one core: 1.2-1.6 ns per row x feature instead of 3-4 (scalar), 3x faster with
 * 10 classes. Only integers from the layout are written into the source. A loop covers features
 * [f0, f1): with a thread pool (threads/) each block of features is one task, and every
 * feature's sums are taken in the same row order by whichever thread builds it, so histograms are
 * identical for any number of threads.
 */
const builders = new Map<string, BuildFn>();
/** Generated builders kept (a training uses a few layouts: the data's, the scale model's). */
const MAX_BUILDERS = 64;
/**
 * Beyond this many generated additions (features x numbers per bin), a loop over features with
 * the per-bin additions unrolled: TurboFan's compile time grows faster than the function (a
 * 64-feature, 10-class body took over a second to optimise, running 5x slower meanwhile).
 */
const MAX_UNROLLED = 320;

/** A histogram loop over features [f0, f1) of a layout: its source and cache key. */
interface BuilderSpec extends BlockSource {
  key: string;
}

function builderSpec(
  F: number,
  off: Int32Array,
  D: number,
  unitHessian: boolean,
  f0 = 0,
  f1 = F,
): BuilderSpec {
  const key = `${D}:${unitHessian ? 1 : 0}:${f0}-${f1}:${Array.from(off).join(',')}`;
  const C = D > 1 ? 2 * D + 1 : 3;
  const lo = int(off[f0] * C);
  const hi = int(off[f1] * C);
  const src: string[] = [`hist.fill(0, ${lo}, ${hi});`];
  // The statements adding one row's values at bin offset k.
  let add: string;
  let load: string;
  if (D > 1) {
    load = `const gr = r * ${int(D)};`;
    add = '';
    for (let j = 0; j < D; j++) {
      load += ` const g${j} = g[gr + ${j}], h${j} = h[gr + ${j}];`;
      add += `hist[k + ${j}] += g${j}; hist[k + ${D + j}] += h${j}; `;
    }
    add += `hist[k + ${2 * D}]++;`;
  } else {
    load = unitHessian ? 'const gi = g[r];' : 'const gi = g[r], hi = h[r];';
    add = unitHessian
      ? 'hist[k] += gi; hist[k + 2]++;'
      : 'hist[k] += gi; hist[k + 1] += hi; hist[k + 2]++;';
  }
  src.push(`for (let i = s; i < e; i++) {`, `const r = idx[i]; const b = r * ${int(F)};`, load);
  if ((f1 - f0) * C <= MAX_UNROLLED) {
    for (let f = f0; f < f1; f++)
      src.push(`{ const k = ${int(off[f] * C)} + bins[b + ${f}] * ${C}; ${add} }`);
  } else {
    src.push(
      `for (let f = ${int(f0)}; f < ${int(f1)}; f++) { const k = off[f] + bins[b + f] * ${C}; ${add} }`,
    );
  }
  src.push('}');
  if (D === 1 && unitHessian)
    src.push(`for (let k = ${lo}; k < ${hi}; k += 3) hist[k + 1] = hist[k + 2];`);
  const body = `return function build(hist, bins, idx, s, e, g, h) {\n${src.join('\n')}\n};`;
  return { key, src: body, offC: Int32Array.from(off, (v) => v * C) };
}

/** Compiles a spec (in this thread; pool workers compile the same source in theirs). */
function compileBuilder(spec: BuilderSpec): BuildFn {
  let fn = builders.get(spec.key);
  if (!fn) {
    if (builders.size >= MAX_BUILDERS) builders.clear();
    fn = new Function('off', spec.src)(spec.offC) as BuildFn;
    builders.set(spec.key, fn);
  }
  return fn;
}

function int(x: number): string {
  if (!Number.isInteger(x)) throw new Error('histogram layout must be integers');
  return String(x);
}

/**
 * The histograms of one tree's leaves: a pool of buffers (one per leaf slot; the larger child of
 * a split reuses its parent's) laid out as [feature offset + bin] x (gradient, hessian, count),
 * or with vector leaves (D values per leaf) x (D gradients, D hessians, count).
 */
export class Histograms {
  /** First histogram bin of each feature (off[F] = total bins). */
  readonly off: Int32Array;
  /** Numbers per bin: 3, or 2 D + 1 with vector leaves. */
  readonly C: number;
  /** Numbers in one histogram (C per bin). */
  readonly length: number;
  private readonly pool: Float64Array[] = [];
  private readonly bins: Uint8Array;
  private readonly fill: BuildFn;
  /** With a thread pool: the builders of the feature blocks, one task each. */
  private readonly blocks: { spec: BuilderSpec; fn: BuildFn }[] | null = null;
  private readonly threads: ThreadPool | null;
  /** Rows x features below which one thread builds the histogram (waking another costs more). */
  private readonly minParallelRows: number;

  constructor(
    data: BinnedData,
    /** Unweighted squared error: every hessian is 1 (a third of the writes can be skipped). */
    unitHessian: boolean,
    /** Values per leaf; gradients and hessians then come interleaved per row (g[r * D + j]). */
    D = 1,
  ) {
    const F = data.F;
    this.bins = data.bins;
    this.off = new Int32Array(F + 1);
    for (let f = 0; f < F; f++) this.off[f + 1] = this.off[f] + data.nBins[f];
    this.C = D > 1 ? 2 * D + 1 : 3;
    this.length = this.off[F] * this.C;
    const unit = unitHessian && D === 1;
    // Only vector leaves (a multiclass table: 2 D + 1 numbers per bin) build on the pool: with 3
    // numbers per bin a build is bound by reading the rows, and on the 2-core machine of issue 15
    // splitting it saved no training-thread time (messy 30k / 200k) while costing CPU.
    const pool = D > 1 ? activePool() : null;
    const nBlocks = pool ? Math.min(F, 2 * pool.threads) : 1;
    this.threads = nBlocks > 1 ? pool : null;
    // With a pool every array the loops read is shared memory (the bins a shared copy), and the
    // loops are compiled apart from the single-thread ones: each stays monomorphic for V8.
    const shared = (spec: BuilderSpec): BuilderSpec =>
      this.threads ? { ...spec, key: `${spec.key}:shared` } : spec;
    if (this.threads) this.bins = this.threads.sharedBins(data.bins);
    this.fill = compileBuilder(shared(builderSpec(F, this.off, D, unit)));
    if (this.threads) {
      this.blocks = Array.from({ length: nBlocks }, (_, c) => {
        const spec = shared(
          builderSpec(
            F,
            this.off,
            D,
            unit,
            Math.floor((c * F) / nBlocks),
            Math.floor(((c + 1) * F) / nBlocks),
          ),
        );
        return { spec, fn: compileBuilder(spec) };
      });
    }
    this.minParallelRows = Math.ceil(PARALLEL_MIN_CELLS / (F * this.C));
  }

  /** A zeroed buffer: shared memory when a pool's workers build into it. */
  alloc(n: number): Float64Array {
    return this.blocks ? this.threads!.f64(n) : new Float64Array(n);
  }

  /** A zeroed row-index buffer (shared with a pool, see `alloc`). */
  allocRows(n: number): Int32Array {
    return this.blocks ? this.threads!.i32(n) : new Int32Array(n);
  }

  /** The buffer of pool slot `slot` (allocated on first use). */
  get(slot: number): Float64Array {
    while (this.pool.length <= slot) this.pool.push(this.alloc(this.length));
    return this.pool[slot];
  }

  /**
   * Fills `hist` from rows idx[s, e) with gradients g / hessians h (indexed by absolute row); with
   * a pool, large builds are split by feature block across its threads (`alloc` buffers only).
   */
  build(
    hist: Float64Array,
    idx: Int32Array,
    s: number,
    e: number,
    g: Float64Array,
    h: Float64Array,
  ): void {
    if (this.blocks && e - s >= this.minParallelRows)
      this.threads!.build(this.blocks, hist, this.bins, idx, s, e, g, h);
    else this.fill(hist, this.bins, idx, s, e, g, h);
  }

  /** parent -= child: the subtraction trick (the parent's buffer becomes the sibling's). */
  subtract(parent: Float64Array, child: Float64Array): void {
    for (let j = 0; j < this.length; j++) parent[j] -= child[j];
  }
}
