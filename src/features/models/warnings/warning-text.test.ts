import { describe, expect, it } from 'vitest';
import { droppableColumn, suspectReasons, warningTitle } from './warning-text';

const w = (kind: string, column: string | null = null) => ({ kind, column, message: '…' });

describe('warningTitle', () => {
  it('titles the known kinds and makes an unknown kind readable', () => {
    expect(warningTitle('dominant_input')).toBe('One input does nearly all the work');
    expect(warningTitle('class_drift')).toBe('Class drift');
    expect(warningTitle('')).toBe('Warning');
  });
});

describe('suspectReasons', () => {
  it('names what makes a score flattering, and nothing for an honest model', () => {
    expect(
      suspectReasons([w('dominant_input', 'initial_price'), w('identifier_like', 'id')]),
    ).toEqual([
      "its score leans on 'initial_price', a likely leak",
      "it reads 'id', an identifier",
    ]);
    expect(suspectReasons([w('too_few_rows')])).toEqual(['it learned from few rows']);
    expect(suspectReasons([w('rare_class'), w('narrow_intervals'), w('weak_model')])).toEqual([]);
    expect(suspectReasons([])).toEqual([]);
  });
});

describe('droppableColumn', () => {
  it('offers to drop a leaking input or an identifier, not other columns', () => {
    expect(droppableColumn(w('dominant_input', 'initial_price'))).toBe('initial_price');
    expect(droppableColumn(w('identifier_like', 'id'))).toBe('id');
    expect(droppableColumn(w('mostly_missing', 'notes'))).toBeNull();
    expect(droppableColumn(w('dominant_input'))).toBeNull();
  });
});
