// The predict body read straight into columns answers what JSON.parse and columnsOfRows answer,
// value for value, and leaves every body it is not sure of to the generic path (undefined).
import { describe, expect, it } from 'vitest';
import { columnsOfRows } from '../../models/predict/batch';
import { RowColumns, readRowColumns } from '../row-columns';

const parseOther = (text: string) => ({ value: JSON.parse(text) as unknown });
const read = (text: string) => readRowColumns(Buffer.from(text, 'utf8'), parseOther);

/** Columns in key order, -0 told apart from 0 (toEqual would not). */
const shown = (columns: Record<string, ArrayLike<unknown>>) =>
  Object.keys(columns).map((k) => [
    k,
    Array.from(columns[k], (v) => (Object.is(v, -0) ? '-0' : typeof v === 'number' ? v : [v])),
  ]);

/** readRowColumns of `text` against JSON.parse then columnsOfRows. */
function same(text: string) {
  const got = read(text);
  expect(got).toBeInstanceOf(RowColumns);
  const rows = JSON.parse(text) as unknown[];
  const { n, columns } = got as RowColumns;
  expect(n).toBe(rows.length);
  expect(shown(columns)).toStrictEqual(shown(columnsOfRows(rows)));
}

/** A seeded generator (xorshift), so a failure repeats. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

const NUMBER_TEXTS = [
  '0',
  '-0',
  '-0.0',
  '7',
  '-12',
  '0.1',
  '0.30000000000000004',
  '123456789012345',
  '1234567890123456789',
  '9007199254740993',
  '1.5e3',
  '1E-7',
  '2e+2',
  '5e-324',
  '1.7976931348623157e308',
  '0.000001234',
  '3.14159265358979323846',
  '100.250',
  '1000000000000000000000000',
  '-98.76',
];

describe('readRowColumns', () => {
  it('reads numbers as JSON.parse does, bit for bit', () => {
    same(`[${NUMBER_TEXTS.map((t) => `{"x": ${t}}`).join(',')}]`);
    const next = rng(7);
    const cells: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const r = next();
      const v =
        r < 0.3
          ? (next() - 0.5) * 10 ** Math.floor(next() * 30 - 15)
          : r < 0.6
            ? Math.round(next() * 1e6) / 10 ** Math.floor(next() * 8)
            : r < 0.8
              ? Math.floor((next() - 0.5) * 2 ** 53)
              : next();
      cells.push(`{"x":${JSON.stringify(v)}}`);
    }
    same(`[${cells.join(',')}]`);
  });

  it('marks the numbers whose text is what JSON.stringify writes, and only those', () => {
    const texts = [...NUMBER_TEXTS, '1.25', '0.5', '-3', '1e-7', '0.000001', '0.0000001', '10.0'];
    const cells = Array.from({ length: 2000 }, (_, i) => {
      const v = (i % 3 ? Math.round(i * 7.3) / 10 ** (i % 6) : i * 1e-8) * (i % 2 ? -1 : 1);
      return JSON.stringify(v);
    });
    const all = [...texts, ...cells];
    const body = Buffer.from(`[${all.map((t) => `{"x": ${t}, "s": "${t}"}`).join(',')}]`);
    const got = readRowColumns(body, parseOther) as RowColumns;
    const marked = Array.from(got.text.at.x, (start, i) => {
      const v = got.columns.x[i];
      if (start < 0) return false;
      expect(body.toString('latin1', start, start + all[i].length)).toBe(JSON.stringify(v));
      return true;
    });
    // Marked exactly when the text is JavaScript's own, without an exponent (JavaScript writes
    // one below 1e-6: those are left unmarked), up to 15 significant digits.
    const own = (t: string) => JSON.stringify(Number(t)) === t && !t.includes('e');
    expect(marked).toEqual(all.map((t) => own(t) && t.replace(/^-?0?\.?0*|\./g, '').length <= 15));
    expect(marked.filter(Boolean).length).toBeGreaterThan(1500);
    expect(Array.from(got.text.at.s).every((a) => a === -1)).toBe(true);
  });

  it('reads strings, literals, absent and repeated keys, any key order and white space', () => {
    same('[{"a":"plain","b":true,"c":null},{"c":false,"a":"é ü 雪 😀"}]');
    same('[{"a":"esc \\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\ud83d\\ude00"}, {"b": 1}]');
    same('[{"a":1,"a":2,"b":3},{"b":4}]');
    same('[{"7":1,"b":2,"2":3},{"b":4,"7":5}]');
    same(' \n[ { "a" : 1 , "b" : "x" } ,\t{ } , {"b":"y"}\r\n] ');
    same('[{},{},{"late":1.5}]');
    same('[{"k\\u0065y":1},{"key":2}]');
    same('[{"":1,"a b":2}]');
  });

  it('reads the envelope: data as columns, the other keys as JSON.parse reads them', () => {
    const got = read('{"params": {"explain": true, "x": [1, {"y": "}"}]}, "data": [{"a": 1}]}');
    expect(got).not.toBeInstanceOf(RowColumns);
    const env = got as { data: RowColumns; params: unknown };
    expect(env.params).toEqual({ explain: true, x: [1, { y: '}' }] });
    expect(env.data.n).toBe(1);
    expect(env.data.columns.a).toEqual(Float64Array.of(1));
    expect(Object.keys(got!)).toEqual(['params', 'data']);
    const other = readRowColumns(
      Buffer.from('{"data":[{"a":1}],"params":{"k":1}}'),
      () => undefined,
    );
    expect(other).toBeUndefined();
  });

  it('starts after a byte order mark', () => {
    const got = readRowColumns(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[{"a":2}]')]),
      parseOther,
    );
    expect((got as RowColumns).columns.a).toEqual(Float64Array.of(2));
  });

  it.each([
    ['an empty array', '[]'],
    ['a nested object', '[{"a":{"b":1}}]'],
    ['an array cell', '[{"a":[1]}]'],
    ['a row that is not an object', '[{"a":1}, 2]'],
    ['a __proto__ key', '[{"__proto__":{"x":1}}]'],
    ['a constructor key', '[{"a":1},{"constructor":1}]'],
    ['a number beyond a double', '[{"a":1e999}]'],
    ['a leading zero', '[{"a":01}]'],
    ['a bare fraction', '[{"a":.5}]'],
    ['a trailing comma', '[{"a":1},]'],
    ['a trailing comma in a row', '[{"a":1,}]'],
    ['single quotes', "[{'a':1}]"],
    ['a raw control character', '[{"a":"x\ny"}]'],
    ['text after the value', '[{"a":1}] x'],
    ['an unterminated body', '[{"a":1}'],
    ['data as a string', '{"data":"[{\\"a\\":1}]"}'],
    ['no data', '{"params":{}}'],
    ['a repeated envelope key', '{"data":[{"a":1}],"data":[{"a":2}]}'],
    ['a scalar', '12'],
    ['an invalid escape', '[{"a":"\\x"}]'],
  ])('leaves %s to the generic path', (_, text) => {
    expect(read(text)).toBeUndefined();
  });
});
