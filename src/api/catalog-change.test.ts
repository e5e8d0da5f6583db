import { describe, expect, it } from 'vitest';
import { changesCatalog, isModelsTableAnswer } from './catalog-change';
import type { SqlQueryResponse } from '../../contract';

const ctx = { db: 'mindsdb' };
/** A models-table row as CREATE MODEL answers it (abridged: the identifying columns and a few). */
const MODELS_ROW_COLUMNS = [
  'NAME',
  'ENGINE',
  'PROJECT',
  'ACTIVE',
  'VERSION',
  'STATUS',
  'ACCURACY',
  'PREDICT',
  'ERROR',
];

describe('changesCatalog', () => {
  it("follows the server's catalog_changed whenever it is present", () => {
    const created: SqlQueryResponse = {
      type: 'table',
      column_names: ['x'],
      data: [[1]],
      context: ctx,
      catalog_changed: true,
    };
    const insertOk: SqlQueryResponse = {
      type: 'ok',
      column_names: [],
      context: ctx,
      affected_rows: 3,
      catalog_changed: false,
    };
    const modelsSelect: SqlQueryResponse = {
      type: 'table',
      column_names: MODELS_ROW_COLUMNS,
      data: [],
      context: ctx,
      catalog_changed: false,
    };
    expect(changesCatalog(created)).toBe(true);
    expect(changesCatalog(insertOk)).toBe(false);
    expect(changesCatalog(modelsSelect)).toBe(false);
  });

  it('without the field (a real MindsDB), refreshes after any ok and after a models-table row', () => {
    expect(changesCatalog({ type: 'ok', column_names: [], context: ctx })).toBe(true);
    expect(
      changesCatalog({
        type: 'table',
        column_names: MODELS_ROW_COLUMNS.map((c) => c.toLowerCase()),
        data: [],
        context: ctx,
      }),
    ).toBe(true);
    expect(
      changesCatalog({ type: 'table', column_names: ['name', 'status'], data: [], context: ctx }),
    ).toBe(false);
  });

  it('never refreshes after an error', () => {
    expect(
      changesCatalog({
        type: 'error',
        column_names: [],
        context: ctx,
        error_code: 7,
        error_message: 'exists',
      }),
    ).toBe(false);
  });
});

describe('isModelsTableAnswer', () => {
  it('needs the identifying columns, in any case', () => {
    expect(isModelsTableAnswer(MODELS_ROW_COLUMNS)).toBe(true);
    expect(isModelsTableAnswer(['name', 'engine', 'project', 'version', 'status', 'predict'])).toBe(
      true,
    );
    expect(isModelsTableAnswer(['NAME', 'STATUS', 'PREDICT'])).toBe(false);
  });
});
