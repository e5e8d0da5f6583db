/**
 * Big batches are predicted on the prediction thread, not on the thread that answers requests
 * (issue 22, item 6: slices of eight model joins' predictions ran on the event loop's thread and a
 * `SELECT 1` beside them waited up to 105x its idle p50), with the same answer to the byte as a
 * batch predicted in place, errors included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Predictor } from '../../automl/index';
import { ERROR_CODES, ServiceError } from '../../errors';
import { startHarness, sqlOk, waitComplete, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';
import { PREDICT_SLICE_ROWS, predictBatch, predictionRows } from '../predict/batch';
import { PredictThread } from '../predict-thread/index';
import type { ModelVersionRecord } from '../store';

let h: Harness;
let rec: ModelVersionRecord;
let predictor: Predictor;

/** 6,887 distinct (a, b) rows: 97 and 71 are coprime. More than one slice. */
const ROWS = 7000;
const wide = {
  a: Array.from({ length: ROWS }, (_, i) => i % 97),
  b: Array.from({ length: ROWS }, (_, i) => (i * 3) % 71),
};

beforeAll(async () => {
  h = await startHarness(trainingCache());
  await sqlOk(
    h,
    `CREATE TABLE files.sl_train AS SELECT i % 17 AS a, (i * 7) % 5 AS b,
      CASE WHEN i % 17 < 6 THEN 'low' WHEN i % 17 < 12 THEN 'mid' ELSE 'high' END AS c FROM range(300) t(i)`,
  );
  await sqlOk(
    h,
    `CREATE TABLE files.sl_wide AS SELECT i % 97 AS a, (i * 3) % 71 AS b FROM range(${ROWS}) t(i)`,
  );
  await sqlOk(
    h,
    'CREATE MODEL mindsdb.sl_class FROM files (SELECT * FROM sl_train) PREDICT c USING max_iterations = 10',
  );
  await sqlOk(
    h,
    'CREATE MODEL mindsdb.sl_num FROM files (SELECT * FROM sl_train) PREDICT a USING max_iterations = 10',
  );
  await sqlOk(
    h,
    `CREATE MODEL mindsdb.sl_bin FROM files (SELECT a, b, c, b > 2 AS big FROM sl_train) PREDICT big USING max_iterations = 10`,
  );
  await waitComplete(h, 'sl_class');
  await waitComplete(h, 'sl_num');
  await waitComplete(h, 'sl_bin');
  rec = h.instance.models.store.versions('mindsdb', 'sl_class')[0];
  predictor = await h.instance.models.predictor(rec);
});

afterAll(async () => {
  await h?.close();
});

/** Counts the calls this thread's predictor gets while `run` runs. */
async function callsHere(run: () => Promise<unknown>): Promise<number> {
  let calls = 0;
  const keys = ['predict', 'predictColumns', 'predictTable', 'explainColumns'] as const;
  const own = predictor as unknown as Record<string, unknown>;
  const saved = keys.map((k) => Object.getOwnPropertyDescriptor(own, k));
  for (const k of keys) {
    const f = own[k] as ((...a: unknown[]) => unknown) | undefined;
    if (f) own[k] = (...a: unknown[]) => (calls++, f.apply(predictor, a));
  }
  try {
    await run();
  } finally {
    keys.forEach((k, i) => (saved[i] ? Object.defineProperty(own, k, saved[i]) : delete own[k]));
  }
  return calls;
}

describe('the prediction thread', () => {
  it("warms a model's trees on this thread in steps between turns; meanwhile the thread predicts", async () => {
    // First in this file: no batch of sl_bin was predicted on this thread yet.
    const r = h.instance.models.store.versions('mindsdb', 'sl_bin')[0];
    const here = (await h.instance.models.predictor(r)) as unknown as { compiled: unknown };
    expect(here.compiled).toBeNull();
    const ref = { project: 'mindsdb', name: 'sl_bin' };
    const thread = h.instance.models.predictThread.stats;
    // 300 rows: under PREDICT_THREAD_MIN_ROWS, and enough to call for the compiled trees. Not
    // warm here yet, so the batch goes to the prediction thread (warmed in one go there) and the
    // warm-up here is handed to later turns of the event loop.
    const rows = Array.from({ length: 300 }, (_, i) => ({ a: i % 17, b: (i * 7) % 5, c: 'mid' }));
    const slices = thread.slices;
    const first = await h.instance.models.predict(ref, rows);
    expect(thread.slices).toBe(slices + 1);
    // The batch started the warm-up here; it ends in later turns without another batch (it may
    // have ended already while the thread answered).
    while (here.compiled === null) await new Promise((resolve) => setImmediate(resolve));
    expect(here.compiled).toMatchObject({ main: expect.any(Array) });
    // Warm here: the same batch is predicted on this thread, to the same rows.
    expect(await h.instance.models.predict(ref, rows)).toEqual(first);
    expect(thread.slices).toBe(slices + 1);
  });

  it("predicts a model join over thousands of rows off the requests' thread, to the same bytes", async () => {
    const before = h.instance.models.predictThread.stats.slices;
    let answer: { column_names: string[]; data: unknown[][] } | null = null;
    const here = await callsHere(async () => {
      answer = await sqlOk(
        h,
        'SELECT t.a, t.b, m.c, m.c_confidence, m.c_explain FROM files.sl_wide AS t JOIN mindsdb.sl_class AS m',
      );
    });
    expect(here).toBe(0);
    expect(h.instance.models.predictThread.stats.slices - before).toBeGreaterThanOrEqual(2);

    const got = answer!;
    expect(got.data).toHaveLength(ROWS);
    const cols = { a: got.data.map((r) => r[0]), b: got.data.map((r) => r[1]) };
    const whole = predictBatch(rec, predictor, cols, ROWS, { explain: true });
    const at = (name: string) => whole.columns.findIndex((c) => c.name === name);
    expect(got.data.map((r) => r[2])).toEqual(whole.values[at('c')]);
    expect(got.data.map((r) => r[3])).toEqual(whole.values[at('c_confidence')]);
    expect(got.data.map((r) => r[4])).toEqual(whole.values[at('c_explain')]);
  });

  it('answers a batch as predicting it here does: columns, values, cast inputs, errors', async () => {
    const n = PREDICT_SLICE_ROWS + 904;
    const opts = { explain: true };
    const whole = predictBatch(rec, predictor, wide, n, opts);
    const ref = { project: 'mindsdb', name: 'sl_class' };
    let there = null;
    expect(
      await callsHere(async () => {
        there = await h.instance.models.predictColumns(ref, wide, n, opts);
      }),
    ).toBe(0);
    expect(there).toEqual({ ...whole, record: expect.anything() });

    const typo = { ...wide, bb: wide.b };
    let here: unknown = null;
    try {
      predictBatch(rec, predictor, typo, n);
    } catch (err) {
      here = err;
    }
    expect(here).toBeInstanceOf(ServiceError);
    const thrown = await h.instance.models.predictColumns(ref, typo, n).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(ServiceError);
    expect(thrown).toMatchObject({
      code: ERROR_CODES.BAD_INPUT,
      message: (here as ServiceError).message,
      httpStatus: 400,
    });
  });

  it('answers every kind of model as predicting here does, missing inputs and unseen categories included', async () => {
    const n = PREDICT_SLICE_ROWS + 904;
    const rows = {
      a: Array.from({ length: n }, (_, i) => (i % 9 === 0 ? null : i % 97)),
      // As text, some of it missing: the thread sends back the cast numbers, nulls among them.
      b: Array.from({ length: n }, (_, i) =>
        i % 11 === 0 ? null : i % 17 === 0 ? 'n/a' : String((i * 3) % 71),
      ),
      c: Array.from({ length: n }, (_, i) =>
        i % 13 === 0 ? null : ['low', 'mid', 'high', 'new'][i % 4],
      ),
    };
    for (const name of ['sl_num', 'sl_bin', 'sl_class']) {
      const r = h.instance.models.store.versions('mindsdb', name)[0];
      const here = await h.instance.models.predictor(r);
      const ref = { project: 'mindsdb', name };
      for (const opts of [
        {},
        { explain: true },
        { texts: true },
        { unread: [`${r.targetAlias ?? here.description.target}_explain`] },
      ]) {
        const cols = Object.fromEntries(
          Object.entries(rows).filter(([k]) => k !== here.description.target),
        );
        const whole = predictBatch(r, here, cols, n, { ...opts, unknownColumns: 'ignore' });
        const there = await h.instance.models.predictColumns(ref, cols, n, {
          ...opts,
          unknownColumns: 'ignore',
        });
        const what = `${name} ${JSON.stringify(opts)}`;
        // With texts, the thread answers the cells' text only (PredictOptions.texts).
        if ('texts' in opts) {
          expect(there.texts, what).toEqual(whole.texts);
          expect(there.inputs, what).toEqual(whole.inputs);
        } else expect(there, what).toEqual({ ...whole, record: expect.anything() });
      }
    }
  });

  it('answers a big REST predict from the thread with the bytes of the rows predicted here', async () => {
    const rows = wide.a.map((a, i) => ({ a, b: wide.b[i] }));
    const res = await fetch(`${h.url}/api/projects/mindsdb/models/sl_class/predict`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(rows),
    });
    expect(res.status).toBe(200);
    const here = predictBatch(rec, predictor, wide, ROWS);
    const objects = predictionRows(here, ROWS).map((r, i) => ({ ...r, __mindsdb_row_id: i }));
    expect(await res.text()).toBe(JSON.stringify(objects));
  });

  it('copies back only the inputs the cast changed: the caller keeps the columns it sent', async () => {
    const file = h.instance.models.store.artifactFile('mindsdb', 'sl_class', rec.version);
    // `A` as sent (numbers, any spelling), `b` as text the cast turns into numbers.
    const sent = { A: wide.a.slice(0, 50), b: wide.b.slice(0, 50).map(String) };
    const p = await h.instance.models.predictThread.predict(
      rec,
      file,
      predictor.description,
      sent,
      50,
      {},
    );
    expect(p.inputs.a).toBe(sent.A);
    expect(p.inputs.b).toEqual(wide.b.slice(0, 50));
    const here = predictBatch(rec, predictor, sent, 50);
    expect(p.inputs).toEqual(here.inputs);
    expect(p.values).toEqual(here.values);
  });

  it('fails a slice whose artifact is gone, and slices in flight when it closes, by name', async () => {
    const thread = new PredictThread();
    const lost = await thread
      .predict(rec, '/nonexistent/model.json', predictor.description, wide, 10, {})
      .catch((e: unknown) => e);
    expect(lost).toMatchObject({ code: ERROR_CODES.INTERNAL });
    expect((lost as Error).message).toContain("The artifact of model 'mindsdb.sl_class' version 1");

    const file = h.instance.models.store.artifactFile('mindsdb', 'sl_class', rec.version);
    const inFlight = thread
      .predict(rec, file, predictor.description, wide, 10, {})
      .catch((e: unknown) => e);
    await thread.close();
    const err = await inFlight;
    expect(err).toMatchObject({ code: ERROR_CODES.BUSY });
    expect((err as Error).message).toBe(
      'The prediction thread could not finish the prediction: the instance is shutting down',
    );
    expect(thread.stats.started).toBe(1);
  });
});
