import { describe, expect, it } from 'vitest';
import {
  buildCreateModelSql,
  defaultModelName,
  dropModelSql,
  retrainSql,
  retrainWithoutSql,
  usingLiteral,
  validateCreateModel,
  type CreateModelInput,
} from './create-model-sql';

const base: CreateModelInput = {
  project: 'mindsdb',
  name: 'home_rentals_model',
  source: { kind: 'table', db: 'example_db', schema: 'demo_data', table: 'home_rentals' },
  target: 'rental_price',
  using: [],
};

describe('time-series clauses', () => {
  const ts = { orderBy: 'saledate', groupBy: ['type', 'bedrooms'], window: '8', horizon: '4' };
  const houses: CreateModelInput = {
    ...base,
    name: 'house_sales_model',
    source: { kind: 'table', db: 'example_db', schema: 'demo_data', table: 'house_sales' },
    target: 'ma',
    timeseries: ts,
  };

  it('adds ORDER BY, GROUP BY, WINDOW and HORIZON after PREDICT', () => {
    expect(buildCreateModelSql(houses)).toBe(
      'CREATE MODEL mindsdb.house_sales_model\nFROM example_db\n  (SELECT * FROM demo_data.house_sales)\nPREDICT ma\nORDER BY saledate\nGROUP BY type, bedrooms\nWINDOW 8\nHORIZON 4;',
    );
    expect(validateCreateModel(houses)).toEqual({});
  });

  it('names the field to fix: no time column, a bad WINDOW / HORIZON, a GROUP BY on the target', () => {
    expect(
      validateCreateModel({
        ...houses,
        timeseries: { orderBy: '', groupBy: ['ma'], window: '0', horizon: 'x' },
      }),
    ).toEqual({
      orderBy: 'Choose the time column (ORDER BY)',
      window: 'WINDOW: a whole number of rows from 1 to 10000',
      horizon: 'HORIZON: a whole number of steps from 1 to 10000',
      groupBy: 'GROUP BY ma: not the time column or the column to predict',
    });
    expect(
      buildCreateModelSql({ ...houses, timeseries: { ...ts, groupBy: [], horizon: '' } }),
    ).toMatch(/PREDICT ma\nORDER BY saledate\nWINDOW 8;$/);
  });
});

describe('buildCreateModelSql', () => {
  it('builds the tutorial statement from a table', () => {
    expect(buildCreateModelSql(base)).toBe(
      'CREATE MODEL mindsdb.home_rentals_model\nFROM example_db\n  (SELECT * FROM demo_data.home_rentals)\nPREDICT rental_price;',
    );
  });

  it('uses a free query, quotes odd names and adds USING with typed literals', () => {
    const sql = buildCreateModelSql({
      ...base,
      name: 'm',
      source: { kind: 'query', db: 'my db', query: 'SELECT a, b FROM t WHERE a > 1;' },
      target: 'Exit Flag',
      using: [
        { key: 'engine', value: 'lightwood' },
        { key: 'max_rows', value: '1000' },
        { key: '', value: '' },
      ],
    });
    expect(sql).toBe(
      "CREATE MODEL mindsdb.m\nFROM `my db`\n  (SELECT a, b FROM t WHERE a > 1)\nPREDICT `Exit Flag`\nUSING engine = 'lightwood',\n      max_rows = 1000;",
    );
  });

  it('writes literals: numbers, booleans, JSON, strings with quotes', () => {
    expect(usingLiteral('0.5')).toBe('0.5');
    expect(usingLiteral('TRUE')).toBe('true');
    expect(usingLiteral('{"a": 1}')).toBe('{"a": 1}');
    expect(usingLiteral("it's")).toBe("'it''s'");
  });
});

describe('validateCreateModel', () => {
  it('names each missing or bad field', () => {
    expect(validateCreateModel(base)).toEqual({});
    expect(
      validateCreateModel({
        ...base,
        name: '1bad',
        target: '',
        source: { kind: 'table', db: 'x', table: '' },
        using: [{ key: 'k', value: '' }],
      }),
    ).toEqual({
      name: 'Use letters, digits and underscores, starting with a letter',
      table: 'Choose a table',
      target: 'Choose the column to predict',
      'using.0': 'USING k needs a value',
    });
  });
});

describe('other statements', () => {
  it('retrains, drops and names models', () => {
    expect(retrainSql('mindsdb', 'm')).toBe('RETRAIN mindsdb.m;');
    expect(dropModelSql('p', 'my-model')).toBe('DROP MODEL p.`my-model`;');
    expect(defaultModelName('home_rentals')).toBe('home_rentals_model');
    expect(defaultModelName('2024 sales')).toBe('sales_model');
  });
});

describe('retrainWithoutSql', () => {
  const spec = {
    project: 'mindsdb',
    model: 'rentals',
    db: 'example_db',
    inputs: ['sqft', 'initial_price', 'location'],
    target: 'rental_price',
    without: ['initial_price'],
  };

  it('lists the kept inputs and the target in a SELECT * query, keeping its FROM and WHERE', () => {
    expect(
      retrainWithoutSql({
        ...spec,
        selectQuery: 'SELECT * FROM demo_data.home_rentals WHERE sqft > 0;',
      }),
    ).toBe(
      [
        'RETRAIN mindsdb.rentals',
        'FROM example_db',
        '  (SELECT sqft, location, rental_price',
        '   FROM demo_data.home_rentals WHERE sqft > 0)',
        'PREDICT rental_price;',
      ].join('\n'),
    );
  });

  it('wraps any other query, and quotes names that need it', () => {
    const sql = retrainWithoutSql({
      ...spec,
      inputs: ['sqft', 'initial price'],
      without: ['sqft'],
      selectQuery: 'SELECT a.*, 1 AS k FROM t AS a',
    });
    expect(sql).toContain(
      '(SELECT `initial price`, rental_price\n   FROM (SELECT a.*, 1 AS k FROM t AS a) AS t)',
    );
  });
});
