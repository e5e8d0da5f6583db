/**
 * Drift, effects and the version diff through SQL and REST, end to end on a real instance:
 * DESCRIBE m.drift FROM db (query) on the training data itself (nothing drifted) and on a
 * shifted copy (the shifted inputs drifted, the new category named, a verdict), the latest report
 * kept, DESCRIBE m.effects, RETRAIN on the shifted data and DESCRIBE m.2.diff; the same reports
 * over REST (parsed with the contract), and the errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiffReport, DriftReport, EffectsReport } from '../../../../contract';
import { startHarness, type Harness } from '../../../test/harness';
import { trainingCache } from '../../../test/training-cache';

let h: Harness;

async function sql(query: string) {
  const r = await h.sql(query);
  if (r.type === 'error') throw new Error(`${r.error_message}\n in: ${query}`);
  return r as { column_names: string[]; data: unknown[][] };
}

const objects = (t: { column_names: string[]; data: unknown[][] }) =>
  t.data.map((row) => Object.fromEntries(t.column_names.map((c, i) => [c, row[i]])));

beforeAll(async () => {
  h = await startHarness(trainingCache());
  // y = 3 x + 50 [city = 'a'] + noise; z is noise. The shifted copy moves x up by 40 and puts a
  // quarter of the rows in a city training never saw.
  await sql(`CREATE TABLE files.rent AS SELECT (i % 97) * 1.0 AS x,
      ['a', 'b', 'c'][1 + i % 3] AS city, (i * 7) % 13 AS z,
      3 * (i % 97) + CASE WHEN i % 3 = 0 THEN 50 ELSE 0 END + (i * 31) % 10 AS y
    FROM range(600) t(i)`);
  await sql(`CREATE TABLE files.rent_now AS SELECT x + 40 AS x,
      CASE WHEN z < 3 THEN 'd' ELSE city END AS city, z, y FROM files.rent`);
  await sql(`CREATE MODEL mindsdb.rent_model FROM files (SELECT * FROM rent) PREDICT y`);
  await h.instance.models.idle();
});

afterAll(() => h?.close());

describe('DESCRIBE m.drift', () => {
  it('finds nothing drifted on the training data itself', async () => {
    const rows = objects(
      await sql(`DESCRIBE mindsdb.rent_model.drift FROM files (SELECT * FROM rent)`),
    );
    expect(rows[0]).toMatchObject({ column: '*', level: 'stable', n_current: 600 });
    expect(rows[0].detail).toMatch(
      /^0 of 3 inputs drifted, covering 0% of importance: no action needed/,
    );
    for (const r of rows.slice(1)) expect(r.psi).toBe(0);
  });

  it('finds the shifted input, the new category and says to retrain', async () => {
    const t = await sql(
      `DESCRIBE rent_model.drift FROM files (SELECT * FROM rent_now) USING psi = 0.2`,
    );
    expect(t.column_names).toEqual([
      'column',
      'importance',
      'psi',
      'test',
      'statistic',
      'p_value',
      'n_reference',
      'n_current',
      'level',
      'detail',
    ]);
    const rows = objects(t);
    const by = Object.fromEntries(rows.map((r) => [r.column, r]));
    expect(by.x).toMatchObject({ level: 'drifted', test: 'ks', n_current: 600 });
    // x = i % 97 over 600 rows: mean 46.81; x + 40 > 96 for 40 of every 97 values: 240 rows.
    expect(by.x.detail).toBe('mean 46.81 -> 86.81; 40% outside the training range');
    expect(by.city).toMatchObject({ level: 'drifted', test: 'chi2' });
    // z < 3 in 139 of the 600 rows.
    expect(by.city.detail).toBe('new: d (23.2% of rows)');
    expect(by.z).toMatchObject({ level: 'stable', psi: 0 });
    expect(by['y (predicted)'].level).toBe('drifted');
    expect(rows[0].level).toBe('retrain');
    expect(rows[0].detail).toMatch(
      /^2 of 3 inputs drifted, covering \d+% of importance; predictions shifted \(PSI \d\.\d\d\): retrain/,
    );
  });

  it('shows the latest report without FROM', async () => {
    const rows = objects(await sql(`DESCRIBE rent_model.drift`));
    expect(rows[0].level).toBe('retrain');
  });

  it('names the failing query and the allowed options', async () => {
    const bad = await h.sql(`DESCRIBE rent_model.drift FROM files (SELECT * FROM nowhere)`);
    expect(bad.type).toBe('error');
    expect(bad.error_message).toMatch(/nowhere/);
    const opt = await h.sql(
      `DESCRIBE rent_model.drift FROM files (SELECT * FROM rent) USING colour = 1`,
    );
    expect(opt.error_message).toMatch(/Unknown USING option 'colour'.*psi, p_value, importance/);
  });
});

describe('DESCRIBE m.effects', () => {
  it('gives the partial dependence of an input at each grid value', async () => {
    const rows = objects(await sql(`DESCRIBE rent_model.effects USING column = 'x'`));
    expect(rows[0]).toMatchObject({ column: '*', value: 'y' });
    const x = rows.slice(1);
    expect(x.length).toBe(20);
    expect(x.every((r) => r.column === 'x')).toBe(true);
    // y grows with x by about 3 per unit: the curve rises over the grid.
    const first = x[0];
    const last = x[x.length - 1];
    expect(Number(last.average) - Number(first.average)).toBeGreaterThan(
      2 * (Number(last.value) - Number(first.value)),
    );
    for (const r of x) expect(Number(r.ice_min)).toBeLessThanOrEqual(Number(r.average));
  });
});

describe('DESCRIBE m.diff', () => {
  it('compares a retrained version with the one before on the same rows', async () => {
    await sql(`RETRAIN rent_model FROM files (SELECT * FROM rent_now)`);
    await h.instance.models.idle();
    const t = await sql(
      `DESCRIBE rent_model.2.diff FROM files (SELECT * FROM rent_now) USING limit = 5`,
    );
    const rows = objects(t);
    expect(rows[0]).toMatchObject({ row: null, before: 'rent_model.1', after: 'rent_model.2' });
    expect(rows[0].moved).toMatch(/^v2 moves \d+(\.\d)?% of predictions by more than/);
    expect(rows.length).toBeLessThanOrEqual(6);
    const changes = rows.slice(1).map((r) => Math.abs(Number(r.change)));
    expect([...changes].sort((a, b) => b - a)).toEqual(changes);
  });
});

describe('REST', () => {
  const base = '/api/projects/mindsdb/models';

  it("computes drift from a query and keeps it as the version's latest", async () => {
    const r = await h.post(`${base}/rent_model.1/drift`, {
      query: 'SELECT * FROM rent_now',
      db: 'files',
    });
    expect(r.status).toBe(200);
    const d = DriftReport.parse(r.body);
    expect(d).toMatchObject({
      model: 'rent_model',
      version: 1,
      db: 'files',
      reference_source: 'kept',
    });
    expect(d.rows).toEqual({ reference: 600, current: 600, current_sample: 600 });
    expect(d.summary.verdict).toBe('retrain');
    const x = d.columns.find((c) => c.column === 'x')!;
    expect(x.bins.reduce((s, b) => s + b.current, 0)).toBe(600);
    expect(x.out_of_range).toMatchObject({ min: 0, max: 96, below: 0, above: 0.4 });
    const latest = await h.get(`${base}/rent_model.1/drift`);
    expect(latest.status).toBe(200);
    expect(latest.body.computed_at).toBe(d.computed_at);
    // Also under the spec's /v1/api prefix.
    const v1 = await h.get(`/v1/api${base}/rent_model.1/drift`);
    expect(v1.body.computed_at).toBe(d.computed_at);
  });

  it('answers 404 for a version without a report and for unknown models, 400 for a bad body', async () => {
    const none = await h.get(`${base}/rent_model.2/drift`);
    expect(none.status).toBe(404);
    expect(none.body.error_message ?? none.body.detail).toMatch(/No drift report yet/);
    const unknown = await h.post(`${base}/nope/drift`, { query: 'SELECT 1' });
    expect(unknown.status).toBe(404);
    const empty = await h.post(`${base}/rent_model/drift`, { query: ' ' });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toMatch(/query is empty/);
    const failing = await h.post(`${base}/rent_model/drift`, { query: 'SELECT * FROM nowhere' });
    expect(failing.status).toBe(404);
    expect(JSON.stringify(failing.body)).toMatch(/The query of today's data failed.*nowhere/);
  });

  it('gives effects and the diff as the contract says', async () => {
    const e = await h.get(`${base}/rent_model.1/effects?column=city`);
    expect(e.status).toBe(200);
    const eff = EffectsReport.parse(e.body);
    expect(eff.curves[0]).toMatchObject({
      column: 'city',
      kind: 'category',
      grid: ['a', 'b', 'c'],
    });
    // city 'a' adds 50 to y: its average sits about 50 above the others'.
    const [a, b] = eff.curves[0].average;
    expect(a - b).toBeGreaterThan(35);
    const bad = await h.get(`${base}/rent_model.1/effects?column=colour`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/its inputs are: x, city, z|its inputs are/);
    const d = await h.post(`${base}/rent_model.2/diff`, {});
    expect(d.status).toBe(200);
    const diff = DiffReport.parse(d.body);
    expect(diff).toMatchObject({
      before: { model: 'rent_model', version: 1 },
      after: { model: 'rent_model', version: 2 },
      source: { kind: 'held-out', query: null },
    });
    expect(diff.summary).toMatch(/^v2 /);
  });

  it('puts the drift snapshot with its date and query and the top effects in the model card', async () => {
    const res = await fetch(`${h.url}${base}/rent_model.1/card`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const latest = DriftReport.parse((await h.get(`${base}/rent_model.1/drift`)).body);
    expect(html).toContain('Drift: does today&#x27;s data look like the training data?');
    expect(html).toContain(latest.summary.sentence);
    expect(html).toContain(`Snapshot of ${latest.computed_at.slice(0, 10)}`);
    expect(html).toContain('<pre>SELECT * FROM rent_now</pre>');
    expect(html).toContain('Population stability index per input');
    expect(html).toContain('Effects of the top inputs');
    expect(html).toMatch(/Effect of (x|city)/);
    // A version without a report says how to compute one.
    const v2 = await (await fetch(`${h.url}${base}/rent_model.2/card`)).text();
    expect(v2).toContain('No drift report was computed for this version');
  });
});
