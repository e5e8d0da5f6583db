// The words of free-text columns as features: tokenise (words and word pairs), keep the terms most
// documents use, weight them TF-IDF and fit a ridge model from them to the target; its
// out-of-fold score becomes a numeric input of the trees and the linear model (stacking). At
// prediction the same terms and weights give the score of new text: a tokenise and a sparse dot.

import { fromBase64, toBase64 } from '../base64';
import { type Rng, permutation } from '../prng';
import type { TextStack } from './encoders';
import { isMissing } from './column-types';

/** Characters of a cell that are read (long text stays bounded in time and memory). */
export const TEXT_MAX_CHARS = 2_000;
/** Terms kept, by document frequency; a term must occur in at least MIN_DF documents. */
const MAX_TERMS = 2_000;
const MIN_DF = 2;
/** Distinct terms counted before the rare ones are pruned (bounded memory on huge columns). */
const MAX_COUNTED_TERMS = 500_000;
/** The text model trains on at most this many documents (a seeded sample beyond). */
const TEXT_MAX_DOCS = 100_000;
const FOLDS = 5;
/** Ridge penalties tried (rows are L2-normalised, so these are comparable across data sets). */
const LAMBDAS = [0.3, 1, 3];
/** Conjugate-gradient steps and relative residual at which a ridge solve stops. */
const CG_ITERATIONS = 40;
const CG_TOLERANCE = 1e-8;

const TOKEN_RE = /[\p{L}\p{N}]+/gu;

/** Lower-cased words and adjacent word pairs of a cell (its first TEXT_MAX_CHARS characters). */
export function tokenize(v: unknown): string[] {
  if (isMissing(v)) return [];
  const s = (typeof v === 'string' ? v : String(v)).slice(0, TEXT_MAX_CHARS).toLowerCase();
  const words = s.match(TOKEN_RE) ?? [];
  const out = words.slice();
  for (let i = 0; i + 1 < words.length; i++) out.push(words[i] + ' ' + words[i + 1]);
  return out;
}

/** Rows in compressed sparse form: row i has entries [off[i], off[i + 1]). */
export interface SparseRows {
  n: number;
  off: Int32Array;
  idx: Int32Array;
  val: Float64Array;
}

/** Term ids of a vocabulary: words, and word pairs as word -> next word -> id (no pair strings). */
export interface TermIndex {
  words: Map<string, number>;
  pairs: Map<string, Map<string, number>>;
  size: number;
}

export function termIndex(terms: string[]): TermIndex {
  const words = new Map<string, number>();
  const pairs = new Map<string, Map<string, number>>();
  terms.forEach((t, j) => {
    const sp = t.indexOf(' ');
    if (sp < 0) words.set(t, j);
    else {
      const a = t.slice(0, sp);
      let m = pairs.get(a);
      if (!m) pairs.set(a, (m = new Map()));
      m.set(t.slice(sp + 1), j);
    }
  });
  return { words, pairs, size: terms.length };
}

/**
 * Sublinear TF-IDF rows over the indexed terms (unknown terms dropped), L2-normalised: row i is
 * the cell values[rows[i]] (or values[i] for i < count).
 */
export function tfidfRows(
  values: ArrayLike<unknown>,
  rows: ArrayLike<number> | null,
  index: TermIndex,
  idf: ArrayLike<number>,
  count = values.length,
): SparseRows {
  const n = rows ? rows.length : count;
  const off = new Int32Array(n + 1);
  let idx = new Int32Array(Math.max(16, n * 8));
  let val = new Float64Array(idx.length);
  let nnz = 0;
  const tf = new Int32Array(index.size);
  const touched: number[] = [];
  const add = (j: number | undefined) => {
    if (j === undefined) return;
    if (tf[j]++ === 0) touched.push(j);
  };
  for (let i = 0; i < n; i++) {
    const v = values[rows ? rows[i] : i];
    if (!isMissing(v)) {
      const text = (typeof v === 'string' ? v : String(v)).slice(0, TEXT_MAX_CHARS).toLowerCase();
      const words = text.match(TOKEN_RE) ?? [];
      for (let w = 0; w < words.length; w++) {
        add(index.words.get(words[w]));
        if (w + 1 < words.length) add(index.pairs.get(words[w])?.get(words[w + 1]));
      }
    }
    if (nnz + touched.length > idx.length) {
      const cap = Math.max(idx.length * 2, nnz + touched.length);
      const i2 = new Int32Array(cap);
      i2.set(idx);
      idx = i2;
      const v2 = new Float64Array(cap);
      v2.set(val);
      val = v2;
    }
    const start = nnz;
    let norm = 0;
    for (const j of touched) {
      const w = (1 + Math.log(tf[j])) * idf[j];
      idx[nnz] = j;
      val[nnz++] = w;
      norm += w * w;
      tf[j] = 0;
    }
    touched.length = 0;
    norm = Math.sqrt(norm);
    if (norm > 0) for (let x = start; x < nnz; x++) val[x] /= norm;
    off[i + 1] = nnz;
  }
  return { n, off, idx: idx.slice(0, nnz), val: val.slice(0, nnz) };
}

/** The MAX_TERMS terms in most documents (at least MIN_DF), ties by term, with their IDF. */
export function fitVocabulary(
  values: ArrayLike<unknown>,
  rows: ArrayLike<number>,
): { terms: string[]; idf: number[] } {
  let df = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) {
    for (const t of new Set(tokenize(values[rows[i]]))) df.set(t, (df.get(t) ?? 0) + 1);
    if (df.size > MAX_COUNTED_TERMS) {
      // Prune terms seen once so far: a frequent term is seen again before long.
      const kept = new Map<string, number>();
      for (const [t, c] of df) if (c > 1) kept.set(t, c);
      df = kept;
    }
  }
  const terms = [...df.entries()]
    .filter(([, c]) => c >= MIN_DF)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, MAX_TERMS);
  const N = rows.length;
  return {
    terms: terms.map(([t]) => t),
    idf: terms.map(([, c]) => Math.log((1 + N) / (1 + c)) + 1),
  };
}

/**
 * Ridge regression on sparse rows by conjugate gradients, one solve per target column:
 * minimise |y - Xw - c|^2 + lambda |w|^2 over the selected rows, the intercept c unpenalised (an
 * implicit all-ones column, index d). `Y` holds K targets per row; returns (d + 1) x K weights,
 * the intercepts last.
 */
export function sparseRidge(
  X: SparseRows,
  rows: Int32Array,
  Y: Float64Array,
  K: number,
  d: number,
  lambda: number,
): Float64Array {
  const D = d + 1;
  const W = new Float64Array(D * K);
  const m = rows.length;
  const y = new Float64Array(m);
  const mul = (v: Float64Array, out: Float64Array): void => {
    // out = A' A v + lambda v (not on the intercept), A = [X 1] over the rows.
    out.fill(0);
    for (let i = 0; i < m; i++) {
      const r = rows[i];
      let s = v[d];
      for (let x = X.off[r]; x < X.off[r + 1]; x++) s += X.val[x] * v[X.idx[x]];
      if (s === 0) continue;
      for (let x = X.off[r]; x < X.off[r + 1]; x++) out[X.idx[x]] += X.val[x] * s;
      out[d] += s;
    }
    for (let j = 0; j < d; j++) out[j] += lambda * v[j];
  };
  for (let k = 0; k < K; k++) {
    // Centred targets: the intercept starts at the mean and CG solves for the rest.
    let mean = 0;
    for (let i = 0; i < m; i++) mean += Y[rows[i] * K + k];
    mean /= Math.max(1, m);
    for (let i = 0; i < m; i++) y[i] = Y[rows[i] * K + k] - mean;
    const b = new Float64Array(D);
    for (let i = 0; i < m; i++) {
      const r = rows[i];
      for (let x = X.off[r]; x < X.off[r + 1]; x++) b[X.idx[x]] += X.val[x] * y[i];
      b[d] += y[i];
    }
    const w = new Float64Array(D);
    const res = Float64Array.from(b);
    const p = Float64Array.from(b);
    const Ap = new Float64Array(D);
    let rr = 0;
    for (let j = 0; j < D; j++) rr += res[j] * res[j];
    const stop = CG_TOLERANCE * Math.max(rr, 1e-300);
    for (let it = 0; it < CG_ITERATIONS && rr > stop; it++) {
      mul(p, Ap);
      let pAp = 0;
      for (let j = 0; j < D; j++) pAp += p[j] * Ap[j];
      if (!(pAp > 0)) break;
      const a = rr / pAp;
      let rr2 = 0;
      for (let j = 0; j < D; j++) {
        w[j] += a * p[j];
        res[j] -= a * Ap[j];
        rr2 += res[j] * res[j];
      }
      const beta = rr2 / rr;
      rr = rr2;
      for (let j = 0; j < D; j++) p[j] = res[j] + beta * p[j];
    }
    for (let j = 0; j < d; j++) W[j * K + k] = w[j];
    W[d * K + k] = mean + w[d];
  }
  return W;
}

/** Scores (rows x K) of sparse rows under ridge weights. */
export function sparseScores(
  X: SparseRows,
  W: ArrayLike<number>,
  K: number,
  d: number,
  out = new Float64Array(X.n * K),
  rows: ArrayLike<number> | null = null,
): Float64Array {
  const n = rows ? rows.length : X.n;
  for (let i = 0; i < n; i++) {
    const r = rows ? rows[i] : i;
    for (let k = 0; k < K; k++) {
      let s = W[d * K + k];
      for (let x = X.off[r]; x < X.off[r + 1]; x++) s += X.val[x] * W[X.idx[x] * K + k];
      out[r * K + k] = s;
    }
  }
  return out;
}

/** A fitted text model: terms, IDF and ridge weights ((terms + 1) x K). */
export interface TextModel {
  terms: string[];
  idf: number[];
  K: number;
  weights: Float64Array;
  lambda: number;
}

/**
 * Fits the text model of one column by cross-fitting: `targets` (n x K: standardized values, or
 * one-hot classes) of the documents, out-of-fold scores for every document (scored by a model that
 * did not see it), the penalty chosen by out-of-fold error. Documents beyond TEXT_MAX_DOCS are
 * scored by the model fitted on the sample (they are out of its sample, so just as honest).
 */
export function fitTextModel(opts: {
  values: ArrayLike<unknown>;
  targets: Float64Array;
  K: number;
  rng: Rng;
}): { model: TextModel; oof: Float64Array } | null {
  const { values, targets, K, rng } = opts;
  const n = values.length;
  const sample =
    n > TEXT_MAX_DOCS
      ? Int32Array.from(permutation(n, rng).slice(0, TEXT_MAX_DOCS)).sort()
      : Int32Array.from({ length: n }, (_, i) => i);
  const vocab = fitVocabulary(values, sample);
  const d = vocab.terms.length;
  if (d === 0) return null;
  const X = tfidfRows(values, sample, termIndex(vocab.terms), vocab.idf);
  const m = sample.length;
  const Y = new Float64Array(m * K);
  for (let i = 0; i < m; i++)
    for (let k = 0; k < K; k++) Y[i * K + k] = targets[sample[i] * K + k];
  const fold = new Int32Array(m);
  const perm = permutation(m, rng);
  for (let i = 0; i < m; i++) fold[perm[i]] = i % FOLDS;
  const rowsOf = (f: number, inFold: boolean) => {
    const out: number[] = [];
    for (let i = 0; i < m; i++) if ((fold[i] === f) === inFold) out.push(i);
    return Int32Array.from(out);
  };
  let best: { lambda: number; err: number; oof: Float64Array } | null = null;
  for (const lambda of LAMBDAS) {
    const oof = new Float64Array(m * K);
    for (let f = 0; f < FOLDS; f++) {
      const W = sparseRidge(X, rowsOf(f, false), Y, K, d, lambda);
      sparseScores(X, W, K, d, oof, rowsOf(f, true));
    }
    let err = 0;
    for (let x = 0; x < oof.length; x++) err += (oof[x] - Y[x]) ** 2;
    if (!best || err < best.err) best = { lambda, err, oof };
  }
  const all = Int32Array.from({ length: m }, (_, i) => i);
  const weights = sparseRidge(X, all, Y, K, d, best!.lambda);
  const model: TextModel = { ...vocab, K, weights, lambda: best!.lambda };
  const oof = new Float64Array(n * K);
  if (m === n) oof.set(best!.oof);
  else {
    const rest = textScores(model, values, n);
    oof.set(rest);
    for (let i = 0; i < m; i++)
      for (let k = 0; k < K; k++) oof[sample[i] * K + k] = best!.oof[i * K + k];
  }
  return { model, oof };
}

const indexes = new WeakMap<TextModel, TermIndex>();

/** Scores (n x K) of raw cells under a text model (missing text: the intercept). */
export function textScores(model: TextModel, values: ArrayLike<unknown>, n: number): Float64Array {
  let index = indexes.get(model);
  if (!index) {
    index = termIndex(model.terms);
    indexes.set(model, index);
  }
  const X = tfidfRows(values, null, index, model.idf, n);
  return sparseScores(X, model.weights, model.K, model.terms.length);
}

const stackModels = new WeakMap<TextStack, TextModel>();

/** The text model of a stored stack (decoded once per stack object). */
function stackModel(s: TextStack): TextModel {
  let m = stackModels.get(s);
  if (!m) {
    m = {
      terms: s.terms,
      idf: s.idf,
      K: s.K,
      weights: fromBase64(s.weights, (b) => new Float64Array(b)),
      lambda: s.lambda,
    };
    stackModels.set(s, m);
  }
  return m;
}

export function storeStack(m: TextModel, score: number): TextStack {
  return {
    terms: m.terms,
    idf: m.idf,
    K: m.K,
    weights: toBase64(m.weights),
    lambda: m.lambda,
    score,
  };
}

/** One stream per score of a stored stack, from raw cells. */
export function stackStreams(s: TextStack, values: ArrayLike<unknown>, n: number): Float64Array[] {
  const raw = textScores(stackModel(s), values, n);
  return Array.from({ length: s.K }, (_, k) => Float64Array.from({ length: n }, (_, i) => raw[i * s.K + k]));
}
