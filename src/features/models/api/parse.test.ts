import { describe, expect, it } from 'vitest';
import {
  activeVersion,
  describeTableToObjects,
  isBusyStatus,
  parseModelVersions,
  pendingVersion,
} from './parse';

const COLS = [
  'NAME',
  'ENGINE',
  'PROJECT',
  'ACTIVE',
  'VERSION',
  'STATUS',
  'ACCURACY',
  'PREDICT',
  'UPDATE_STATUS',
  'MINDSDB_VERSION',
  'ERROR',
  'SELECT_DATA_QUERY',
  'TRAINING_OPTIONS',
  'CURRENT_TRAINING_PHASE',
  'TOTAL_TRAINING_PHASES',
  'TRAINING_PHASE_NAME',
  'TAG',
  'CREATED_AT',
  'TRAINING_TIME',
];

const row = (version: number, active: boolean, status: string) => [
  'm',
  'lightwood',
  'mindsdb',
  active,
  version,
  status,
  status === 'complete' ? 0.99 : null,
  'rental_price',
  'up_to_date',
  '0.1.0',
  null,
  'SELECT * FROM demo_data.home_rentals',
  '{"target":"rental_price","using":{}}',
  3,
  5,
  'training candidates',
  null,
  '2026-11-21 23:43:06.749',
  status === 'complete' ? 2.5 : null,
];

describe('parseModelVersions', () => {
  it('reads every version of the models table, oldest first', () => {
    const v = parseModelVersions('mindsdb', {
      column_names: COLS,
      data: [row(2, false, 'training'), row(1, true, 'complete')],
    });
    expect(v.map((x) => [x.version, x.active, x.status])).toEqual([
      [1, true, 'complete'],
      [2, false, 'training'],
    ]);
    expect(v[0]).toMatchObject({
      accuracy: 0.99,
      predict: 'rental_price',
      trainingOptions: { target: 'rental_price', using: {} },
      phase: { current: 3, total: 5, name: 'training candidates' },
      trainingTime: 2.5,
    });
    expect(activeVersion(v)?.version).toBe(1);
    expect(pendingVersion(v)?.version).toBe(2);
  });

  it('understands lower-case column names of other servers', () => {
    const v = parseModelVersions('p', {
      column_names: ['name', 'status', 'version'],
      data: [['x', 'Error', '3']],
    });
    expect(v[0]).toMatchObject({
      name: 'x',
      status: 'error',
      version: 3,
      active: true,
      project: 'p',
    });
  });

  it('tells which statuses change by themselves', () => {
    expect(isBusyStatus('generating')).toBe(true);
    expect(isBusyStatus('training')).toBe(true);
    expect(isBusyStatus('complete')).toBe(false);
    expect(isBusyStatus(undefined)).toBe(false);
  });
});

describe('describeTableToObjects', () => {
  it('makes objects and parses JSON text cells', () => {
    expect(
      describeTableToObjects({
        column_names: ['accuracies', 'inputs', 'model'],
        data: [['{"r2_score": 0.9}', ['a'], 'A --> B']],
      }),
    ).toEqual([{ accuracies: { r2_score: 0.9 }, inputs: ['a'], model: 'A --> B' }]);
  });
});
