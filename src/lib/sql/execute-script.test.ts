import { describe, expect, it } from 'vitest';
import type { SqlQueryResponse } from '../../../contract';
import { executeScript, type Executor } from './execute-script';
import { splitStatements } from './split';

const table = (db: string, rows: number): SqlQueryResponse => ({
  type: 'table',
  column_names: ['n'],
  data: Array.from({ length: rows }, (_, i) => [i]),
  context: { db },
});

function fakeExec(log: string[][]): Executor {
  return async (sql, db) => {
    log.push([sql, db]);
    if (sql.startsWith('USE ')) {
      return { type: 'ok', column_names: [], affected_rows: null, context: { db: sql.slice(4) } };
    }
    if (sql.includes('boom')) {
      return {
        type: 'error',
        column_names: [],
        context: { db },
        error_code: 1,
        error_message: 'syntax error (line 1, column 8)',
      };
    }
    if (sql.includes('down')) throw new Error('Cannot reach the instance');
    return table(db, sql.length);
  };
}

describe('executeScript', () => {
  it('threads the context from USE to the following statements and keeps the last result', async () => {
    const log: string[][] = [];
    const out = await executeScript(
      splitStatements('USE example_db; SELECT 1; SELECT 22'),
      'mindsdb',
      fakeExec(log),
      new AbortController().signal,
    );
    expect(log).toEqual([
      ['USE example_db', 'mindsdb'],
      ['SELECT 1', 'example_db'],
      ['SELECT 22', 'example_db'],
    ]);
    expect(out.db).toBe('example_db');
    expect(out.results).toHaveLength(3);
    expect(out.last?.statement.sql).toBe('SELECT 22');
    expect(out.error).toBeUndefined();
  });

  it('stops at the first error and keeps the last successful result', async () => {
    const log: string[][] = [];
    const out = await executeScript(
      splitStatements('SELECT 1; SELECT boom; SELECT 3'),
      'mindsdb',
      fakeExec(log),
      new AbortController().signal,
    );
    expect(log).toHaveLength(2);
    expect(out.last?.statement.sql).toBe('SELECT 1');
    expect(out.error?.statement.sql).toBe('SELECT boom');
    expect(out.error?.response.error_message).toContain('line 1');
  });

  it('reports a transport failure with its statement', async () => {
    const out = await executeScript(
      splitStatements('SELECT 1; SELECT down'),
      'mindsdb',
      fakeExec([]),
      new AbortController().signal,
    );
    expect(out.failure).toEqual({
      statement: expect.objectContaining({ sql: 'SELECT down' }),
      message: 'Cannot reach the instance',
    });
  });

  it('stops when aborted', async () => {
    const ac = new AbortController();
    const exec: Executor = (_sql, db, signal) =>
      new Promise((resolve, reject) => {
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        setTimeout(() => resolve(table(db, 1)), 1000);
      });
    const p = executeScript(splitStatements('SELECT 1; SELECT 2'), 'mindsdb', exec, ac.signal);
    ac.abort();
    const out = await p;
    expect(out.cancelled).toBe(true);
    expect(out.results).toHaveLength(0);
  });
});
