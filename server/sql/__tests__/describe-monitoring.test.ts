/**
 * The monitoring attributes' syntax (issue 27): DESCRIBE m.drift / m.effects / m.diff with
 * RETRAIN's FROM and USING clauses; DuckDB's DESCRIBE stays DuckDB's.
 */
import { describe, expect, it } from 'vitest';
import { parseMindsStatement } from '../syntax/grammar';
import { StatementSource } from '../syntax/source';
import { Tokens } from '../syntax/tokens';

const parse = (sql: string) =>
  parseMindsStatement(new Tokens(sql), new StatementSource(sql, 0, sql));

describe('DESCRIBE with FROM and USING', () => {
  it('reads the data of a drift report as RETRAIN reads its FROM', () => {
    const sql =
      'DESCRIBE mindsdb.home_rentals_model.drift FROM example_db (SELECT * FROM demo_data.home_rentals_this_month)';
    expect(parse(sql)).toMatchObject({
      kind: 'describe',
      object: null,
      name: ['mindsdb', 'home_rentals_model', 'drift'],
      source: {
        db: 'example_db',
        query: {
          text: 'SELECT * FROM demo_data.home_rentals_this_month',
          start: sql.indexOf('SELECT'),
        },
      },
    });
    expect(parse('DESCRIBE MODEL m.drift FROM files.today USING psi = 0.1')).toEqual({
      kind: 'describe',
      object: 'MODEL',
      name: ['m', 'drift'],
      source: { db: 'files', query: { text: '', start: 28 }, table: ['today'] },
      using: { psi: 0.1 },
    });
  });

  it('reads USING alone, and versions', () => {
    expect(parse('DESCRIBE m.2.diff USING against = 1, limit = 10')).toMatchObject({
      name: ['m', '2', 'diff'],
      using: { against: 1, limit: 10 },
    });
    expect(parse("DESCRIBE m.effects USING column = 'sqft'")).toMatchObject({
      using: { column: 'sqft' },
    });
  });

  it('leaves DuckDB its DESCRIBE and refuses text after a model name', () => {
    expect(parse('DESCRIBE SELECT * FROM t')).toBeNull();
    expect(parse('DESCRIBE t')).toEqual({ kind: 'describe', object: null, name: ['t'] });
    expect(() => parse('DESCRIBE MODEL m.drift FROM db (SELECT 1) junk')).toThrow(
      /unexpected text after the name/,
    );
  });
});
