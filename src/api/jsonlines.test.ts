import { describe, expect, it } from 'vitest';
import { createStreamAssembler } from './jsonlines';

const ev = (doc: unknown) => `data: ${JSON.stringify(doc)}\n\n`;
const endComment = (rowCount: number, truncated: boolean) =>
  `: ${JSON.stringify({ type: 'end', row_count: rowCount, truncated })}\n\n`;

/** This instance's header: MindsDB's two keys first, then what MindsDB clients ignore. */
const header = ev({
  type: 'table',
  column_names: ['i', 's'],
  context: { db: 'mindsdb' },
  column_types: ['BIGINT', 'VARCHAR'],
  row_limit: 10_000_000,
});

describe('createStreamAssembler', () => {
  it("assembles this instance's stream, split anywhere, into a table response", () => {
    const text = `${header}${ev([
      [1, 'a'],
      [2, 'b'],
    ])}${ev([[3, 'c']])}${endComment(3, false)}`;
    const a = createStreamAssembler(100, 'other');
    for (let i = 0; i < text.length; i += 7) a.push(text.slice(i, i + 7));
    expect(a.finish()).toEqual({
      type: 'table',
      column_names: ['i', 's'],
      column_types: ['BIGINT', 'VARCHAR'],
      context: { db: 'mindsdb' },
      data: [
        [1, 'a'],
        [2, 'b'],
        [3, 'c'],
      ],
    });
  });

  it("reads a MindsDB server's stream (no context, no end record) as the complete result", () => {
    // Byte for byte what MindsDB's stream_http_response_sse writes (orjson, compact).
    const text =
      'data: {"type":"table","column_names":["sqft","rental_price"]}\n\n' +
      'data: [[917,3901],[194,2042]]\n\n' +
      'data: [[543,1871]]\n\n';
    const a = createStreamAssembler(100, 'example_db');
    a.push(text);
    expect(a.finish()).toEqual({
      type: 'table',
      column_names: ['sqft', 'rental_price'],
      context: { db: 'example_db' },
      data: [
        [917, 3901],
        [194, 2042],
        [543, 1871],
      ],
    });
  });

  it('stops at maxRows and marks the result truncated', () => {
    const a = createStreamAssembler(2, 'mindsdb');
    expect(a.push(`${header}${ev([[1, 'a']])}`)).toBe(false);
    expect(
      a.push(
        ev([
          [2, 'b'],
          [3, 'c'],
        ]),
      ),
    ).toBe(true);
    const r = a.finish();
    expect(r.type === 'table' && r.data).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(r.type === 'table' && r.truncated).toBe(true);
  });

  it('does not mark a result of exactly maxRows as truncated when the end record says it is whole', () => {
    const a = createStreamAssembler(2, 'mindsdb');
    a.push(
      `${header}${ev([
        [1, 'a'],
        [2, 'b'],
      ])}${endComment(2, false)}`,
    );
    const r = a.finish();
    expect(r.type === 'table' && r.data).toHaveLength(2);
    expect(r.type === 'table' && r.truncated).toBeUndefined();
  });

  it("passes the instance's truncation through", () => {
    const a = createStreamAssembler(10, 'mindsdb');
    a.push(`${header}${ev([[1, 'a']])}${endComment(1, true)}`);
    const r = a.finish();
    expect(r.type === 'table' && r.truncated).toBe(true);
  });

  it('returns ok and error answers, which are a single document, ours or MindsDB shaped', () => {
    const ok = createStreamAssembler(10, 'x');
    ok.push(ev({ type: 'ok', column_names: [], affected_rows: 3, context: { db: 'x' } }));
    expect(ok.finish()).toEqual({
      type: 'ok',
      column_names: [],
      affected_rows: 3,
      context: { db: 'x' },
    });
    const err = createStreamAssembler(10, 'x');
    err.push(
      ev({
        type: 'error',
        column_names: [],
        error_code: 1,
        error_message: 'bad',
        context: { db: 'x' },
      }),
    );
    expect(err.finish()).toMatchObject({ type: 'error', error_code: 1, error_message: 'bad' });
    // MindsDB's dump_http_response: no column_names, an empty context.
    const theirs = createStreamAssembler(10, 'proj');
    theirs.push(ev({ type: 'error', error_code: 0, error_message: 'no such table', context: {} }));
    expect(theirs.finish()).toEqual({
      type: 'error',
      column_names: [],
      error_code: 0,
      error_message: 'no such table',
      context: { db: 'proj' },
    });
  });

  it('reports an error that arrives after the header (a timeout mid-stream)', () => {
    const a = createStreamAssembler(10, 'mindsdb');
    a.push(
      `${header}${ev([[1, 'a']])}${ev({
        type: 'error',
        column_names: [],
        error_code: 5,
        error_message: 'timeout',
        context: { db: 'mindsdb' },
      })}`,
    );
    expect(a.finish()).toMatchObject({ type: 'error', error_code: 5 });
  });

  it('refuses a stream whose end record counts rows that never arrived', () => {
    const a = createStreamAssembler(10, 'mindsdb');
    a.push(`${header}${ev([[1, 'a']])}${endComment(2, false)}`);
    expect(() => a.finish()).toThrow(/ended early \(1 of 2 rows\)/);
  });

  it('skips comments that are not the end record, and stops at a malformed document', () => {
    const a = createStreamAssembler(10, 'mindsdb');
    expect(a.push(`: keep-alive\n\n${header}: \n\n${ev([[1, 'a']])}`)).toBe(false);
    expect(a.push('data: [[2,\n\n')).toBe(true);
    expect(() => a.finish()).toThrow(SyntaxError);
  });

  it('keeps catalog_changed from the header and from a single ok document', () => {
    const t = createStreamAssembler(10, 'mindsdb');
    t.push(
      `${ev({ type: 'table', column_names: ['NAME'], context: { db: 'mindsdb' }, catalog_changed: true })}${ev([['m']])}${endComment(1, false)}`,
    );
    expect(t.finish()).toMatchObject({ type: 'table', catalog_changed: true, data: [['m']] });
    const ok = createStreamAssembler(10, 'mindsdb');
    ok.push(
      ev({ type: 'ok', column_names: [], context: { db: 'mindsdb' }, catalog_changed: false }),
    );
    expect(ok.finish()).toEqual({
      type: 'ok',
      column_names: [],
      context: { db: 'mindsdb' },
      catalog_changed: false,
    });
  });

  it("keeps the header's column_origins (the grid's why of a prediction)", () => {
    const origin = {
      project: 'mindsdb',
      model: 'm',
      version: 1,
      column: 's',
      predicted: true,
      inputs: { i: 0 },
    };
    const text = `${ev({ type: 'table', column_names: ['i', 's'], column_origins: [null, origin] })}${ev([[1, 'a']])}${endComment(1, false)}`;
    const a = createStreamAssembler(100, 'mindsdb');
    a.push(text);
    expect(a.finish()).toMatchObject({ column_origins: [null, origin], data: [[1, 'a']] });
  });
});
