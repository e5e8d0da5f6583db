/**
 * The prediction thread: big batches (a model join's input rows, a large predict body) are
 * predicted on a worker thread, one slice at a time, so the process's one JavaScript thread, which
 * answers every request, is not held by a prediction (issue 22, item 6: a `SELECT 1` beside eight
 * model joins waited up to 105x its idle p50 while slices of the joins' predictions ran on it).
 *
 * Why not the engine's own thread pool (automl/threads): its joins wait with Atomics.wait, built
 * for a training that stays one synchronous call on its own worker; the instance's thread must
 * never block. One thread, not one per join: the joins' slices take turns in it in arrival order
 * (the same total work as on the instance's thread, on the second core), and each request has at
 * most two slices in flight (predict/batch.ts SLICES_IN_FLIGHT: one predicted there while this
 * thread cuts the next and reads the last), so memory stays two slices' size whatever the batch.
 */
import { Worker } from 'node:worker_threads';
import type { CellValue, ModelDescription } from '../../automl/index';
import type { JsonValue } from '../../engine/values';
import { ERROR_CODES, type ErrorCode, ServiceError } from '../../errors';
import {
  canonicalColumns,
  type ColumnarPrediction,
  type InputCells,
  type PredictOptions,
} from '../predict/batch';
import type { ModelVersionRecord } from '../store';
import { movedCopy, unpackColumn } from './packed';
import type { PredictThreadReply, PredictThreadRequest, VersionKey } from './protocol';

const BOOTSTRAP = new URL('../../automl-worker/bootstrap.mjs', import.meta.url);
const ENTRY = new URL('./thread.ts', import.meta.url).href;

/**
 * Batches from this many rows go to the thread; smaller ones are predicted in place (a few
 * milliseconds at most, less than the round trip: a single-row predict stays where it is).
 */
export const PREDICT_THREAD_MIN_ROWS = 1024;

interface Pending {
  resolve: (reply: PredictThreadReply) => void;
  reject: (err: Error) => void;
}

export class PredictThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  /** Threads started so far, and slices predicted there (tests and diagnostics read them). */
  readonly stats = { started: 0, slices: 0 };

  /**
   * Predicts one slice on the thread, as `predictBatch(record, predictor, columns, n, opts)`
   * would here: the same columns and values, the same errors (a ServiceError keeps its code).
   */
  async predict(
    record: ModelVersionRecord,
    artifactFile: string,
    description: ModelDescription,
    columns: Record<string, InputCells>,
    n: number,
    opts: PredictOptions,
  ): Promise<ColumnarPrediction> {
    const { signal: _signal, ...plain } = opts;
    const { project, name, version, targetAlias } = record;
    const wire = wireColumns(columns, n);
    const reply = await this.send(
      (id) => ({
        t: 'predict',
        id,
        record: { project, name, version, targetAlias },
        artifactFile,
        columns: wire.columns,
        n,
        opts: plain,
      }),
      wire.transfer,
    );
    if (!reply.ok) {
      const { message, service } = reply.error;
      throw service
        ? new ServiceError(service.code, message, service.httpStatus)
        : new Error(message);
    }
    this.stats.slices++;
    const sent = canonicalColumns(description, columns);
    const inputs: ColumnarPrediction['inputs'] = {};
    for (const c of Object.keys(reply.inputs)) {
      const cast = reply.inputs[c];
      inputs[c] = cast
        ? (unpackColumn(cast) as CellValue[])
        : (sent[c] as CellValue[] | Float64Array);
    }
    return {
      record,
      description,
      inputs,
      columns: reply.columns,
      values: reply.values.map((v) => (v ? unpackColumn(v) : new Array<JsonValue>(n).fill(null))),
      ...(reply.texts ? { texts: reply.texts } : {}),
      explained: reply.explained,
    };
  }

  /**
   * Has the thread load a version's predictor and warm it (compile its trees and run them until
   * V8 has optimised them) before its first big batch. Starts the thread only with `start`: an
   * instance without warm-ups (the tests') warms a model there only when the thread runs already.
   */
  warm(record: ModelVersionRecord, artifactFile: string, start: boolean): void {
    if (this.closed || (!this.worker && !start)) return;
    const { project, name, version, targetAlias } = record;
    this.thread().postMessage({
      t: 'warm',
      record: { project, name, version, targetAlias },
      artifactFile,
    } satisfies PredictThreadRequest);
  }

  /** Drops a version's compiled predictor from the thread (the version went away). */
  forget(version: VersionKey): void {
    this.worker?.postMessage({
      t: 'forget',
      version: { project: version.project, name: version.name, version: version.version },
    } satisfies PredictThreadRequest);
  }

  /** Stops the thread; slices in flight fail with the instance's shutdown. */
  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    this.worker = null;
    this.failAll(ERROR_CODES.BUSY, 'the instance is shutting down');
    if (w) await w.terminate();
  }

  private send(
    make: (id: number) => PredictThreadRequest,
    transfer: ArrayBuffer[] = [],
  ): Promise<PredictThreadReply> {
    if (this.closed)
      return Promise.reject(stopped(ERROR_CODES.BUSY, 'the instance is shutting down'));
    const id = this.nextId++;
    const w = this.thread();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // A thread with work keeps the process alive; an idle one does not.
      if (this.pending.size === 1) w.ref();
      try {
        w.postMessage(make(id), transfer);
      } catch (err) {
        // A value that cannot be copied to the thread: this slice fails, nothing waits for it.
        this.pending.delete(id);
        if (this.pending.size === 0) w.unref();
        reject(err);
      }
    });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    this.stats.started++;
    const w = new Worker(BOOTSTRAP, { workerData: { entry: ENTRY } });
    w.unref();
    w.on('message', (reply: PredictThreadReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) w.unref();
      p.resolve(reply);
    });
    // An error ends in an exit, which fails what was in flight; the next slice starts a new one.
    w.on('error', () => undefined);
    w.on('exit', (code) => {
      if (this.worker !== w) return;
      this.worker = null;
      this.failAll(ERROR_CODES.INTERNAL, `it stopped (exit code ${code}); run the statement again`);
    });
    this.worker = w;
    return w;
  }

  private failAll(code: ErrorCode, why: string): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) p.reject(stopped(code, why));
  }
}

/**
 * A slice's columns as the thread receives them: a column of numbers only goes as a Float64Array
 * whose buffer is moved, not copied value by value (cloning a 10-class 64-input model's 10k-row
 * body cost more CPU than its trees; -0 and NaN stay as they are). The thread reads cells by
 * index, so the cast sees the same values; the caller keeps its own arrays for the answer.
 */
function wireColumns(
  columns: Record<string, InputCells>,
  n: number,
): { columns: Record<string, ArrayLike<unknown>>; transfer: ArrayBuffer[] } {
  const out: Record<string, ArrayLike<unknown>> = {};
  const transfer: ArrayBuffer[] = [];
  for (const c of Object.keys(columns)) {
    const col = columns[c];
    if (col instanceof Float64Array) {
      // Numbers already (an HTTP body read into columns): one copy, no cell read one by one
      // (reading a Float64Array's cells through this generic loop boxed every one of them).
      out[c] = movedCopy(col, transfer);
      continue;
    }
    let numbers = col.length === n;
    for (let i = 0; i < col.length && numbers; i++) numbers = typeof col[i] === 'number';
    if (!numbers) {
      out[c] = col;
      continue;
    }
    const typed = new Float64Array(n);
    for (let i = 0; i < n; i++) typed[i] = col[i] as number;
    out[c] = typed;
    transfer.push(typed.buffer);
  }
  return { columns: out, transfer };
}

const stopped = (code: ErrorCode, why: string) =>
  new ServiceError(code, `The prediction thread could not finish the prediction: ${why}`);
