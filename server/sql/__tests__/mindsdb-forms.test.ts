/**
 * Forms MindsDB documents that this instance answered differently or refused (issue #23 item 3),
 * run verbatim with their values asserted: DESCRIBE's feature roles, PREDICT ... AS alias, and
 * RETRAIN / FINETUNE with USING keys the engine does not know. (CREATE DATABASE ... ENGINE =
 * 'duckdb' of a file that does not exist yet: server/integrations/__tests__/files.test.ts.)
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance } from '../../instance';
import { objects, open, run, waitForModel } from './model-helpers';
import { trainingCache } from '../../test/training-cache';

let inst: Instance;

beforeAll(async () => {
  inst = await open(undefined, trainingCache());
  await run(
    inst,
    'CREATE MODEL mindsdb.m FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price AS price_alias',
  );
  await waitForModel(inst, 'm');
});

afterAll(async () => {
  await inst?.close();
  if (inst) fs.rmSync(inst.config.DATA_DIR, { recursive: true, force: true });
});

describe('DESCRIBE m.features', () => {
  it("names an input's role feature and the PREDICT column's target, as MindsDB does", async () => {
    const r = await run(inst, 'DESCRIBE m.features');
    expect(r.column_names).toEqual(['column', 'type', 'encoder', 'role']);
    const roles = Object.fromEntries(objects(r).map((f) => [f.column, f.role]));
    expect(roles).toMatchObject({
      sqft: 'feature',
      number_of_rooms: 'feature',
      location: 'feature',
      neighborhood: 'feature',
      rental_price: 'target',
    });
    expect(Object.values(roles)).not.toContain('input');
  });
});

describe('PREDICT rental_price AS price_alias', () => {
  it('names the predictions after the alias: SELECT price_alias FROM m WHERE ...', async () => {
    const r = await run(
      inst,
      "SELECT price_alias FROM m WHERE sqft = 823 AND location = 'good' AND number_of_rooms = 2",
    );
    expect(r.column_names).toEqual(['price_alias']);
    expect(r.data[0][0]).toBeGreaterThan(1000);
    expect(r.data[0][0]).toBeLessThan(10000);
    const all = await run(inst, 'SELECT * FROM m WHERE sqft = 823');
    expect(all.column_names).toEqual(
      expect.arrayContaining([
        'price_alias',
        'price_alias_confidence',
        'price_alias_min',
        'price_alias_max',
        'price_alias_explain',
      ]),
    );
    expect(all.column_names).not.toContain('rental_price_confidence');
    // In a JOIN the data keeps its own rental_price; the prediction is price_alias.
    const j = await run(
      inst,
      'SELECT t.rental_price, m.price_alias, price_alias_original FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.m AS m LIMIT 5',
    );
    expect(j.data.map((x) => x[2])).toEqual(j.data.map((x) => x[0]));
    for (const [real, predicted] of j.data)
      expect(Math.abs(predicted - real) / real).toBeLessThan(0.2);
    const info = objects(await run(inst, 'DESCRIBE m'))[0];
    expect(info.outputs).toEqual(['price_alias']);
  });
});

describe('USING keys the engine does not know', () => {
  it('RETRAIN ... USING a = null, b = 1 trains a new version and notes the keys it leaves out', async () => {
    const r = await inst.sql.execute({
      query: 'RETRAIN mindsdb.m USING a = null, b = 1; SHOW WARNINGS',
    });
    expect(r.type).toBe('table');
    const notes = objects(r as never).map((n) => n.Message);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(
      /^RETRAIN \.\.\. USING a: this instance's engine has no such option; it is accepted and not applied/,
    );
    expect(notes[1]).toMatch(/^RETRAIN \.\.\. USING b: /);
    const done = await waitForModel(inst, 'm', { version: 2 });
    expect(done).toEqual({ status: 'complete', error: null });
    // The alias carries over to the new version.
    const p = await run(inst, 'SELECT price_alias FROM mindsdb.m.2 WHERE sqft = 900');
    expect(p.data[0][0]).toBeGreaterThan(1000);
  });

  it('FINETUNE ... USING a = 1 continues from the active version', async () => {
    const r = await inst.sql.execute({
      query:
        'FINETUNE mindsdb.m FROM example_db (SELECT * FROM demo_data.home_rentals LIMIT 200) USING a = 1; SHOW WARNINGS',
    });
    expect(objects(r as never).map((n) => n.Message)).toEqual([
      expect.stringMatching(/^FINETUNE \.\.\. USING a: this instance's engine has no such option/),
    ]);
    const done = await waitForModel(inst, 'm', { version: 3 });
    expect(done).toEqual({ status: 'complete', error: null });
    const v = await run(
      inst,
      "SELECT VERSION, STATUS FROM mindsdb.models_versions WHERE name = 'm' ORDER BY VERSION",
    );
    expect(v.data).toEqual([
      [1, 'complete'],
      [2, 'complete'],
      [3, 'complete'],
    ]);
  });

  it('CREATE MODEL still refuses an unknown key (a typo there would train another model)', async () => {
    const r = await inst.sql.execute({
      query:
        'CREATE MODEL mindsdb.m2 FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price USING max_iteration = 5',
    });
    expect(r).toMatchObject({ type: 'error', error_code: 3 });
  });
});
