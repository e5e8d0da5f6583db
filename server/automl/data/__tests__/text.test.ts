// The text encoder: tokens, vocabulary, TF-IDF rows, the sparse ridge solver and the out-of-fold
// stacking model whose score is the column's feature.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../prng';
import {
  fitTextModel,
  fitVocabulary,
  sparseRidge,
  sparseScores,
  termIndex,
  textScores,
  tfidfRows,
  tokenize,
  TEXT_MAX_CHARS,
} from '../text';

describe('tokens and vocabulary', () => {
  it('lower-cases words (letters and digits in any script) and adds adjacent pairs', () => {
    expect(tokenize('Refund NOT received, order #42!')).toEqual([
      'refund',
      'not',
      'received',
      'order',
      '42',
      'refund not',
      'not received',
      'received order',
      'order 42',
    ]);
    expect(tokenize('Café über')).toEqual(['café', 'über', 'café über']);
    expect(tokenize(null)).toEqual([]);
    expect(tokenize('x '.repeat(5000)).length).toBeLessThan(TEXT_MAX_CHARS);
  });

  it('keeps terms in at least two documents, most frequent first, with a falling IDF', () => {
    const docs = ['a b', 'a c', 'a b', 'd'];
    const v = fitVocabulary(docs, [0, 1, 2, 3]);
    expect(v.terms).toEqual(['a', 'a b', 'b']);
    expect(v.idf[0]).toBeLessThan(v.idf[2]);
  });

  it('weights TF-IDF rows to unit length and ignores unknown words', () => {
    const X = tfidfRows(['a a b zzz', ''], null, termIndex(['a', 'b']), [1, 2]);
    expect(Array.from(X.off)).toEqual([0, 2, 2]);
    const norm = Math.hypot(...Array.from(X.val));
    expect(norm).toBeCloseTo(1, 12);
    // tf(a) = 2 -> 1 + ln 2; b: 1 x idf 2.
    expect(X.val[0] / X.val[1]).toBeCloseTo((1 + Math.log(2)) / 2, 12);
  });
});

describe('sparse ridge', () => {
  it('recovers weights of a linear target (small penalty) with the intercept', () => {
    const rng = new Rng(2);
    const n = 400;
    const d = 5;
    const off = Int32Array.from({ length: n + 1 }, (_, i) => i * 2);
    const idx = new Int32Array(2 * n);
    const val = new Float64Array(2 * n);
    const Y = new Float64Array(n);
    const w = [1, -2, 0.5, 3, 0];
    for (let i = 0; i < n; i++) {
      const a = rng.int(d);
      const b = (a + 1 + rng.int(d - 1)) % d;
      idx[2 * i] = Math.min(a, b);
      idx[2 * i + 1] = Math.max(a, b);
      val[2 * i] = rng.next();
      val[2 * i + 1] = rng.next();
      Y[i] = 5 + w[idx[2 * i]] * val[2 * i] + w[idx[2 * i + 1]] * val[2 * i + 1];
    }
    const X = { n, off, idx, val };
    const rows = Int32Array.from({ length: n }, (_, i) => i);
    const W = sparseRidge(X, rows, Y, 1, d, 1e-6);
    const pred = sparseScores(X, W, 1, d);
    let err = 0;
    for (let i = 0; i < n; i++) err = Math.max(err, Math.abs(pred[i] - Y[i]));
    expect(err).toBeLessThan(1e-3);
  });
});

describe('text stacking model', () => {
  const rng = new Rng(5);
  const good = ['great', 'love', 'excellent'];
  const bad = ['broken', 'refund', 'awful'];
  const filler = ['the', 'it', 'was', 'and', 'my', 'order'];
  const docs: string[] = [];
  const y: number[] = [];
  for (let i = 0; i < 600; i++) {
    const pos = i % 2;
    const words = Array.from({ length: 6 }, () => filler[rng.int(6)]);
    words[rng.int(6)] = (pos ? good : bad)[rng.int(3)];
    docs.push(words.join(' '));
    y.push(pos);
  }

  it('scores held-out documents by their words, out of fold for the training documents', () => {
    const fit = fitTextModel({ values: docs, targets: Float64Array.from(y), K: 1, rng: new Rng(1) })!;
    let ok = 0;
    for (let i = 0; i < docs.length; i++) if ((fit.oof[i] > 0.5 ? 1 : 0) === y[i]) ok++;
    expect(ok / docs.length).toBeGreaterThan(0.95);
    const s = textScores(fit.model, ['I love it', 'awful, refund please', null], 3);
    expect(s[0]).toBeGreaterThan(0.7);
    expect(s[1]).toBeLessThan(0.3);
    // Missing text scores the intercept (the mean target).
    expect(s[2]).toBeCloseTo(0.5, 1);
  });
});
