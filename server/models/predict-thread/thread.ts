// Entry of the prediction thread (index.ts starts it by URL through the training worker's
// bootstrap; nothing imports it): predicts slices of big batches with the same `predictBatch` the
// instance's thread runs, so the answers are the same bytes, while that thread keeps answering
// other requests. Predictors are read from their artifacts here (a few kept, the last used).
import { parentPort } from 'node:worker_threads';
import { ServiceError } from '../../errors';
import type { CellValue } from '../../automl/index';
import { canonicalColumns, predictBatch } from '../predict/batch';
import { PredictorCache } from '../predict/cache';
import type { ModelVersionRecord } from '../store';
import { KeptVersions } from './kept';
import { type PackedColumn, packColumn } from './packed';
import type { PredictThreadReply, PredictThreadRequest } from './protocol';

/** Compiled predictors kept: a model join uses one; more than a few at once is rare. */
const KEPT = 4;

const predictors = new PredictorCache();
const kept = new KeptVersions({ delete: (v) => predictors.delete(v as ModelVersionRecord) }, KEPT);

const port = parentPort!;

port.on('message', (msg: PredictThreadRequest) => {
  if (msg.t === 'forget') {
    kept.forget(msg.version);
    return;
  }
  if (msg.t === 'warm') {
    const record = msg.record as ModelVersionRecord;
    void predictors.get(record, msg.artifactFile).then(
      (predictor) => {
        kept.use(record);
        predictor.warm?.();
      },
      // The first slice of this version reports what is wrong with its artifact.
      () => undefined,
    );
    return;
  }
  // The fields predictBatch and the cache read (SliceRecord); the rest stays with the instance.
  const record = msg.record as ModelVersionRecord;
  void predictors.get(record, msg.artifactFile).then(
    (predictor) => {
      let reply: PredictThreadReply;
      const transfer: ArrayBuffer[] = [];
      try {
        kept.use(record);
        // Compiled and optimised before its first slice (a no-op once done): see Predictor.warm.
        predictor.warm?.();
        const p = predictBatch(record, predictor, msg.columns, msg.n, msg.opts);
        const sent = canonicalColumns(predictor.description, msg.columns);
        const inputs: Record<string, PackedColumn | null> = {};
        for (const c of Object.keys(p.inputs))
          inputs[c] = sameCells(p.inputs[c], sent[c]) ? null : packColumn(p.inputs[c], transfer);
        reply = {
          id: msg.id,
          ok: true,
          inputs,
          columns: p.columns,
          values: p.values.map((v, j) =>
            p.texts?.[j] || v.every((x) => x === null) ? null : packColumn(v, transfer),
          ),
          ...(p.texts ? { texts: p.texts } : {}),
          explained: p.explained,
        };
      } catch (err) {
        reply = failure(msg.id, err);
        transfer.length = 0;
      }
      port.postMessage(reply, transfer);
    },
    (err: unknown) => port.postMessage(failure(msg.id, err)),
  );
});

/**
 * Whether the cast left a column as it was sent, cell for cell (the caller's copy is then the
 * cast column: copying 64 numeric inputs of every row back was most of a wide model's reply).
 */
function sameCells(cast: ArrayLike<CellValue>, sent: ArrayLike<unknown> | undefined): boolean {
  if ((cast as ArrayLike<unknown>) === sent) return true;
  if (!sent || sent.length !== cast.length) return false;
  for (let i = 0; i < cast.length; i++) if (cast[i] !== sent[i]) return false;
  return true;
}

/** An error as the caller rethrows it: a ServiceError keeps its code and status. */
function failure(id: number, err: unknown): PredictThreadReply {
  const message = err instanceof Error ? err.message : String(err);
  const service =
    err instanceof ServiceError ? { code: err.code, httpStatus: err.httpStatus } : null;
  return { id, ok: false, error: { message, service } };
}
