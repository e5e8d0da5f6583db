/** A small hand-built drift report for the drift tab's tests (shaped as contract/monitoring.ts). */
import type { DriftColumn, DriftReport } from '../../../../../contract';

const bins = (ref: number[], cur: number[], labels: string[]) => {
  const r = ref.reduce((a, b) => a + b, 0);
  const c = cur.reduce((a, b) => a + b, 0);
  return labels.map((label, i) => ({
    label,
    reference: ref[i],
    current: cur[i],
    reference_share: ref[i] / r,
    current_share: cur[i] / c,
  }));
};

export const sqft: DriftColumn = {
  column: 'sqft',
  kind: 'number',
  importance: 0.5,
  present: true,
  psi: 0.61,
  level: 'drifted',
  test: { name: 'ks', statistic: 0.3124, p_value: 1e-9, n_reference: 1000, n_current: 2000 },
  bins: bins([500, 500, 0], [200, 1800, 0], ['< 900', '≥ 900', 'missing']),
  missing: { reference: 0, current: 0 },
  mean: { reference: 850, current: 1020 },
  out_of_range: { min: 300, max: 1600, below: 0, above: 0.18 },
};

export const location: DriftColumn = {
  column: 'location',
  kind: 'category',
  importance: 0.2,
  present: true,
  psi: 0.35,
  level: 'drifted',
  test: {
    name: 'chi2',
    statistic: 45.23,
    p_value: 0.0004,
    dof: 3,
    n_reference: 1000,
    n_current: 2000,
  },
  bins: bins(
    [400, 600, 0, 0, 0],
    [900, 860, 0, 240, 0],
    ['good', 'poor', 'other', 'new', 'missing'],
  ),
  missing: { reference: 0, current: 0 },
  new_categories: { rows: 240, share: 0.12, distinct: 1, values: ['harbor_district'] },
};

export const rooms: DriftColumn = {
  column: 'rooms',
  kind: 'number',
  importance: 0.3,
  present: true,
  psi: 0.01,
  level: 'stable',
  test: { name: 'ks', statistic: 0.02, p_value: 0.54, n_reference: 1000, n_current: 2000 },
  bins: bins([300, 700, 0], [620, 1380, 0], ['1', '2', 'missing']),
  missing: { reference: 0, current: 0 },
  mean: { reference: 1.7, current: 1.69 },
  out_of_range: { min: 1, max: 2, below: 0, above: 0 },
};

export const report: DriftReport = {
  project: 'mindsdb',
  model: 'rentals',
  version: 1,
  query: 'SELECT * FROM demo_data.home_rentals_this_month',
  db: 'example_db',
  computed_at: '2026-11-26T18:00:00.000Z',
  reference_source: 'kept',
  rows: { reference: 1000, current: 5000, current_sample: 2000 },
  columns: [rooms, location, sqft],
  skipped: [{ column: 'listed_at', reason: 'dates move with time' }],
  predictions: {
    kind: 'number',
    psi: 0.34,
    level: 'drifted',
    test: { name: 'ks', statistic: 0.21, p_value: 1e-6, n_reference: 1000, n_current: 2000 },
    bins: bins([500, 500], [300, 1700], ['< 3,000', '≥ 3,000']),
    mean: { reference: 2710.4, current: 3180.2 },
  },
  summary: {
    inputs: 3,
    drifted: 2,
    drifted_importance: 0.7,
    verdict: 'retrain',
    sentence: '2 of 3 inputs drifted, covering 70% of importance: retrain',
  },
  thresholds: { psi: 0.2, p_value: 0.05, importance: 0.3 },
};
