/**
 * The exact SQL MindsDB's Python SDK (mindsdb_sdk) sends, through the real HTTP endpoint. Each
 * string is what the SDK's AST renders to with mindsdb_sql_parser (`ast.to_string()`), spacing and
 * all, for: projects.create/drop, databases.list/create, models.create/get/list/describe/
 * set_active/drop_version/drop, model.predict(query), ml_engines.list/create/drop,
 * handlers.list, views.create/drop, tables.create(replace=True)/drop.
 */
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';

let h: Harness;

async function sdk(query: string, db?: string) {
  const r = await h.sql(query, db ? { context: { db } } : {});
  if (r.type === 'error') throw new Error(`${r.error_message}\n  in: ${query}`);
  return r;
}

const rows = (r: { column_names: string[]; data: unknown[][] }) =>
  r.data.map((d) => Object.fromEntries(r.column_names.map((c, i) => [c, d[i]])));

beforeAll(async () => {
  h = await startHarness(trainingCache());
});

afterAll(async () => {
  await h?.close();
});

describe('the Python SDK against the instance', () => {
  it('projects.create / list and databases.list', async () => {
    await sdk("CREATE DATABASE sdk_proj ENGINE = 'mindsdb' ");
    const file = await DuckDBInstance.create(path.join(h.dataDir, 'uploads', 'sdk.duckdb'));
    file.closeSync();
    const projects = await sdk(
      "select NAME from information_schema.databases where TYPE='project'",
    );
    expect(projects.data.flat()).toEqual(['mindsdb', 'sdk_proj']);
    await sdk("CREATE DATABASE sdk_db ENGINE = 'duckdb' , PARAMETERS = {'database': 'sdk.duckdb'}");
    const dbs = await sdk(
      "select NAME, ENGINE, CONNECTION_DATA from information_schema.databases where TYPE='data'",
    );
    expect(rows(dbs)).toContainEqual({
      NAME: 'sdk_db',
      ENGINE: 'duckdb',
      CONNECTION_DATA: JSON.stringify({ database: 'sdk.duckdb', read_only: false }),
    });
  });

  it('models.create, get, list, describe', async () => {
    const created = await sdk(
      "CREATE MODEL sdk_proj.sdk_model FROM example_db (select * from demo_data.home_rentals) PREDICT rental_price USING engine='lightwood', tag='from sdk'",
    );
    expect(rows(created)[0]).toMatchObject({
      NAME: 'sdk_model',
      STATUS: 'generating',
      TAG: 'from sdk',
    });
    await h.instance.models.idle();
    const active = await sdk(
      "SELECT * FROM models WHERE NAME = 'sdk_model' AND ACTIVE = '1'",
      'sdk_proj',
    );
    expect(rows(active)).toEqual([
      expect.objectContaining({ NAME: 'sdk_model', STATUS: 'complete', VERSION: 1 }),
    ]);
    const describe = await sdk('DESCRIBE sdk_proj.sdk_model');
    expect(describe.column_names).toContain('column_importances');
    const features = await sdk('DESCRIBE sdk_proj.sdk_model.features');
    expect(features.column_names).toEqual(['column', 'type', 'encoder', 'role']);
  });

  it('model.predict(query): the native query in parentheses joined with the model', async () => {
    const r = await sdk(
      'SELECT m.* FROM (example_db (select * from demo_data.home_rentals limit 5)) AS t JOIN sdk_proj.sdk_model AS m',
    );
    expect(r.data).toHaveLength(5);
    expect(r.column_names[0]).toBe('rental_price');
    const versioned = await sdk(
      'SELECT m.* FROM example_db.demo_data.home_rentals AS t JOIN sdk_proj.sdk_model.`1` AS m LIMIT 3',
    );
    expect(versioned.data).toHaveLength(3);
  });

  it('set_active, list with versions, drop_version, drop', async () => {
    await sdk('RETRAIN sdk_proj.sdk_model');
    await h.instance.models.idle();
    await sdk('SET active sdk_proj.sdk_model.`1`');
    const v2 = await sdk(
      "SELECT * FROM models WHERE NAME = 'sdk_model' AND VERSION = 2",
      'sdk_proj',
    );
    expect(rows(v2)[0]).toMatchObject({ VERSION: 2, ACTIVE: false });
    await sdk('DROP PREDICTOR sdk_model.`2`', 'sdk_proj');
    const left = await sdk(
      "SELECT version FROM models_versions WHERE name = 'sdk_model'",
      'sdk_proj',
    );
    expect(left.data).toEqual([[1]]);
    await sdk('DROP PREDICTOR sdk_proj.sdk_model');
    expect((await sdk('SELECT * FROM models', 'sdk_proj')).data).toEqual([]);
  });

  it('ml_engines.list / create / drop and handlers.list', async () => {
    await sdk('CREATE ML_ENGINE  sdk_engine FROM lightwood USING');
    expect(rows(await sdk('SHOW ML_ENGINES')).map((r) => r.NAME)).toEqual([
      'lightwood',
      'sdk_engine',
    ]);
    await sdk('DROP ML_ENGINE sdk_engine');
    const handlers = await sdk("SHOW HANDLERS WHERE type = 'ml'");
    expect(rows(handlers).map((r) => r.NAME)).toEqual(['lightwood']);
  });

  it('views.create / drop and tables.create(replace=True) / drop', async () => {
    await sdk(
      'CREATE VIEW sdk_view FROM example_db AS ( select * from demo_data.home_rentals limit 3 )',
      'sdk_proj',
    );
    expect((await sdk('SELECT count(*) FROM sdk_proj.sdk_view')).data).toEqual([[3]]);
    await sdk('DROP VIEW sdk_view', 'sdk_proj');
    await sdk(
      'CREATE OR REPLACE TABLE files.sdk_saved  SELECT * FROM example_db (select * from demo_data.home_rentals limit 4)',
    );
    expect((await sdk('SELECT count(*) FROM files.sdk_saved')).data).toEqual([[4]]);
    await sdk('DROP  TABLE  files.sdk_saved');
    await sdk('DROP DATABASE sdk_proj');
  });
});
