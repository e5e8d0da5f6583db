import { describe, expect, it } from 'vitest';
import { planRun } from '../features/sql-editor/run-plan';
import type { ScriptOutcome } from '../lib/sql/execute-script';
import { historyEntryFor, markerFor } from './run-record';

const ctx = { db: 'mindsdb' };

/** A script outcome that failed at `statement` with `response`. */
const failedAt = (
  statement: NonNullable<ScriptOutcome['error']>['statement'],
  response: NonNullable<ScriptOutcome['error']>['response'],
): ScriptOutcome => ({
  total: 2,
  results: [],
  error: { statement, response, durationMs: 1 },
  cancelled: false,
  db: 'mindsdb',
  durationMs: 1,
});

describe('markerFor', () => {
  it('marks the error position of the failing statement in the whole script', () => {
    const script = 'SELECT 1;\n\nSELECT *\nFROM nope;';
    const req = planRun(script, 'script', 0);
    const o = failedAt(req.statements[1], {
      type: 'error',
      column_names: [],
      context: ctx,
      error_code: 2,
      error_message: 'Table nope does not exist (line 2, column 6)',
      error_position: { line: 2, column: 6 },
    });
    expect(markerFor(req, o)).toEqual({
      startLine: 4,
      startColumn: 6,
      endLine: 4,
      endColumn: 10,
      message: 'Table nope does not exist (line 2, column 6)',
    });
  });
});

describe('markerFor without a position field', () => {
  it('reads no position out of the message text: the statement start is marked', () => {
    const script = 'SELECT 1;\n\nSELECT *\nFROM nope;';
    const req = planRun(script, 'script', 0);
    const o = failedAt(req.statements[1], {
      type: 'error',
      column_names: [],
      context: ctx,
      error_code: 2,
      error_message: 'Table nope does not exist (line 2, column 6)',
    });
    expect(markerFor(req, o)).toMatchObject({ startLine: 3, startColumn: 1, endLine: 3 });
  });
});

describe('historyEntryFor', () => {
  it('records rows of the last result and joins script statements', () => {
    const req = planRun('USE example_db; SELECT 1', 'script', 0);
    const o: ScriptOutcome = {
      total: 2,
      results: [],
      last: {
        statement: req.statements[1],
        response: { type: 'table', column_names: ['x'], data: [[1], [2]], context: ctx },
        durationMs: 3,
      },
      cancelled: false,
      db: 'example_db',
      durationMs: 7.6,
    };
    expect(historyEntryFor(req, o, 'mindsdb', 5)).toEqual({
      sql: 'USE example_db;\nSELECT 1;',
      db: 'mindsdb',
      at: 5,
      durationMs: 8,
      status: 'ok',
      rowCount: 2,
    });
  });
});
