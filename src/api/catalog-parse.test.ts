import { describe, expect, it } from 'vitest';
import {
  parseColumns,
  parseDatabases,
  parseModels,
  parseTables,
  qualifiedName,
  quoteIdent,
  quoteString,
  tableKind,
} from './catalog-parse';

describe('parseDatabases', () => {
  it('reads SHOW FULL DATABASES', () => {
    expect(
      parseDatabases({
        column_names: ['Database', 'TYPE', 'ENGINE'],
        data: [
          ['mindsdb', 'project', null],
          ['example_db', 'data', 'duckdb'],
        ],
      }),
    ).toEqual([
      { name: 'mindsdb', type: 'project', engine: null },
      { name: 'example_db', type: 'data', engine: 'duckdb' },
    ]);
  });
  it('reads plain SHOW DATABASES', () => {
    expect(parseDatabases({ column_names: ['Database'], data: [['a']] })).toEqual([
      { name: 'a', type: 'data', engine: null },
    ]);
  });
});

describe('parseTables', () => {
  it('splits schema.table and maps the table type', () => {
    expect(
      parseTables('example_db', {
        column_names: ['Tables_in_example_db', 'Table_type'],
        data: [
          ['demo_data.home_rentals', 'BASE TABLE'],
          ['v', 'VIEW'],
        ],
      }),
    ).toEqual([
      {
        db: 'example_db',
        schema: 'demo_data',
        name: 'home_rentals',
        kind: 'table',
        rawType: 'BASE TABLE',
      },
      { db: 'example_db', name: 'v', kind: 'view', rawType: 'VIEW' },
    ]);
    expect(tableKind('MODEL')).toBe('model');
    expect(tableKind('SYSTEM VIEW')).toBe('view');
  });
});

describe('parseColumns', () => {
  it('uses table_catalog as the database on our instance', () => {
    expect(
      parseColumns({
        column_names: ['table_catalog', 'table_schema', 'table_name', 'column_name', 'data_type'],
        data: [['example_db', 'demo_data', 'home_rentals', 'sqft', 'INTEGER']],
      }),
    ).toEqual([
      {
        db: 'example_db',
        schema: 'demo_data',
        table: 'home_rentals',
        name: 'sqft',
        dataType: 'INTEGER',
      },
    ]);
  });
  it('uses TABLE_SCHEMA as the database when the catalog is def (MindsDB)', () => {
    expect(
      parseColumns({
        column_names: ['TABLE_CATALOG', 'TABLE_SCHEMA', 'TABLE_NAME', 'COLUMN_NAME', 'DATA_TYPE'],
        data: [['def', 'files', 'sales', 'amount', 'double']],
      }),
    ).toEqual([{ db: 'files', table: 'sales', name: 'amount', dataType: 'double' }]);
  });
  it('returns nothing for an unexpected shape', () => {
    expect(parseColumns({ column_names: ['x'], data: [[1]] })).toEqual([]);
  });
});

describe('parseModels', () => {
  it('reads mindsdb.models and keeps one row per model (the active version)', () => {
    const models = parseModels('mindsdb', {
      column_names: [
        'NAME',
        'ENGINE',
        'PROJECT',
        'ACTIVE',
        'VERSION',
        'STATUS',
        'ACCURACY',
        'PREDICT',
        'ERROR',
      ],
      data: [
        ['rentals', 'lightwood', 'mindsdb', false, 1, 'complete', 0.99, 'rental_price', null],
        ['rentals', 'lightwood', 'mindsdb', true, 2, 'training', null, 'rental_price', null],
        ['churn', 'lightwood', 'mindsdb', true, 1, 'error', null, 'churn', 'boom'],
      ],
    });
    expect(models).toEqual([
      {
        project: 'mindsdb',
        name: 'churn',
        status: 'error',
        version: 1,
        active: true,
        predict: 'churn',
        accuracy: null,
        error: 'boom',
      },
      {
        project: 'mindsdb',
        name: 'rentals',
        status: 'training',
        version: 2,
        active: true,
        predict: 'rental_price',
        accuracy: null,
        error: null,
      },
    ]);
  });
});

describe('identifier quoting', () => {
  it('quotes only names that need it', () => {
    expect(quoteIdent('home_rentals')).toBe('home_rentals');
    expect(quoteIdent('my table')).toBe('`my table`');
    expect(quoteIdent('a`b')).toBe('`a``b`');
    expect(qualifiedName(['example_db', 'demo_data', 'home rentals'])).toBe(
      'example_db.demo_data.`home rentals`',
    );
    expect(qualifiedName(['files', undefined, 't'])).toBe('files.t');
    expect(quoteString("it's")).toBe("'it''s'");
  });
});
