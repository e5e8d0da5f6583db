import { describe, expect, it } from 'vitest';
import type { Classification, ClassifiedStatement } from '../../contract';
import { askReason, effectLabel } from './link-verdict';

const st = (effect: ClassifiedStatement['effect'], kind: string): ClassifiedStatement => ({
  sql: 'x',
  start: 0,
  end: 1,
  effect,
  kind,
  reasons: effect === 'read' ? ['It predicts with mindsdb.m for about 50,000 rows'] : [],
  estimated_rows: null,
  predicted_rows: null,
  models: [],
});
const verdict = (...s: ClassifiedStatement[]): Classification => ({
  statements: s,
  run_without_asking: false,
  context: { db: 'mindsdb' },
});

describe('the shared-link dialog words', () => {
  it('labels each statement with what the instance says it does', () => {
    expect(effectLabel(st('write', 'DELETE'))).toBe('Changes data · DELETE');
    expect(effectLabel(st('read', 'SELECT'))).toBe('Reads · SELECT');
  });

  it('says why it asks: a change first, then refusals, then cost; or no judgement at all', () => {
    expect(askReason(verdict(st('read', 'SELECT'), st('write', 'UPDATE')))).toMatch(
      /not a read-only query/,
    );
    expect(askReason(verdict(st('refused', 'statement')))).toMatch(/refuse or fail/);
    expect(askReason(verdict(st('read', 'SELECT')))).toMatch(/expensive or unusual/);
    expect(askReason(null)).toMatch(/could not judge/);
  });
});
