import { describe, expect, it } from 'vitest';
import type { SqlTableResponse } from '../../contract';
import { trainedModelOf } from './model-answer';

const COLUMNS = ['NAME', 'ENGINE', 'PROJECT', 'ACTIVE', 'VERSION', 'STATUS', 'PREDICT'];
const row = (extra: Partial<SqlTableResponse> = {}): SqlTableResponse => ({
  type: 'table',
  column_names: COLUMNS,
  data: [['rentals', 'lightwood', 'mindsdb', false, 2, 'generating', 'rental_price']],
  context: { db: 'mindsdb' },
  ...extra,
});

describe('trainedModelOf', () => {
  it('reads the model of a CREATE MODEL / RETRAIN answer', () => {
    expect(
      trainedModelOf(row(), 'CREATE MODEL mindsdb.rentals FROM x (SELECT 1) PREDICT y'),
    ).toEqual({ project: 'mindsdb', model: 'rentals', version: 2 });
    expect(trainedModelOf(row(), '-- again\nRETRAIN mindsdb.rentals')).toMatchObject({
      model: 'rentals',
    });
  });
  it("follows the server's catalog_changed when it says so", () => {
    expect(trainedModelOf(row({ catalog_changed: true }), 'anything')).toMatchObject({
      model: 'rentals',
    });
    expect(trainedModelOf(row({ catalog_changed: false }), 'CREATE MODEL x')).toBeUndefined();
  });
  it('leaves a SELECT of the models table, other tables and ok answers alone', () => {
    expect(trainedModelOf(row(), 'SELECT * FROM mindsdb.models')).toBeUndefined();
    expect(
      trainedModelOf(row({ column_names: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }), 'CREATE TABLE t'),
    ).toBeUndefined();
    expect(
      trainedModelOf({ type: 'ok', column_names: [], context: { db: 'x' } }, 'CREATE MODEL m'),
    ).toBeUndefined();
  });
});
