/**
 * Issue 17 over real HTTP: the model card (content and self-containment), the describe metrics
 * and warnings, and `accuracy_metric` in the model list and info.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DescribeSummaryRow, ModelDetail, ModelList } from '../../../contract';
import { startHarness, waitForModel, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';

let h: Harness;
const BASE = '/api/projects/mindsdb/models';

async function sqlOk(query: string) {
  const r = await h.sql(query);
  if (r.type === 'error') throw new Error(`${r.error_message}\n in: ${query}`);
  return r;
}

async function card(path: string) {
  const res = await fetch(h.url + path);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Everything in a page that would make a browser fetch something or run code. */
function externalReferences(html: string): string[] {
  const found: string[] = [];
  for (const m of html.matchAll(/\b(?:src|href|srcset|action|formaction|poster|data)\s*=/gi))
    found.push(m[0]);
  for (const m of html.matchAll(/url\(\s*([^)]*)\)/gi)) if (!/^['"]?#/.test(m[1])) found.push(m[0]);
  for (const m of html.matchAll(
    /@import|<script|<iframe|<object|<embed|<link|<img|https?:\/\/|\/\/[a-z0-9-]+\./gi,
  ))
    found.push(m[0]);
  return found;
}

beforeAll(async () => {
  h = await startHarness(trainingCache());
  await sqlOk(
    'CREATE MODEL mindsdb.card_rent FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price',
  );
  await sqlOk(
    'CREATE MODEL mindsdb.card_churn FROM example_db (SELECT * FROM demo_data.customer_churn) PREDICT Exited',
  );
  // Names a page must escape, in the data and in the chart.
  await sqlOk(
    `CREATE TABLE files.odd AS SELECT i % 10 AS "<i>size</i>", (i % 10) * 3 + (i % 3) AS y FROM range(300) t(i)`,
  );
  await sqlOk('CREATE MODEL mindsdb.card_odd FROM files (SELECT * FROM odd) PREDICT y');
  // A constant target fails in training: a model in error.
  await sqlOk(`CREATE TABLE files.flat AS SELECT i AS x, 5 AS y FROM range(50) t(i)`);
  await sqlOk('CREATE MODEL mindsdb.card_failed FROM files (SELECT * FROM flat) PREDICT y');
  expect((await waitForModel(h, 'card_rent')).status).toBe('complete');
  expect((await waitForModel(h, 'card_churn')).status).toBe('complete');
  expect((await waitForModel(h, 'card_odd')).status).toBe('complete');
  expect((await waitForModel(h, 'card_failed')).status).toBe('error');
});

afterAll(async () => {
  await h?.close();
});

describe('GET .../card', () => {
  it('regression card: what it predicts, from which query, metrics against the mean in words, importance chart, the leak warning, versions', async () => {
    const r = await card(`${BASE}/card_rent/card`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('content-disposition')).toBeNull();
    const html = r.text;
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<h1>mindsdb.card_rent</h1>');
    expect(html).toContain(
      'Predicts <strong>rental_price</strong>, a number (regression), from 7 inputs',
    );
    expect(html).toContain('SELECT * FROM demo_data.home_rentals');
    expect(html).toMatch(
      /R² 0\.99\d+ on [\d,]+ validation rows; always predicting the average rental_price \([\d,]+\) scores 0\.00\./,
    );
    expect(html).toMatch(
      /Typical error: [\d.]+ \(mean absolute error, in rental_price&#x27;s units\)/,
    );
    expect(html).toMatch(/\d+% smaller than the baseline&#x27;s/);
    // The importance chart: an inline SVG naming the inputs, the dominant one highlighted.
    const svgs = html.match(/<svg[\s\S]*?<\/svg>/g) ?? [];
    // Importance, predicted vs actual, and the effects of the three top inputs.
    expect(svgs.length).toBe(5);
    expect(svgs.some((s) => s.includes('>initial_price</text>') && s.includes('#b45309'))).toBe(
      true,
    );
    expect(html).toContain(
      'One input does nearly all the work</span> &#x27;initial_price&#x27; carries 9',
    );
    expect(html).toContain('<strong>1 (this card)</strong>');
    // Words a person reads: no metric keys, no "-0.00", no raw pipeline string; the scatter says
    // it is a sample of the rows the metrics count.
    expect(html).not.toMatch(/r2_score|balanced_accuracy_score|-0\.00| --&gt; /);
    expect(html).toMatch(/<td>R² 0\.99\d+<\/td>/);
    expect(html).toMatch(
      /for a sample of 500 of the [\d,]+ validation rows the model had not seen/,
    );
    expect(html).toMatch(/Engine<\/td><td><ol class="steps"><li>[^<]+<\/li><li>/);
    // Seconds under a minute, minutes and seconds past it (a busy machine trains slower).
    expect(html).toMatch(/Training time<\/td><td>(\d+\.\d s|\d+ min \d+ s)<\/td>/);
    expect(html).toContain('instance 0.1.0');
  });

  it('classifier card: baseline of the majority class, confusion matrix, per-class table, calibration chart', async () => {
    const { status, text: html } = await card(`${BASE}/card_churn/card`);
    expect(status).toBe(200);
    expect(html).toContain(
      'one of 2 classes: &#x27;0&#x27;, &#x27;1&#x27; (binary classification)',
    );
    expect(html).toMatch(
      /Balanced accuracy 7\d\.\d% and accuracy \d\d\.\d% on 2,000 validation rows; always answering &#x27;0&#x27; \(the most frequent class\) scores 50\.0% and 79\.\d%\./,
    );
    expect(html).toContain('<table class="confusion">');
    expect(html).toContain('actual \\ predicted');
    expect(html).toContain('Precision (right when it says so)');
    expect(html).toContain('Calibration: when the model reports a confidence');
    // Importance, calibration, the evaluation's ROC curve, and the effects of the three top inputs.
    expect(html).toContain('ROC curve for &#x27;1&#x27;');
    expect((html.match(/<svg/g) ?? []).length).toBe(6);
  });

  it('is self-contained: no script, no URL of any kind, nothing to fetch, inline CSS and SVG only', async () => {
    for (const name of ['card_rent', 'card_churn', 'card_odd']) {
      const { text: html } = await card(`${BASE}/${name}/card`);
      expect(externalReferences(html), name).toEqual([]);
      expect(html).toContain('<style>');
      expect(html).toContain('@media print');
    }
  });

  it('escapes names taken from the data, in the text and in the charts', async () => {
    const { text: html } = await card(`${BASE}/card_odd/card`);
    expect(html).not.toContain('<i>size</i>');
    expect(html).toContain('&lt;i&gt;size&lt;/i&gt;');
  });

  it('?download=1 names the file; the /v1/api prefix and a version suffix answer the same card', async () => {
    const d = await card(`${BASE}/card_rent/card?download=1`);
    expect(d.status).toBe(200);
    expect(d.headers.get('content-disposition')).toBe(
      'attachment; filename="mindsdb.card_rent.v1.html"',
    );
    const v = await card(`/v1/api${BASE}/card_rent.1/card`);
    expect(v.status).toBe(200);
    expect(v.text).toContain('<h1>mindsdb.card_rent</h1>');
  });

  it('answers like the other model routes: 404 unknown, 409 in error, 400 a bad download value', async () => {
    const nope = await h.get(`${BASE}/nope/card`);
    expect(nope.status).toBe(404);
    expect(nope.body.detail).toBe("Model 'mindsdb.nope' does not exist");
    expect((await h.get(`${BASE}/card_rent.7/card`)).status).toBe(404);
    const failed = await h.get(`${BASE}/card_failed/card`);
    expect(failed.status).toBe(409);
    expect(failed.body.detail).toMatch(/its status is error/);
    const bad = await h.get(`${BASE}/card_rent/card?download=yes`);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('download must be 1 or 0');
  });

  it('is listed in the OpenAPI document as text/html', async () => {
    const doc = (await h.get('/api/openapi.json')).body;
    const op = doc.paths['/api/projects/{project}/models/{model}/card'].get;
    expect(Object.keys(op.responses[200].content)).toEqual(['text/html; charset=utf-8']);
  });
});

describe('describe and model info extensions (L-CONTRACT 2, 3)', () => {
  it('REST describe carries the metrics and the warnings in the contract shape', async () => {
    const r = await h.get(`${BASE}/card_rent/describe`);
    expect(r.status).toBe(200);
    const [row] = r.body;
    const parsed = DescribeSummaryRow.parse(row);
    expect(parsed.metrics!.task).toBe('regression');
    expect(parsed.metrics!.primary).toEqual({
      name: 'r2_score',
      label: 'R²',
      value: row.accuracies.r2_score,
    });
    expect(parsed.metrics!.regression!.mae).toBeLessThan(parsed.metrics!.regression!.baseline.mae);
    expect(parsed.metrics!.regression!.sample.actual.length).toBeLessThanOrEqual(500);
    expect(parsed.warnings).toContainEqual(
      expect.objectContaining({ kind: 'dominant_input', column: 'initial_price' }),
    );
    const info = (await h.get(`${BASE}/card_churn/describe?attribute=info`)).body[0];
    expect(info.metrics.classification.classes).toEqual([0, 1]);
    expect(info.metrics.classification.calibration.length).toBeGreaterThan(3);
    expect(info.model).toBeUndefined();
  });

  it('accuracy_metric names the accuracy in the list and the model info; null for a failed model', async () => {
    const list = ModelList.parse((await h.get(BASE)).body);
    const by = Object.fromEntries(list.map((m) => [m.name, m.accuracy_metric]));
    expect(by).toMatchObject({
      card_rent: 'r2_score',
      card_churn: 'balanced_accuracy_score',
      card_failed: null,
    });
    const one = ModelDetail.parse((await h.get(`${BASE}/card_churn`)).body);
    expect(one.accuracy_metric).toBe('balanced_accuracy_score');
    expect(one.versions[0].accuracy_metric).toBe('balanced_accuracy_score');
  });
});
