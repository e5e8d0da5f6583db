import { describe, expect, it } from 'vitest';
import { splitStatements } from '../../lib/sql/split';
import { outcomeProblem, scriptSummary, statusText } from './result-view';

const ctx = { db: 'mindsdb' };

describe('statusText', () => {
  it('shows rows, columns, time and the truncated marker', () => {
    expect(
      statusText({ type: 'table', column_names: ['a', 'b'], data: [[1, 2]], context: ctx }, 12.4),
    ).toBe('1 row · 2 columns · 12 ms');
    expect(
      statusText(
        {
          type: 'table',
          column_names: ['a'],
          data: Array(100000).fill([1]),
          context: ctx,
          truncated: true,
        },
        1500,
      ),
    ).toBe('100,000 rows · 1 column · 1.50 s · truncated by the server');
  });
  it('shows filtered counts', () => {
    expect(
      statusText({ type: 'table', column_names: ['a'], data: [[1], [2]], context: ctx }, 1, 1),
    ).toBe('1 of 2 rows · 1 column · 1 ms');
  });
  it('shows affected rows for ok results', () => {
    expect(statusText({ type: 'ok', column_names: [], affected_rows: 3, context: ctx }, 5)).toBe(
      '3 rows affected · 5 ms',
    );
    expect(statusText({ type: 'ok', column_names: [], affected_rows: null, context: ctx }, 5)).toBe(
      'Statement executed · 5 ms',
    );
  });
});

describe('scriptSummary', () => {
  const statements = splitStatements('SELECT 1; SELECT 2; SELECT 3');
  const ok = { type: 'ok' as const, column_names: [], context: ctx };
  it('says where a script stopped', () => {
    expect(
      scriptSummary({
        total: 3,
        results: [
          { statement: statements[0], response: ok, durationMs: 1 },
          {
            statement: statements[1],
            response: {
              type: 'error',
              column_names: [],
              context: ctx,
              error_code: 1,
              error_message: 'x',
            },
            durationMs: 1,
          },
        ],
        error: {
          statement: statements[1],
          response: {
            type: 'error',
            column_names: [],
            context: ctx,
            error_code: 1,
            error_message: 'x',
          },
          durationMs: 1,
        },
        cancelled: false,
        db: 'mindsdb',
        durationMs: 2,
      }),
    ).toBe('Stopped at statement 2 of 3');
  });
  it('is silent for a single statement', () => {
    expect(
      scriptSummary({ total: 1, results: [], cancelled: false, db: 'x', durationMs: 1 }),
    ).toBeUndefined();
  });
});

describe('outcomeProblem', () => {
  const [first] = splitStatements('SELECT nme FROM t');
  const base = { total: 1, results: [], cancelled: false, db: 'mindsdb', durationMs: 3 };
  it('gives a SQL error in words with the engine text and the statement', () => {
    const message = 'Binder Error: Referenced column "nme" not found. Did you mean "name"?';
    const p = outcomeProblem({
      ...base,
      error: {
        statement: first,
        response: {
          type: 'error',
          column_names: [],
          context: ctx,
          error_code: 1,
          error_message: message,
        },
        durationMs: 3,
      },
    });
    expect(p?.text).toBe(message);
    expect(p?.words?.suggestion).toBe('name');
    expect(p?.sql).toBe('SELECT nme FROM t');
  });
  it('gives a transport failure as it came, with no words; nothing for a clean run', () => {
    expect(outcomeProblem({ ...base, failure: { statement: first, message: 'HTTP 502' } })).toEqual(
      { text: 'HTTP 502', words: undefined, sql: 'SELECT nme FROM t' },
    );
    expect(outcomeProblem(base)).toBeUndefined();
  });
});
