/**
 * Messages between the instance's thread (index.ts) and the prediction thread (thread.ts): one
 * slice of a batch to predict, the slice's columns back, or a version to forget.
 */
import type { ErrorCode } from '../../errors';
import type { ColumnarPrediction, PredictOptions } from '../predict/batch';
import type { ModelVersionRecord } from '../store';
import type { PackedColumn } from './packed';

/** Which version a predictor belongs to. */
export type VersionKey = Pick<ModelVersionRecord, 'project' | 'name' | 'version'>;

type SliceRecord = VersionKey & Pick<ModelVersionRecord, 'targetAlias'>;

export type PredictThreadRequest =
  | {
      t: 'predict';
      id: number;
      /** What `predictBatch` reads of the record: names for errors and the prediction columns. */
      record: SliceRecord;
      /** The version's artifact, which the thread reads and compiles once (its own cache). */
      artifactFile: string;
      /** By column: its cells, or a Float64Array when they are all numbers (index.ts). */
      columns: Record<string, ArrayLike<unknown>>;
      n: number;
      /** The options but the signal (a cancel is checked between slices, in the caller). */
      opts: Omit<PredictOptions, 'signal'>;
    }
  | { t: 'forget'; version: VersionKey }
  /** Load a version's predictor and warm it (compile its trees, run them until optimised). */
  | { t: 'warm'; record: SliceRecord; artifactFile: string };

/** What the slice's `ColumnarPrediction` carries that the caller does not already have. */
type PredictedSlice = Pick<ColumnarPrediction, 'columns' | 'explained' | 'texts'> & {
  /**
   * The cast inputs; null for a column the cast left as it was sent (numbers for a numeric
   * input, text for a text one: the usual case), which the caller holds already.
   */
  inputs: Record<string, PackedColumn | null>;
  /**
   * Null for a column of nulls only (the unread ones), and for every column whose cells come as
   * `texts` (the REST answer is written from those): not copied value by value. The others
   * packed (packed.ts: numbers, booleans and labels in typed arrays that move).
   */
  values: (PackedColumn | null)[];
};

export type PredictThreadReply =
  | ({ id: number; ok: true } & PredictedSlice)
  | {
      id: number;
      ok: false;
      /** A ServiceError's code and status; none: another error (the message only). */
      error: { message: string; service: { code: ErrorCode; httpStatus: number } | null };
    };
