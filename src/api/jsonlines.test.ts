import { describe, expect, it } from 'vitest';
import { createJsonLinesAssembler } from './jsonlines';

const header =
  '{"type":"table","column_names":["i","s"],"column_types":["BIGINT","VARCHAR"],"context":{"db":"mindsdb"}}\n';

describe('createJsonLinesAssembler', () => {
  it('assembles header, chunks split anywhere, and the end line into a table response', () => {
    const text = `${header}{"data":[[1,"a"],[2,"b"]]}\n{"data":[[3,"c"]]}\n{"type":"end","row_count":3,"truncated":false}\n`;
    const a = createJsonLinesAssembler(100);
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

  it('stops at maxRows and marks the result truncated', () => {
    const a = createJsonLinesAssembler(2);
    expect(a.push(`${header}{"data":[[1,"a"]]}\n`)).toBe(false);
    expect(a.push('{"data":[[2,"b"],[3,"c"]]}\n')).toBe(true);
    const r = a.finish();
    expect(r.type === 'table' && r.data).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(r.type === 'table' && r.truncated).toBe(true);
  });

  it('passes the server truncation marker through', () => {
    const a = createJsonLinesAssembler(10);
    a.push(`${header}{"data":[[1,"a"]]}\n{"type":"end","row_count":1,"truncated":true}\n`);
    const r = a.finish();
    expect(r.type === 'table' && r.truncated).toBe(true);
  });

  it('returns ok and error answers, which are a single line', () => {
    const ok = createJsonLinesAssembler(10);
    ok.push('{"type":"ok","column_names":[],"affected_rows":3,"context":{"db":"x"}}\n');
    expect(ok.finish()).toEqual({
      type: 'ok',
      column_names: [],
      affected_rows: 3,
      context: { db: 'x' },
    });
    const err = createJsonLinesAssembler(10);
    err.push(
      '{"type":"error","column_names":[],"error_code":1,"error_message":"bad","context":{"db":"x"}}',
    );
    expect(err.finish()).toMatchObject({ type: 'error', error_code: 1, error_message: 'bad' });
  });

  it('reports an error that arrives after the header (a timeout mid-stream)', () => {
    const a = createJsonLinesAssembler(10);
    a.push(
      `${header}{"data":[[1,"a"]]}\n{"type":"error","column_names":[],"error_code":5,"error_message":"timeout","context":{"db":"mindsdb"}}\n`,
    );
    expect(a.finish()).toMatchObject({ type: 'error', error_code: 5 });
  });

  it('refuses a stream cut before its end line', () => {
    const a = createJsonLinesAssembler(10);
    a.push(`${header}{"data":[[1,"a"]]}\n`);
    expect(() => a.finish()).toThrow(/ended early/);
  });

  it('keeps catalog_changed from the header line and from a single ok line', () => {
    const t = createJsonLinesAssembler(10);
    t.push(
      '{"type":"table","column_names":["NAME"],"context":{"db":"mindsdb"},"catalog_changed":true}\n{"data":[["m"]]}\n{"type":"end","row_count":1,"truncated":false}\n',
    );
    expect(t.finish()).toMatchObject({ type: 'table', catalog_changed: true, data: [['m']] });
    const ok = createJsonLinesAssembler(10);
    ok.push('{"type":"ok","column_names":[],"context":{"db":"mindsdb"},"catalog_changed":false}\n');
    expect(ok.finish()).toEqual({
      type: 'ok',
      column_names: [],
      context: { db: 'mindsdb' },
      catalog_changed: false,
    });
  });
});
