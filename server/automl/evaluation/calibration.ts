// Calibration of predicted probabilities on held-out rows: a reliability diagram (mean predicted
// probability against the observed share, per probability bin), the Brier score and the expected
// calibration error (the rows-weighted mean gap between the two).

interface ReliabilityBin {
  /** The bin's probability range [from, to). */
  from: number;
  to: number;
  rows: number;
  /** Mean predicted probability of the bin's rows. */
  predicted: number;
  /** Share of them for which the event happened. */
  observed: number;
}

export interface Reliability {
  bins: ReliabilityBin[];
  brier: number;
  /** Expected calibration error: sum over bins of rows share x |observed - predicted|. */
  ece: number;
}

/**
 * `p[i]`: the predicted probability of an event, `hit[i]`: 1 if it happened. Equal-width bins
 * (empty ones left out), as scikit-learn's calibration_curve with strategy 'uniform'.
 */
export function reliability(p: ArrayLike<number>, hit: ArrayLike<number>, nBins = 10): Reliability {
  const rows = new Float64Array(nBins);
  const sumP = new Float64Array(nBins);
  const sumHit = new Float64Array(nBins);
  // Inner bin edges as numpy's linspace computes them; a probability on an edge belongs to the
  // lower bin (numpy's searchsorted), as in scikit-learn's calibration_curve.
  const step = 1 / nBins;
  const edges = Array.from({ length: nBins - 1 }, (_, i) => (i + 1) * step);
  let brier = 0;
  let n = 0;
  for (let i = 0; i < p.length; i++) {
    if (!Number.isFinite(p[i])) continue;
    let b = 0;
    while (b < edges.length && edges[b] < p[i]) b++;
    rows[b]++;
    sumP[b] += p[i];
    sumHit[b] += hit[i] ? 1 : 0;
    brier += (p[i] - (hit[i] ? 1 : 0)) ** 2;
    n++;
  }
  const bins: ReliabilityBin[] = [];
  let ece = 0;
  for (let b = 0; b < nBins; b++) {
    if (rows[b] === 0) continue;
    const predicted = sumP[b] / rows[b];
    const observed = sumHit[b] / rows[b];
    bins.push({ from: b * step, to: (b + 1) * step, rows: rows[b], predicted, observed });
    ece += (rows[b] / n) * Math.abs(observed - predicted);
  }
  return { bins, brier: n > 0 ? brier / n : NaN, ece: n > 0 ? ece : NaN };
}
