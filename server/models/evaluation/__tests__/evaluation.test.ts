// The evaluation views of a real instance's models, as the service computes them for REST, SQL's
// DESCRIBE and the card: a churn classifier (bank customer_churn, the presenter's demo) and a
// rentals regression, each trained once for the whole file.
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, silentLogger } from '../../../http/app';
import { cellAt } from '../../../automl/index';
import type { Instance } from '../../../instance';
import { fails, objects, run, waitForModel } from '../../../sql/__tests__/model-helpers';
import { openInstance, tempDataDir } from '../../../test/harness';
import { trainingCache } from '../../../test/training-cache';

let inst: Instance;
let app: FastifyInstance;
let url: string;
const dataDir = tempDataDir();

/** GET or POST over real HTTP, as the playground and curl do. */
async function http(path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}
const churn = { project: 'mindsdb', name: 'churn' };
const rentals = { project: 'mindsdb', name: 'rentals' };

beforeAll(async () => {
  inst = await openInstance(trainingCache(), dataDir);
  await run(
    inst,
    `CREATE MODEL mindsdb.churn FROM example_db (SELECT * FROM demo_data.customer_churn) PREDICT Exited`,
  );
  await run(
    inst,
    `CREATE MODEL mindsdb.rentals FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price`,
  );
  expect((await waitForModel(inst, 'churn')).status).toBe('complete');
  expect((await waitForModel(inst, 'rentals')).status).toBe('complete');
  app = await buildApp(inst, silentLogger, { forceCloseConnections: true });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
}, 600_000);
afterAll(async () => {
  await app.close();
  await inst.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a classifier (customer_churn)', () => {
  it('says which views apply and lists every held-out column, in the model or not', async () => {
    const s = await inst.models.evaluation.summary(churn);
    expect(s.available).toBe(true);
    expect(s.task).toBe('binary');
    expect(s.classes).toEqual([0, 1]);
    // Exited = 1 is the rarer class: the one a threshold flags by default.
    expect(s.positive).toBe(1);
    expect(s.views.threshold.applies).toBe(true);
    expect(s.views.intervals).toEqual({
      applies: false,
      reason: expect.stringMatching(/calibration/),
    });
    const byName = Object.fromEntries(s.columns.map((c) => [c.name, c]));
    expect(byName.Gender).toEqual({ name: 'Gender', in_model: true, kind: 'category' });
    // Identifiers the model set aside are kept for judging (Surname: many values, text).
    expect(byName.Surname.in_model).toBe(false);
    expect(byName.Surname.kind).toBe('text');
    expect(s.held_out!.rows).toBe(s.held_out!.total);
  });

  it('leaderboard: every candidate with its score, one more metric, and the one that serves', async () => {
    const l = await inst.models.evaluation.leaderboard(churn);
    expect(l.candidates.map((c) => c.using)).toEqual(['gbm', 'linear', 'ensemble']);
    expect(l.candidates.filter((c) => c.selected)).toHaveLength(1);
    for (const c of l.candidates) {
      expect(c.score.name).toBe('balanced_accuracy_score');
      expect(c.score.value).toBeGreaterThan(0.6);
      expect(c.other!.name).toBe('roc_auc_score');
    }
    expect(Array.isArray(l.warnings)).toBe(true);
  });

  it('threshold: counts that add up to the held-out rows, curves, and the decision in use', async () => {
    const t = await inst.models.evaluation.threshold(churn);
    expect(t.positive).toBe(1);
    expect(t.negative).toBe(0);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(sum(t.table.positives) + sum(t.table.negatives)).toBe(t.rows);
    expect(t.roc.auc).toBeGreaterThan(0.8);
    expect(t.pr.average_precision).toBeGreaterThan(0.5);
    expect(t.gains.at(-1)!.gain).toBe(1);
    // The balanced rule flags churners at a probability well below one half (they are ~20 %).
    expect(t.decision!.rule).toBe('balanced');
    expect(t.decision!.threshold).toBeLessThan(0.5);
    expect(t.savable.applies).toBe(true);
    // The other class as positive: its curves are the mirror image.
    const other = await inst.models.evaluation.threshold(churn, '0');
    expect(other.roc.auc).toBeCloseTo(t.roc.auc!, 9);
    expect(other.decision!.threshold).toBeCloseTo(1 - t.decision!.threshold, 9);
    await expect(inst.models.evaluation.threshold(churn, 'maybe')).rejects.toThrow(
      /'maybe' is not a class of this model; its classes are: 0, 1/,
    );
  });

  it('calibration: a reliability diagram over the held-out rows', async () => {
    const c = await inst.models.evaluation.calibration(churn);
    expect(c.kind).toBe('positive-class');
    expect(c.bins.reduce((n, b) => n + b.rows, 0)).toBe(
      (await inst.models.evaluation.summary(churn)).held_out!.rows,
    );
    expect(c.ece!).toBeLessThan(0.1);
  });

  it('slices: the worst first, each with a WHERE that runs in SQL', async () => {
    const s = await inst.models.evaluation.slices(churn);
    expect(s.metric).toBe('error_rate');
    const errors = s.slices.map((x) => x.error!);
    expect(errors).toEqual([...errors].sort((a, b) => b - a));
    expect(s.slices[0].error!).toBeGreaterThan(s.overall!);
    expect(s.slices.reduce((n, x) => n + x.rows, 0)).toBe(s.rows);
    const sql = s.slices[0].sql;
    expect(sql).toContain(`WHERE ${s.slices[0].where};`);
    const r = await run(inst, sql);
    expect(r.column_names).toContain('predicted_exited');
    expect(r.data.length).toBeGreaterThan(0);
  });

  it('a WHERE the user writes is judged on the same held-out rows', async () => {
    const ev = (await inst.models.evidence(churn))!;
    const rows = ev.heldOut.rows;
    const age = rows.data[rows.columns.indexOf('Age')];
    const geo = rows.data[rows.columns.indexOf('Geography')];
    let n = 0;
    let wrong = 0;
    for (let i = 0; i < rows.rowCount; i++) {
      if ((cellAt(age, i) as number) >= 50 && cellAt(geo, i) === 'Germany') {
        n++;
        if (ev.heldOut.actual[i] !== ev.heldOut.predicted[i]) wrong++;
      }
    }
    const s = await inst.models.evaluation.slices(churn, {
      where: "`Age` >= 50 AND Geography = 'Germany'",
    });
    expect(s.asked!.rows).toBe(n);
    expect(s.asked!.error).toBeCloseTo(wrong / n, 12);
    await expect(
      inst.models.evaluation.slices(churn, { where: 'no_such_column > 1' }),
    ).rejects.toThrow(/The WHERE cannot be judged on the held-out rows/);
  });

  it("judges a user's WHERE on the held-out rows only: no file, no instance table, no statement after it", async () => {
    const ev = inst.models.evaluation;
    const before = await ev.slices(churn, { where: "Geography = 'France'" });
    // The held-out rows live in a DuckDB of their own, closed to files: neither the instance's
    // tables nor the host's files are reachable from a WHERE.
    await expect(
      ev.slices(churn, { where: 'Age IN (SELECT Age FROM example_db.demo_data.customer_churn)' }),
    ).rejects.toThrow(/The WHERE cannot be judged on the held-out rows/);
    await expect(
      ev.slices(churn, { where: "Age IN (SELECT 1 FROM read_csv('/etc/passwd'))" }),
    ).rejects.toThrow(/The WHERE cannot be judged on the held-out rows/);
    await expect(
      ev.slices(churn, { where: `TRUE); DROP TABLE held_out_1; SELECT (1` }),
    ).rejects.toThrow(/The WHERE cannot be judged on the held-out rows/);
    // The same question still gets the same answer, and the tree was computed once.
    const after = await ev.slices(churn, { where: "Geography = 'France'" });
    expect(after.asked).toEqual(before.asked);
    expect(after.asked!.rows).toBeGreaterThan(0);
    expect(after.tree).toBe(before.tree);
  });

  it('for whom: per gender and per geography, with the four-fifths rule', async () => {
    const g = await inst.models.evaluation.groups(churn, { column: 'Gender' });
    expect(g.groups.map((x) => x.label).sort()).toEqual(['Female', 'Male']);
    expect(g.four_fifths.applies).toBe(true);
    for (const x of g.groups) {
      expect(x.small).toBeNull();
      expect(x.selection_rate).toBeGreaterThan(0);
      expect(x.tpr).toBeGreaterThan(0);
    }
    expect(Math.max(...g.groups.map((x) => x.selection_ratio!))).toBe(1);
    const geo = await inst.models.evaluation.groups(churn, { column: 'geography', threshold: 0.5 });
    expect(geo.column).toBe('Geography');
    expect(geo.groups.map((x) => x.label).sort()).toEqual(['France', 'Germany', 'Spain']);
    expect(geo.threshold).toBe(0.5);
    // Numbers become ranges; a column the model never saw can be judged too.
    const ids = await inst.models.evaluation.groups(churn, { column: 'CustomerId' });
    expect(ids.in_model).toBe(false);
    expect(ids.groups[0].where).toMatch(/^`CustomerId` < /);
  });

  it('SQL: DESCRIBE m.<view> answers the same numbers as rows', async () => {
    const lb = objects(await run(inst, 'DESCRIBE mindsdb.churn.leaderboard'));
    expect(lb.map((r) => r.using_model)).toEqual(['gbm', 'linear', 'ensemble']);
    const th = objects(await run(inst, 'DESCRIBE churn.threshold', 'mindsdb'));
    expect(th.find((r) => r.note === 'decides now')).toBeTruthy();
    expect(th.every((r) => r.class === 1)).toBe(true);
    const groups = objects(await run(inst, 'DESCRIBE mindsdb.churn.groups'));
    expect(
      groups
        .filter((r) => r.column === 'Geography')
        .map((r) => r.group)
        .sort(),
    ).toEqual(['France', 'Germany', 'Spain']);
    const sl = objects(await run(inst, 'DESCRIBE mindsdb.churn.slices'));
    expect(sl[0].rank).toBe(1);
    expect((await fails(inst, 'DESCRIBE mindsdb.churn.intervals')).message).toMatch(
      /interval audit applies to models that predict a number/,
    );
  });

  it('REST: every view over HTTP, with specific errors for bad parameters', async () => {
    const base = '/api/projects/mindsdb/models/churn/evaluation';
    const sum = await http(base);
    expect(sum.status).toBe(200);
    expect(sum.body.views.groups.applies).toBe(true);
    const lb = await http(`${base}/leaderboard`);
    expect(lb.body.candidates).toHaveLength(3);
    const t = await http(`${base}/threshold?positive=1`);
    expect(t.status).toBe(200);
    expect(t.body.table.steps).toBe(1000);
    expect((await http(`${base}/calibration`)).body.kind).toBe('positive-class');
    const g = await http(`${base}/groups?column=Geography&threshold=0.4`);
    expect(g.body.groups).toHaveLength(3);
    const sl = await http(
      `${base}/slices?depth=2&where=${encodeURIComponent("Geography = 'Germany'")}`,
    );
    expect(sl.status).toBe(200);
    expect(sl.body.asked.where).toBe("Geography = 'Germany'");
    // The versioned name and the spec's /v1/api prefix answer too.
    expect(
      (await http('/v1/api/api/projects/mindsdb/models/churn.1/evaluation/leaderboard')).status,
    ).toBe(200);
    const bad = await http(`${base}/groups?column=Planet`);
    expect(bad.status).toBe(400);
    expect(bad.body.error_message).toMatch(/Column 'Planet' is not in the held-out rows/);
    expect((await http(`${base}/groups`)).body.error_message).toMatch(/Name the column/);
    expect((await http(`${base}/slices?depth=9`)).status).toBe(400);
    expect((await http(`${base}/intervals`)).status).toBe(400);
    expect((await http('/api/projects/mindsdb/models/nope/evaluation')).status).toBe(404);
    expect((await http(`${base}/threshold`, { threshold: 1.5 })).status).toBe(400);
    expect((await http(`${base}/serve`, { candidate: '' })).status).toBe(400);
  });

  it('saving a threshold makes a new active version that predicts with it and says so', async () => {
    const saved = await http('/api/projects/mindsdb/models/churn/evaluation/threshold', {
      threshold: 0.62,
      positive: 1,
      payoff: { tp: 300, fp: -50, tn: 0, fn: -300 },
      currency: 'EUR',
    });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ version: 2, status: 'complete', active: true });
    expect(inst.models.get(churn).version).toBe(2);
    const t = await inst.models.evaluation.threshold(churn);
    expect(t.saved).toEqual({
      threshold: 0.62,
      positive: 1,
      payoff: { tp: 300, fp: -50, tn: 0, fn: -300 },
      currency: 'EUR',
    });
    expect(t.decision).toEqual({ rule: 'threshold', threshold: 0.62 });
    // Predictions: Exited = 1 exactly when its probability reaches 0.62.
    const p = objects(
      await run(
        inst,
        `SELECT m.Exited, m.Exited_explain FROM example_db.demo_data.customer_churn AS t JOIN mindsdb.churn AS m LIMIT 300`,
      ),
    );
    for (const r of p) {
      const pr = JSON.parse(r.Exited_explain).probability_class_1;
      expect(r.Exited).toBe(pr >= 0.62 ? 1 : 0);
    }
    const d = objects(await run(inst, 'DESCRIBE mindsdb.churn'))[0];
    expect(d.metrics).toMatch(
      /saved threshold: predicts '1' when its probability is at least 0\.62/,
    );
    // Version 1 still decides by its rule: activating it again undoes the change.
    const v1 = await inst.models.evaluation.threshold({ ...churn, version: 1 });
    expect(v1.saved).toBeNull();
  });

  it('the model card carries every view: candidates, threshold and payoff, slices, groups', async () => {
    const res = await fetch(
      `${url}/api/projects/mindsdb/models/churn/card?groups=Gender,Geography&threshold=0.4`,
    );
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const title of [
      'Candidates it tried',
      'Threshold and cost',
      'Profit by threshold (EUR)',
      'Where it is wrong',
      'For whom it works',
      'By Gender',
      'By Geography',
    ])
      expect(html).toContain(title);
    expect(html).toContain('A threshold of 0.62 is saved with this version');
    expect(html).toContain('0.400 (shown in the playground, not saved)');
    expect(html).toContain('saved threshold: &#x27;1&#x27; when its probability is at least 0.62');
    // Each chart has a table beside it and no script or outside URL.
    expect(html).not.toMatch(/<script|https?:\/\//);
  });

  it('serving another candidate trains a new version that the named candidate serves', async () => {
    const served = await http('/api/projects/mindsdb/models/churn/evaluation/serve', {
      candidate: 'linear',
    });
    expect(served.status).toBe(202);
    expect(served.body).toMatchObject({ version: 3, active: false });
    expect((await waitForModel(inst, 'churn', { version: 3 })).status).toBe('complete');
    const l = await inst.models.evaluation.leaderboard({ ...churn, version: 3 });
    expect(l.candidates.find((c) => c.selected)!.using).toBe('linear');
    // It keeps the saved threshold it was trained from.
    expect(inst.models.get({ ...churn, version: 3 }).using).toMatchObject({
      model: 'linear',
      threshold: 0.62,
    });
    await expect(inst.models.evaluation.serve(churn, 'forest')).rejects.toThrow(
      /No candidate 'forest' to serve/,
    );
  });
});

describe('a regression (home_rentals)', () => {
  it('interval audit: coverage near the promised level, per decile and per segment', async () => {
    const r = await inst.models.evaluation.intervals(rentals, 'neighborhood');
    expect(r.level).toBe(0.9);
    expect(r.overall.coverage!).toBeGreaterThan(0.85);
    expect(r.overall.coverage!).toBeLessThan(0.95);
    expect(r.by_decile).toHaveLength(10);
    expect(r.by_decile.reduce((n, c) => n + c.rows, 0)).toBe(r.overall.rows);
    expect(r.by_segment!.column).toBe('neighborhood');
    expect(r.by_segment!.cells.reduce((n, c) => n + c.rows, 0)).toBe(r.overall.rows);
    expect(r.outside.total).toBe(r.overall.above + r.overall.below);
    for (const row of r.outside.rows)
      expect(row.actual < row.lower || row.actual > row.upper).toBe(true);
  });

  it('the classifier views say why they do not apply', async () => {
    const s = await inst.models.evaluation.summary(rentals);
    expect(s.views.threshold.applies).toBe(false);
    expect(s.views.threshold.reason).toMatch(/predicts a number/);
    await expect(inst.models.evaluation.threshold(rentals)).rejects.toThrow(
      /applies to classifiers/,
    );
    const g = await inst.models.evaluation.groups(rentals, { column: 'location' });
    expect(g.four_fifths.applies).toBe(false);
    expect(g.groups.every((x) => typeof x.mae === 'number')).toBe(true);
    const sl = await inst.models.evaluation.slices(rentals);
    expect(sl.metric).toBe('mean_absolute_error');
    const card = await inst.models.card(rentals);
    expect(card.html).toContain('Do the intervals hold?');
    expect(card.html).not.toContain('Threshold and cost');
  });

  it('a version without evidence answers "retrain to see this"', async () => {
    fs.rmSync(inst.models.store.evidenceFile('mindsdb', 'rentals', 1));
    await inst.close();
    inst = await openInstance(trainingCache(), dataDir);
    const s = await inst.models.evaluation.summary(rentals);
    expect(s.available).toBe(false);
    expect(s.reason).toMatch(/retrain/);
    expect(s.views.slices.applies).toBe(false);
    await expect(inst.models.evaluation.slices(rentals)).rejects.toThrow(/retrain it to see this/);
    expect((await inst.models.card(rentals)).html).toMatch(
      /No evaluation evidence: retrain the model/,
    );
  });
});
