import { describe, expect, it } from 'vitest';
import { planRun } from './run-plan';

const script = 'SELECT 1;\nSELECT 2;\nSELECT 3';

describe('planRun', () => {
  it('runs the statement under the cursor', () => {
    const r = planRun(script, 'current', script.indexOf('2'));
    expect(r.statements.map((s) => s.sql)).toEqual(['SELECT 2']);
  });

  it('runs the selection, split into statements, with script offsets', () => {
    const start = script.indexOf('SELECT 2');
    const r = planRun(script, 'current', 0, { start, end: script.length });
    expect(r.statements.map((s) => s.sql)).toEqual(['SELECT 2', 'SELECT 3']);
    expect(script.slice(r.statements[1].start, r.statements[1].end)).toBe('SELECT 3');
  });

  it('runs every statement of the script', () => {
    expect(planRun(script, 'script', 0).statements).toHaveLength(3);
  });

  it('explains why nothing runs for an empty editor, comments only or a blank selection', () => {
    expect(planRun('   ', 'current', 0).emptyReason).toMatch(/empty/);
    expect(planRun('-- hi', 'script', 0).emptyReason).toMatch(/only comments/);
    expect(planRun('SELECT 1;   ', 'current', 0, { start: 9, end: 12 }).emptyReason).toMatch(
      /selection/,
    );
  });

  it('explains the query under the cursor or the selected queries, keeping error positions on them', () => {
    const text = 'SELECT 1;\n-- a note\nSELECT t.x\nFROM t JOIN m;\nDROP TABLE t';
    const r = planRun(text, 'explain', text.indexOf('t.x'));
    expect(r.mode).toBe('explain');
    expect(r.statements.map((s) => s.sql)).toEqual([
      'EXPLAIN -- a note\nSELECT t.x\nFROM t JOIN m',
    ]);
    // A position the server reports in the sent text lands on the same character of the script.
    const [s] = r.statements;
    const sentAt = s.sql.indexOf('t.x');
    expect(text.slice(s.start + sentAt, s.start + sentAt + 3)).toBe('t.x');
    const all = planRun(text, 'explain', 0, { start: 0, end: text.length });
    expect(all.statements.map((x) => x.sql)).toEqual([
      'EXPLAIN SELECT 1',
      'EXPLAIN -- a note\nSELECT t.x\nFROM t JOIN m',
    ]);
    expect(planRun(text, 'explain', text.indexOf('DROP')).emptyReason).toMatch(
      /no query to explain/,
    );
  });
});
