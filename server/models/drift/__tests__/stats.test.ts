// Pinned values: the references were computed once with scipy 1.17.1 (noted beside each) and
// written here; the functions must reproduce them.
import { describe, expect, it } from 'vitest';
import { chiSquaredSf, chiSquaredTwoSample, kolmogorovSf, ksTwoSample, psi } from '../stats';

describe('population stability index', () => {
  it('is 0 for identical samples, whatever the bins', () => {
    expect(psi([5, 10, 0, 85], [5, 10, 0, 85])).toBe(0);
    expect(psi([1, 2, 3], [10, 20, 30])).toBeCloseTo(0, 15);
  });

  it('of 25/25/25/25 shifted to 10/20/30/40 is the hand-computed 0.2282174', () => {
    // (0.1-0.25)ln(0.4) + (0.2-0.25)ln(0.8) + (0.3-0.25)ln(1.2) + (0.4-0.25)ln(1.6)
    expect(psi([25, 25, 25, 25], [10, 20, 30, 40])).toBeCloseTo(0.22821740957339182, 14);
  });

  it('floors an empty bin at 1e-4 instead of going infinite', () => {
    const v = psi([50, 50], [100, 0]);
    const expected = (1 - 0.5) * Math.log(1 / 0.5) + (1e-4 - 0.5) * Math.log(1e-4 / 0.5);
    expect(v).toBeCloseTo(expected, 12);
    expect(psi([0, 0], [1, 2])).toBe(0);
  });
});

describe('two-sample Kolmogorov-Smirnov', () => {
  // scipy.stats.ks_2samp(A, B)
  const A = [0.61, 1.2, 3.4, 2.2, 0.05, 1.7, 2.9, 4.1, 0.9, 1.35];
  const B = [1.9, 2.5, 3.3, 4.4, 5.1, 2.8, 3.7, 0.4, 4.9, 3.05, 2.2, 6.0];

  it("statistic equals scipy's on fixed samples, ties included", () => {
    expect(ksTwoSample(A, B).statistic).toBeCloseTo(0.5166666666666667, 14);
    const C = [1, 1, 2, 2, 2, 3, 3, 4, 5, 5];
    const D = [2, 2, 3, 3, 3, 3, 4, 4, 5, 6, 6];
    expect(ksTwoSample(C, D).statistic).toBeCloseTo(0.3181818181818182, 14);
    expect(ksTwoSample(D, C).statistic).toBeCloseTo(0.3181818181818182, 14);
  });

  it("p-value follows Kolmogorov's distribution (scipy.stats.kstwobign.sf)", () => {
    expect(kolmogorovSf(0.5)).toBeCloseTo(0.9639452436648751, 12);
    expect(kolmogorovSf(0.8)).toBeCloseTo(0.5441424115741981, 12);
    expect(kolmogorovSf(1.0)).toBeCloseTo(0.26999967167735456, 12);
    expect(kolmogorovSf(1.5)).toBeCloseTo(0.022217962616525127, 14);
    expect(kolmogorovSf(2.0)).toBeCloseTo(0.0006709252557796953, 16);
  });

  it("p-value on 400 vs 500 values is within 2 % of scipy's exact one", () => {
    // X = i / 400, Y = 0.1 + j / 500: scipy gives D = 0.1025, p = 0.017484748671554067 (exact),
    // kstwobign.sf of the corrected argument 0.017310566142380045.
    const X = Array.from({ length: 400 }, (_, i) => i / 400);
    const Y = Array.from({ length: 500 }, (_, j) => 0.1 + j / 500);
    const r = ksTwoSample(X, Y);
    expect(r.statistic).toBeCloseTo(0.1025, 14);
    expect(r.pValue).toBeCloseTo(0.017310566142380045, 12);
    expect(Math.abs(r.pValue / 0.017484748671554067 - 1)).toBeLessThan(0.02);
    // Unevenly spread samples: scipy D = 0.11533333333333333, p = 0.04894672887301492.
    const U = Array.from({ length: 300 }, (_, i) => ((i * 37) % 101) / 101);
    const V = Array.from({ length: 250 }, (_, j) => (((j * 53) % 97) / 97) ** 1.3);
    const r2 = ksTwoSample(U, V);
    expect(r2.statistic).toBeCloseTo(0.11533333333333333, 14);
    expect(Math.abs(r2.pValue / 0.04894672887301492 - 1)).toBeLessThan(0.03);
  });

  it('identical samples have D = 0 and p = 1; an empty side is no evidence', () => {
    expect(ksTwoSample(A, A)).toEqual({ statistic: 0, pValue: 1 });
    expect(ksTwoSample([], A)).toEqual({ statistic: 0, pValue: 1 });
  });
});

describe('chi-squared', () => {
  it("test of homogeneity equals scipy's chi2_contingency(correction=False)", () => {
    const r = chiSquaredTwoSample([30, 25, 45], [20, 35, 45]);
    expect(r.statistic).toBeCloseTo(3.666666666666667, 12);
    expect(r.dof).toBe(2);
    expect(r.pValue).toBeCloseTo(0.15987974607969388, 12);
  });

  it('leaves out bins empty on both sides', () => {
    const r = chiSquaredTwoSample([30, 0, 25, 45], [20, 0, 35, 45]);
    expect(r.dof).toBe(2);
    expect(r.statistic).toBeCloseTo(3.666666666666667, 12);
  });

  it('survival function equals scipy.stats.chi2.sf', () => {
    expect(chiSquaredSf(3.84, 1)).toBeCloseTo(0.05004352124870519, 12);
    expect(chiSquaredSf(10, 4)).toBeCloseTo(0.04042768199451279, 12);
    expect(chiSquaredSf(0.5, 3)).toBeCloseTo(0.9188914116546758, 12);
    expect(chiSquaredSf(1e-3, 2)).toBeCloseTo(0.9995001249791693, 12);
    expect(chiSquaredSf(40, 10) / 1.694474393006737e-5).toBeCloseTo(1, 10);
    expect(chiSquaredSf(100, 50) / 3.454931382984871e-5).toBeCloseTo(1, 10);
  });
});
