/**
 * Big batches are predicted in slices with turns of the event loop between them (issue 22, item
 * 6: a model join over a million rows held the process's one JavaScript thread for seconds), and
 * the slices put together equal one batch.
 */
import { describe, expect, it } from 'vitest';
import { loadPredictor, train, type CellValue } from '../../automl/index';
import {
  type InputCells,
  PREDICT_SLICE_ROWS,
  predictBatch,
  predictInSlices,
} from '../predict/batch';
import type { ModelVersionRecord } from '../store';

const record = { project: 'mindsdb', name: 'sliced', version: 1 } as ModelVersionRecord;

describe('predictInSlices', () => {
  it('equals one batch and lets other work run between slices', async () => {
    const rows: CellValue[][] = [];
    for (let i = 0; i < 300; i++) rows.push([i % 17, (i * 7) % 5, (i % 17) * 2 + ((i * 7) % 5)]);
    const predictor = loadPredictor(
      train({ columns: ['a', 'b', 'y'], rows }, { target: 'y', using: { max_iterations: 10 } }),
    );
    const n = 2 * PREDICT_SLICE_ROWS + 123;
    const columns = {
      a: Array.from({ length: n }, (_, i) => i % 23),
      b: Array.from({ length: n }, (_, i) => (i * 3) % 7),
    };
    const whole = predictBatch(record, predictor, columns, n, { unknownColumns: 'ignore' });

    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const sliced = await predictInSlices(record, predictor, columns, n, {
      unknownColumns: 'ignore',
    });
    ticking = false;

    expect(turns).toBeGreaterThanOrEqual(2);
    expect(sliced.columns).toEqual(whole.columns);
    expect(sliced.values.map((v) => v.length)).toEqual(whole.values.map(() => n));
    expect(sliced.values).toEqual(whole.values);
    expect(sliced.inputs).toEqual(whole.inputs);
  });
  it('stops at the next slice once its statement is cancelled, with the cancel as the error', async () => {
    const rows: CellValue[][] = [];
    for (let i = 0; i < 200; i++) rows.push([i % 13, (i % 13) * 3]);
    const predictor = loadPredictor(
      train({ columns: ['a', 'y'], rows }, { target: 'y', using: { max_iterations: 5 } }),
    );
    // Counts the slices predicted: each one asks the predictor for its rows.
    let sliced = 0;
    const counting = new Proxy(predictor, {
      get(target, key, receiver) {
        const v = Reflect.get(target, key, receiver);
        if (key !== 'predictTable' && key !== 'predictColumns' && key !== 'predict') return v;
        return (...args: unknown[]) => {
          sliced++;
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const n = 4 * PREDICT_SLICE_ROWS;
    const columns = { a: Array.from({ length: n }, (_, i) => i % 13) };
    const ac = new AbortController();
    const reason = new Error('cancelled by the client');
    // The cancel arrives while the first slice's turn is given away.
    setImmediate(() => ac.abort(reason));
    await expect(
      predictInSlices(record, counting, columns, n, {
        unknownColumns: 'ignore',
        signal: ac.signal,
      }),
    ).rejects.toBe(reason);
    expect(sliced).toBe(1);
  });

  it('sends the next slice elsewhere before the last comes back (two at most), in order', async () => {
    const rows: CellValue[][] = [];
    for (let i = 0; i < 200; i++) rows.push([i % 13, (i % 13) * 3]);
    const predictor = loadPredictor(
      train({ columns: ['a', 'y'], rows }, { target: 'y', using: { max_iterations: 5 } }),
    );
    const n = 5 * PREDICT_SLICE_ROWS + 17;
    const columns = { a: Array.from({ length: n }, (_, i) => i % 13) };
    const opts = { unknownColumns: 'ignore' as const };
    let inFlight = 0;
    let most = 0;
    const elsewhere = async (cols: Record<string, InputCells>, m: number) => {
      most = Math.max(most, ++inFlight);
      // Answers after a few turns, as a thread does.
      for (let t = 0; t < 3; t++) await new Promise((r) => setImmediate(r));
      inFlight--;
      return predictBatch(record, predictor, cols, m, opts);
    };
    const sliced = await predictInSlices(record, predictor, columns, n, opts, elsewhere);
    expect(most).toBe(2);
    const whole = predictBatch(record, predictor, columns, n, opts);
    expect(sliced.values).toEqual(whole.values);
    expect(sliced.inputs).toEqual(whole.inputs);

    // A slice failing while the one before it is awaited fails the batch with its error.
    let calls = 0;
    const failing = async (cols: Record<string, InputCells>, m: number) => {
      const call = ++calls;
      await new Promise((r) => setImmediate(r));
      if (call === 2) throw new Error('slice 2 failed');
      await new Promise((r) => setTimeout(r, 20));
      return predictBatch(record, predictor, cols, m, opts);
    };
    await expect(predictInSlices(record, predictor, columns, n, opts, failing)).rejects.toThrow(
      'slice 2 failed',
    );
  });
});
