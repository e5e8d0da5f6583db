import { describe, expect, it } from 'vitest';
import { ColumnarBuilder, toDataset, transferables } from '../training-columns';

function roundTrip(columns: string[], rows: unknown[][]) {
  const b = new ColumnarBuilder(columns);
  for (const r of rows) b.push(r);
  return { b, d: b.finish() };
}

describe('columnar training data', () => {
  it('stores numbers, booleans and text in typed arrays and rebuilds the same rows', () => {
    const rows = [
      [1.5, true, 'red', null],
      [null, false, 'blue', null],
      [-0, null, 'red', null],
      [1e300, true, null, null],
    ];
    const { d } = roundTrip(['x', 'flag', 'cat', 'empty'], rows);
    expect(d.rowCount).toBe(4);
    expect(d.data.map((c) => c.kind)).toEqual(['number', 'boolean', 'text', 'null']);
    const cat = d.data[2];
    expect(cat.kind === 'text' && cat.dict).toEqual(['red', 'blue']);
    expect(toDataset(d)).toEqual({ columns: ['x', 'flag', 'cat', 'empty'], rows });
    expect(Object.is(toDataset(d).rows[2][0], -0)).toBe(true);
  });

  it('fills leading NULLs of a column typed later', () => {
    const rows = [
      [null, null, null],
      [null, null, null],
      [3, 'a', false],
    ];
    const { d } = roundTrip(['n', 's', 'b'], rows);
    expect(d.data.map((c) => c.kind)).toEqual(['number', 'text', 'boolean']);
    expect(toDataset(d).rows).toEqual(rows);
  });

  it('keeps a column whose values change type exactly (numbers as numeric strings too)', () => {
    const rows = [[1], [null], ['2.5'], [true], [7]];
    const { d } = roundTrip(['v'], rows);
    expect(d.data[0].kind).toBe('mixed');
    expect(toDataset(d).rows).toEqual(rows);
  });

  it('turns lists and structs into JSON text and bigints into strings', () => {
    const { d } = roundTrip(
      ['j', 'big'],
      [
        [[1, 2], 12345678901234567890n],
        [{ a: 1 }, null],
      ],
    );
    expect(toDataset(d).rows).toEqual([
      ['[1,2]', '12345678901234567890'],
      ['{"a":1}', null],
    ]);
  });

  it('tells an all-NULL column', () => {
    const b = new ColumnarBuilder(['a', 'b']);
    b.push([null, 1]);
    b.push([undefined, null]);
    expect(b.allNull(0)).toBe(true);
    expect(b.allNull(1)).toBe(false);
  });

  it('grows past the initial capacity and hands each buffer over once, exactly sized', () => {
    const n = 5000;
    const b = new ColumnarBuilder(['i', 'even', 'k', 'sparse']);
    for (let i = 0; i < n; i++) b.push([i, i % 2 === 0, `k${i % 7}`, i % 1000 === 999 ? null : i]);
    const d = b.finish();
    const bufs = transferables(d);
    expect(new Set(bufs).size).toBe(bufs.length);
    const i = d.data[0];
    expect(i.kind === 'number' && i.values.length).toBe(n);
    const rows = toDataset(d).rows;
    expect(rows[4998]).toEqual([4998, true, `k${4998 % 7}`, 4998]);
    expect(rows[4999][3]).toBeNull();
    expect(rows[999][3]).toBeNull();
    expect(rows.filter((r) => r[3] === null)).toHaveLength(5);
  });

  it('survives a transfer to another thread', async () => {
    const { MessageChannel } = await import('node:worker_threads');
    const { d } = roundTrip(
      ['x', 'c'],
      [
        [1, 'a'],
        [2, 'b'],
        [null, 'a'],
      ],
    );
    const { port1, port2 } = new MessageChannel();
    const got = new Promise<unknown>((resolve) => port2.once('message', resolve));
    port1.postMessage(d, transferables(d));
    const received = (await got) as typeof d;
    port1.close();
    port2.close();
    expect(toDataset(received).rows).toEqual([
      [1, 'a'],
      [2, 'b'],
      [null, 'a'],
    ]);
    // The sender's buffers were moved, not copied.
    expect(d.data[0].kind === 'number' && d.data[0].values.length).toBe(0);
  });
});
