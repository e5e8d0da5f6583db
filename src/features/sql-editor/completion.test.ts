import { describe, expect, it } from 'vitest';
import {
  completionContext,
  modelTargetsIn,
  referencedModels,
  referencedRelations,
  suggest,
  type CatalogSnapshot,
} from './completion';

const cat: CatalogSnapshot = {
  databases: [
    { name: 'mindsdb', type: 'project', engine: null },
    { name: 'example_db', type: 'data', engine: 'duckdb' },
  ],
  tables: [
    {
      db: 'example_db',
      schema: 'demo_data',
      name: 'home_rentals',
      kind: 'table',
      rawType: 'BASE TABLE',
    },
    {
      db: 'example_db',
      schema: 'demo_data',
      name: 'diabetes',
      kind: 'table',
      rawType: 'BASE TABLE',
    },
    { db: 'mindsdb', name: 'rentals_model', kind: 'model', rawType: 'MODEL' },
  ],
  columns: [
    {
      db: 'example_db',
      schema: 'demo_data',
      table: 'home_rentals',
      name: 'sqft',
      dataType: 'INTEGER',
    },
    {
      db: 'example_db',
      schema: 'demo_data',
      table: 'home_rentals',
      name: 'rental_price',
      dataType: 'DOUBLE',
    },
    { db: 'example_db', schema: 'demo_data', table: 'diabetes', name: 'age', dataType: 'BIGINT' },
  ],
  models: [{ project: 'mindsdb', name: 'rentals_model', status: 'complete' }],
};

const labels = (before: string, statement = before, db = 'mindsdb') =>
  suggest(completionContext(before), cat, statement, db).map((s) => s.label);

describe('completionContext', () => {
  it('detects dotted member paths with the typed prefix', () => {
    expect(completionContext('SELECT * FROM example_db.demo_data.ho')).toEqual({
      kind: 'member',
      path: ['example_db', 'demo_data'],
      prefix: 'ho',
    });
    expect(completionContext('SELECT `my db`.')).toEqual({
      kind: 'member',
      path: ['my db'],
      prefix: '',
    });
  });
  it('detects relation and database positions', () => {
    expect(completionContext('SELECT * FROM ')).toEqual({ kind: 'relation', prefix: '' });
    expect(completionContext('select * from x join ta')).toEqual({
      kind: 'relation',
      prefix: 'ta',
    });
    expect(completionContext('USE ex')).toEqual({ kind: 'database', prefix: 'ex' });
    expect(completionContext('SELECT co')).toEqual({ kind: 'any', prefix: 'co' });
  });
});

describe('referencedRelations', () => {
  it('maps tables and aliases', () => {
    const r = referencedRelations(
      'SELECT t.sqft FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.rentals_model m WHERE 1',
    );
    expect(r.get('t')).toEqual({ db: 'example_db', schema: 'demo_data', table: 'home_rentals' });
    expect(r.get('m')).toEqual({ db: 'mindsdb', table: 'rentals_model' });
    expect(r.has('where')).toBe(false);
  });
});

describe('suggest', () => {
  it('suggests schemas after a database and tables after a schema', () => {
    expect(labels('SELECT * FROM example_db.')).toEqual(['demo_data']);
    expect(labels('SELECT * FROM example_db.demo_data.')).toEqual(['home_rentals', 'diabetes']);
  });
  it('suggests models and the models table of a project', () => {
    expect(labels('SELECT * FROM mindsdb.')).toEqual(
      expect.arrayContaining(['rentals_model', 'models']),
    );
  });
  it('suggests columns for an alias and for a fully qualified table', () => {
    const stmt = 'SELECT t. FROM example_db.demo_data.home_rentals t';
    expect(labels('SELECT t.', stmt)).toEqual(['sqft', 'rental_price']);
    expect(labels('SELECT example_db.demo_data.home_rentals.')).toEqual(['sqft', 'rental_price']);
  });
  it('suggests the columns of referenced tables first, then keywords', () => {
    const s = suggest(
      completionContext('SELECT '),
      cat,
      'SELECT  FROM example_db.demo_data.diabetes',
      'mindsdb',
    );
    expect(s[0]).toMatchObject({ label: 'age', kind: 'column', rank: 0 });
    expect(s.some((x) => x.label === 'PREDICT' && x.kind === 'keyword')).toBe(true);
  });
  it('suggests schema-qualified tables of the current database after FROM', () => {
    expect(labels('SELECT * FROM ', 'SELECT * FROM ', 'example_db')).toEqual(
      expect.arrayContaining(['demo_data.home_rentals', 'mindsdb', 'example_db']),
    );
  });
  it('suggests databases after USE', () => {
    expect(labels('USE ')).toEqual(['mindsdb', 'example_db']);
  });
});

describe('modelTargetsIn', () => {
  const cat = {
    databases: [],
    tables: [],
    columns: [],
    models: [
      { project: 'mindsdb', name: 'rentals', status: 'complete', predict: 'rental_price' },
      { project: 'other', name: 'churn', status: 'complete', predict: 'Churn' },
    ],
  };
  it('names the targets of the models a statement reads, qualified or in the current project', () => {
    expect(
      modelTargetsIn(
        'SELECT t.sqft, m.rental_price FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.rentals AS m',
        cat,
        'example_db',
      ),
    ).toEqual(['rental_price']);
    expect(modelTargetsIn('SELECT * FROM churn WHERE tenure = 3', cat, 'other')).toEqual(['Churn']);
    expect(modelTargetsIn('SELECT * FROM churn', cat, 'mindsdb')).toEqual([]);
  });
});

describe('model columns', () => {
  const withModel: CatalogSnapshot = {
    databases: [{ name: 'mindsdb', type: 'project', engine: null }],
    tables: [],
    columns: [],
    models: [{ project: 'mindsdb', name: 'rentals', status: 'complete', predict: 'rental_price' }],
    modelColumns: [
      {
        project: 'mindsdb',
        model: 'rentals',
        columns: [
          { name: 'sqft', type: 'integer', role: 'input' },
          { name: 'location', type: 'categorical', role: 'input' },
          { name: 'rental_price', type: 'float', role: 'target' },
        ],
      },
    ],
  };
  const at = (before: string, after = '') =>
    suggest(completionContext(before), withModel, before + after, 'mindsdb');

  it("offers a model's input columns first inside WHERE of a model query", () => {
    const items = at("SELECT * FROM mindsdb.rentals WHERE location = 'good' AND ");
    const first = items.filter((s) => s.rank === 0).map((s) => s.label);
    expect(first).toEqual(['sqft', 'location']);
    expect(items.find((s) => s.label === 'sqft')?.detail).toBe('input of rentals · integer');
    expect(items.find((s) => s.label === 'rental_price')).toMatchObject({
      rank: 1,
      detail: 'prediction of rentals',
    });
  });

  it('through an alias of the model in a JOIN, and unqualified in the current project', () => {
    const joined = suggest(
      completionContext('SELECT t.x, m.'),
      withModel,
      'SELECT t.x, m. FROM example_db.t AS t JOIN rentals AS m',
      'mindsdb',
    );
    expect(joined.map((s) => s.label)).toEqual(
      expect.arrayContaining(['sqft', 'location', 'rental_price']),
    );
    expect(at('SELECT * FROM rentals WHERE ').filter((s) => s.rank === 0)).toHaveLength(2);
  });

  it('finds the models a statement reads, by alias too', () => {
    const refs = referencedModels('SELECT * FROM t JOIN mindsdb.rentals AS m', withModel, 'x');
    expect([...refs.keys()].sort()).toEqual(['m', 'rentals']);
  });
});
