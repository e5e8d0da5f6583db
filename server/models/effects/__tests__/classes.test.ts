/**
 * Feature effects of a 3-class model (issue 27): the partial dependence is the probability of the
 * class the caller picks, over REST (`?class=`) and SQL (`USING class = ...`); the report lists
 * the classes to pick from; an unknown class is a 400 naming them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EffectsReport } from '../../../../contract';
import { startHarness, type Harness } from '../../../test/harness';
import { trainingCache } from '../../../test/training-cache';

let h: Harness;
const base = '/api/projects/mindsdb/models/band_model.1/effects';

beforeAll(async () => {
  h = await startHarness(trainingCache());
  // The band follows x alone: low below 10, mid from 10 to 19, high from 20; z is noise.
  const t = await h.sql(`CREATE TABLE files.bands AS SELECT i % 30 AS x, (i * 7) % 5 AS z,
      CASE WHEN i % 30 < 10 THEN 'low' WHEN i % 30 < 20 THEN 'mid' ELSE 'high' END AS band
    FROM range(300) t(i)`);
  expect(t.type).toBe('ok');
  const m = await h.sql(
    'CREATE MODEL mindsdb.band_model FROM files (SELECT * FROM bands) PREDICT band',
  );
  expect(m.type).toBe('table');
  await h.instance.models.idle();
});

afterAll(() => h?.close());

async function curve(cls: string) {
  const r = await h.get(`${base}?column=x&class=${cls}`);
  expect(r.status).toBe(200);
  const e = EffectsReport.parse(r.body);
  expect(e).toMatchObject({ task: 'multiclass', class: cls, output: `P(band = ${cls})` });
  expect([...(e.classes ?? [])].sort()).toEqual(['high', 'low', 'mid']);
  const c = e.curves[0];
  const at = (lo: number, hi: number) => {
    const ys = c.grid.flatMap((g, i) => (Number(g) >= lo && Number(g) < hi ? [c.average[i]] : []));
    return ys.reduce((a, b) => a + b, 0) / ys.length;
  };
  return { low: at(0, 10), mid: at(10, 20), high: at(20, 30), all: c.average };
}

describe('effects of a classifier', () => {
  it("averages the chosen class's probability, high where that class is", async () => {
    const low = await curve('low');
    const mid = await curve('mid');
    const high = await curve('high');
    expect(low.low).toBeGreaterThan(0.6);
    expect(low.high).toBeLessThan(0.3);
    expect(mid.mid).toBeGreaterThan(mid.low + 0.3);
    expect(mid.mid).toBeGreaterThan(mid.high + 0.3);
    expect(high.high).toBeGreaterThan(0.6);
    expect(high.low).toBeLessThan(0.3);
    // Probabilities: each point in [0, 1], the three classes summing to 1 at every grid value.
    low.all.forEach((p, i) => {
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p + mid.all[i] + high.all[i]).toBeCloseTo(1, 6);
    });
  });

  it('takes the class in SQL too', async () => {
    const r = await h.sql(`DESCRIBE band_model.effects USING column = 'x', class = 'high'`);
    expect(r.type).toBe('table');
    expect(r.data[0]).toEqual(['*', 'P(band = high)', null, null, null, expect.any(Number)]);
    const rows = r.data.slice(1) as [string, string, number][];
    const first = rows[0];
    const last = rows[rows.length - 1];
    expect(Number(last[1])).toBeGreaterThan(Number(first[1]));
    expect(last[2]).toBeGreaterThan(first[2] + 0.4);
  });

  it('refuses a class the model does not have, naming its classes', async () => {
    const r = await h.get(`${base}?column=x&class=LOW`);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toMatch(
      /Class 'LOW' is not one of the model's classes: .*'low'/,
    );
  });
});
