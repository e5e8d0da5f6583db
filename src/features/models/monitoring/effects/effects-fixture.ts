/** A small hand-built effects report for the effects tab's tests (shaped as contract/monitoring.ts). */
import type { EffectsReport } from '../../../../../contract';

export const effects: EffectsReport = {
  project: 'mindsdb',
  model: 'rentals',
  version: 1,
  task: 'regression',
  output: 'rental_price',
  rows: 3,
  curves: [
    {
      column: 'sqft',
      kind: 'number',
      importance: 0.6,
      grid: [400, 800, 1200],
      average: [1500, 2500, 3500],
      ice: [
        [1000, 2000, 3000],
        [1500, 2500, 3500],
        [2000, 3000, 4000],
      ],
      distribution: [
        { label: '400', count: 1 },
        { label: '800', count: 1 },
        { label: '1,200', count: 1 },
      ],
      range: 2000,
    },
    {
      column: 'location',
      kind: 'category',
      importance: 0.3,
      grid: ['great', 'good', 'poor'],
      average: [3000, 2800, 2200],
      ice: [
        [3100, 2900, 2300],
        [2900, 2700, 2100],
        [3000, 2800, 2200],
      ],
      distribution: [
        { label: 'great', count: 2 },
        { label: 'good', count: 1 },
        { label: 'poor', count: 0 },
      ],
      range: 800,
    },
  ],
  skipped: [{ column: 'notes', reason: 'free text has no grid' }],
};
