/**
 * Issue 28 item 3 over real HTTP: GET .../models/{m}/onnx downloads the model as ONNX, which
 * onnxruntime-node runs, fed from the demo tables as a user would (the inputs and their types
 * come from the file's own metadata), to the predictions the REST predict endpoint gives; models
 * ONNX cannot express are a 422 saying why.
 */
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeModel } from '../../automl/onnx/proto';
import { startHarness, sqlOk as sqlOn, waitComplete, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';

let h: Harness;
const BASE = '/api/projects/mindsdb/models';
const sqlOk = (q: string) => sqlOn(h, q);

async function download(path: string) {
  const res = await fetch(h.url + path);
  return {
    status: res.status,
    headers: res.headers,
    bytes: new Uint8Array(await res.arrayBuffer()),
  };
}

interface InputSpec {
  name: string;
  kind: string;
  type: 'double' | 'string';
}

/** The feeds of rows as docs/scale.md tells users to build them, from the file's metadata. */
function feedsOf(inputs: InputSpec[], columns: string[], rows: unknown[][]) {
  const feeds: Record<string, ort.Tensor> = {};
  for (const input of inputs) {
    const j = columns.indexOf(input.name);
    const cells = rows.map((r) => r[j]);
    feeds[input.name] =
      input.type === 'string'
        ? new ort.Tensor(
            'string',
            cells.map((v) => (v === null ? '' : String(v))),
            [rows.length, 1],
          )
        : new ort.Tensor(
            'float64',
            Float64Array.from(cells, (v) =>
              v === null
                ? NaN
                : input.kind === 'datetime'
                  ? Date.parse(`${String(v)}Z`)
                  : Number(v),
            ),
            [rows.length, 1],
          );
  }
  return feeds;
}

/** Runs the downloaded model on a table's rows and returns its outputs beside REST's predictions. */
async function bothWays(model: string, table: string) {
  const file = await download(`${BASE}/${model}/onnx`);
  expect(file.status).toBe(200);
  const meta = Object.fromEntries(
    (decodeModel(file.bytes).metadata_props as { key: string; value: string }[]).map((p) => [
      p.key,
      p.value,
    ]),
  );
  const inputs = JSON.parse(meta.inputs) as InputSpec[];
  const data = await sqlOk(`SELECT * FROM example_db.demo_data.${table}`);
  const session = await ort.InferenceSession.create(file.bytes);
  const out = await session.run(feedsOf(inputs, data.column_names, data.data));
  await session.release();
  const body = data.data.map((r) =>
    Object.fromEntries(inputs.map((i) => [i.name, r[data.column_names.indexOf(i.name)]])),
  );
  const rest = await h.post(`${BASE}/${model}/predict`, body);
  expect(rest.status).toBe(200);
  return { out, rest: rest.body as Record<string, unknown>[], meta, inputs };
}

const WORDS = `['screen', 'black', 'update', 'charged', 'twice', 'refund', 'parcel', 'late', 'box', 'open', 'login', 'password', 'email', 'invoice', 'card', 'crash', 'slow', 'tracking', 'courier', 'account']`;

const near = (a: number, b: number) => Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(b));

beforeAll(async () => {
  h = await startHarness(trainingCache());
  await sqlOk(
    'CREATE MODEL mindsdb.rent_onnx FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price USING max_iterations = 60',
  );
  await sqlOk(
    'CREATE MODEL mindsdb.telco_onnx FROM example_db (SELECT * FROM demo_data.telco_churn) PREDICT Churn USING max_iterations = 60',
  );
  // Free text: six words of twenty per note, a different mix in every row.
  await sqlOk(
    `CREATE TABLE files.notes AS SELECT i % 3 AS topic, concat_ws(' ', ${[7, 11, 13, 17, 19, 23]
      .map((k) => `list_extract(${WORDS}, (i * ${k} + i // ${k}) % 20 + 1)`)
      .join(', ')}) AS note FROM range(900) t(i)`,
  );
  await sqlOk(
    'CREATE MODEL mindsdb.notes_onnx FROM files (SELECT note, topic FROM notes) PREDICT topic USING max_iterations = 10',
  );
  await sqlOk(
    'CREATE MODEL mindsdb.sales_onnx FROM example_db (SELECT * FROM demo_data.house_sales) PREDICT ma ORDER BY saledate GROUP BY type, bedrooms WINDOW 8 HORIZON 4',
  );
  for (const m of ['rent_onnx', 'telco_onnx', 'notes_onnx', 'sales_onnx']) await waitComplete(h, m);
}, 600_000);

afterAll(async () => {
  await h?.close();
});

describe('GET .../models/{m}/onnx', () => {
  it('home_rentals: a file named after the version whose predictions and intervals equal REST predict', async () => {
    const r = await download(`${BASE}/rent_onnx/onnx`);
    expect(r.headers.get('content-type')).toBe('application/octet-stream');
    expect(r.headers.get('content-disposition')).toBe(
      'attachment; filename="mindsdb.rent_onnx.v1.onnx"',
    );
    const { out, rest, inputs } = await bothWays('rent_onnx', 'home_rentals');
    expect(inputs.map((i) => `${i.name}:${i.type}`)).toEqual([
      'number_of_rooms:double',
      'number_of_bathrooms:double',
      'sqft:double',
      'location:string',
      'days_on_market:double',
      'initial_price:double',
      'neighborhood:string',
    ]);
    const v = out.rental_price.data as Float64Array;
    const lo = out.rental_price_min.data as Float64Array;
    const hi = out.rental_price_max.data as Float64Array;
    expect(v.length).toBe(rest.length);
    const bad = rest.filter(
      (p, i) =>
        !near(v[i], p.rental_price as number) ||
        !near(lo[i], p.rental_price_min as number) ||
        !near(hi[i], p.rental_price_max as number),
    );
    expect(bad).toEqual([]);
  });

  it('telco churn (booleans, numbers, categories, gaps): the same classes and probabilities', async () => {
    const { out, rest, meta } = await bothWays('telco_onnx', 'telco_churn');
    expect(JSON.parse(meta.classes)).toEqual(['No', 'Yes']);
    const label = out.Churn.data as string[];
    const probs = out.Churn_probabilities.data as Float64Array;
    let compared = 0;
    rest.forEach((p, i) => {
      const explain = JSON.parse(p.Churn_explain as string) as Record<string, number>;
      expect(label[i]).toBe(p.Churn);
      expect(near(probs[2 * i], explain.probability_class_No)).toBe(true);
      expect(near(probs[2 * i + 1], explain.probability_class_Yes)).toBe(true);
      compared++;
    });
    expect(compared).toBe(7043);
  });

  it('the /v1/api form and a version serve the same file; unknown models are a 404', async () => {
    const a = await download(`${BASE}/rent_onnx/onnx`);
    const b = await download(`/v1/api${BASE}/rent_onnx.1/onnx`);
    expect(b.status).toBe(200);
    expect(Buffer.from(b.bytes).equals(Buffer.from(a.bytes))).toBe(true);
    const missing = await h.get(`${BASE}/no_such_model/onnx`);
    expect(missing.status).toBe(404);
    expect(missing.body.error_message).toBe("Model 'mindsdb.no_such_model' does not exist");
  });

  it('a model with a free-text input is a 422 naming the column', async () => {
    const r = await h.get(`${BASE}/notes_onnx/onnx`);
    expect(r.status).toBe(422);
    expect(r.body.error_code).toBe(3);
    expect(r.body.error_message).toBe(
      "Model 'mindsdb.notes_onnx' (version 1) cannot be exported to ONNX: models with free-text inputs cannot be exported to ONNX: 'note' is encoded as text (length, word count and a TF-IDF score of its words), and ONNX has no standard operators for that tokenisation; retrain with USING ignore_columns = ['note'] to export",
    );
  });

  it('a time-series model is a 422', async () => {
    const r = await h.get(`${BASE}/sales_onnx/onnx`);
    expect(r.status).toBe(422);
    expect(r.body.error_message).toMatch(
      /^Model 'mindsdb\.sales_onnx' \(version 1\) cannot be exported to ONNX: time-series models \(ORDER BY \.\.\. WINDOW \.\.\. HORIZON\) cannot be exported to ONNX/,
    );
  });
});
