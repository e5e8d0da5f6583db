/** A small hand-built version diff for the diff view's tests (shaped as contract/monitoring.ts). */
import type { DiffReport } from '../../../../../contract';

export const diff: DiffReport = {
  project: 'mindsdb',
  before: { model: 'rentals', version: 1 },
  after: { model: 'rentals', version: 2 },
  task: 'regression',
  rows: { compared: 200, changed: 2 },
  threshold: 190,
  source: { kind: 'held-out', query: null },
  mean_change: 35.2,
  mean_abs_change: 80.4,
  changed_rows: [
    {
      row: 17,
      inputs: { sqft: 1020, location: 'great', rooms: 2, days: 10, baths: 1 },
      before: 3100.4,
      after: 3520.9,
      change: 420.5,
      moved: [
        { column: 'sqft', change: 310.2 },
        { column: 'location', change: -45.1 },
      ],
    },
    {
      row: 3,
      inputs: { sqft: 400, location: null },
      before: 1500,
      after: 1290,
      change: -210,
      moved: [{ column: 'sqft', change: -190 }],
    },
  ],
  moved_inputs: [
    {
      column: 'location',
      mean_change: -20,
      mean_abs_change: 30,
      weight_before: 100,
      weight_after: 90,
    },
    {
      column: 'sqft',
      mean_change: 60,
      mean_abs_change: 250,
      weight_before: 200,
      weight_after: 450,
    },
  ],
  segment: { column: 'sqft', label: '917 – 1,120', share_of_changed: 0.5, share_of_rows: 0.2 },
  summary:
    'v2 moves 1% of predictions by more than 190 (average change +35.2), mostly where sqft is 917 – 1,120, and sqft now counts more',
};
