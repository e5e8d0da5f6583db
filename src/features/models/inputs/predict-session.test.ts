import { describe, expect, it } from 'vitest';
import { buildFormFields } from './predict-form';
import { initialSession, predictReducer, shownJson } from './predict-session';

const fields = buildFormFields(
  [
    { column: 'sqft', type: 'integer', encoder: null, role: 'input' },
    { column: 'location', type: 'categorical', encoder: null, role: 'input' },
  ],
  ['sqft', 'location'],
  { options: { location: ['good', 'great'] } },
);
const reduce = predictReducer(fields);
const json = (s: ReturnType<typeof initialSession>) => JSON.parse(shownJson(s, fields, 'array'));

describe('predict session', () => {
  it('starts with one empty row whose inputs are sent as null', () => {
    const s = initialSession();
    expect(json(s)).toEqual([{ sqft: null, location: null }]);
  });

  it('rewrites the JSON when a form field changes', () => {
    const s = reduce(initialSession(), {
      type: 'cell',
      row: 0,
      column: 'sqft',
      value: '823',
    });
    expect(json(s)).toEqual([{ sqft: 823, location: null }]);
  });

  it('makes the form follow valid JSON and keeps the text as typed', () => {
    const text = '[{"sqft": 700, "location": "great"},\n {"sqft": 1}]';
    const s = reduce(initialSession(), { type: 'json', text });
    expect(s.jsonText).toBe(text);
    expect(s.jsonError).toBeNull();
    expect(s.rows.map((r) => r.cells)).toEqual([{ sqft: '700', location: 'great' }, { sqft: '1' }]);
  });

  it('marks invalid JSON and keeps the last valid rows', () => {
    const a = reduce(initialSession(), { type: 'cell', row: 0, column: 'sqft', value: '5' });
    const b = reduce(a, { type: 'json', text: '[{"sqft": 5' });
    expect(b.jsonError).toMatch(/Invalid JSON/);
    expect(b.rows[0].cells.sqft).toBe('5');
    // Fixing it through the form replaces the broken text.
    const c = reduce(b, { type: 'cell', row: 0, column: 'sqft', value: '6' });
    expect(c.jsonError).toBeNull();
    expect(json(c)).toEqual([{ sqft: 6, location: null }]);
  });

  it('adds, duplicates and removes rows, never leaving none', () => {
    let s = initialSession();
    s = reduce(s, { type: 'cell', row: 0, column: 'sqft', value: '1' });
    s = reduce(s, { type: 'duplicate-row', row: 0 });
    expect(s.rows).toHaveLength(2);
    expect(s.selected).toBe(1);
    expect(s.rows[1].cells.sqft).toBe('1');
    expect(s.rows[1].id).not.toBe(s.rows[0].id);
    s = reduce(s, { type: 'remove-row', row: 0 });
    s = reduce(s, { type: 'remove-row', row: 0 });
    expect(s.rows).toHaveLength(1);
    expect(s.rows[0].cells).toEqual({});
  });

  it('pasted rows replace a blank form or are appended', () => {
    const pasted = [{ id: 'p', cells: { sqft: '9' }, extra: {} }];
    const s = reduce(initialSession(), { type: 'append-rows', rows: pasted });
    expect(s.rows.map((r) => r.id)).toEqual(['p']);
    const t = reduce(s, { type: 'append-rows', rows: [{ id: 'q', cells: {}, extra: {} }] });
    expect(t.rows.map((r) => r.id)).toEqual(['p', 'q']);
  });

  it('formats the MindsDB envelope when that mode is used', () => {
    const s = initialSession();
    expect(JSON.parse(shownJson(s, fields, 'envelope'))).toEqual({
      data: [{ sqft: null, location: null }],
    });
  });

  it('asks for explanations in params, which puts the body in its {"data", "params"} form', () => {
    const s = reduce(initialSession(), { type: 'explain', on: true });
    expect(s.explain).toBe(true);
    expect(JSON.parse(shownJson(s, fields, 'array', { explain: true }))).toEqual({
      data: [{ sqft: null, location: null }],
      params: { explain: true },
    });
  });

  it('follows params.explain typed into the JSON, and keeps it when the JSON does not say', () => {
    let s = reduce(initialSession(), { type: 'explain', on: true });
    s = reduce(s, { type: 'json', text: '{"data": [{"sqft": 1}], "params": {"explain": false}}' });
    expect(s.explain).toBe(false);
    s = reduce(s, { type: 'json', text: '[{"sqft": 2}]' });
    expect(s.explain).toBe(false);
    expect(s.rows[0].cells.sqft).toBe('2');
  });
});
