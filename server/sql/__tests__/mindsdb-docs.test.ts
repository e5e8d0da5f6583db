/**
 * Statements from MindsDB's own documentation (docs/mindsdb_sql/sql, docs/sql, the tutorials),
 * written as the pages write them; only names the pages made in steps we cannot repeat here are
 * substituted (their tables are `example_db.demo_data.home_rentals` and files made from it). Each
 * family checks the answer's values, and the features this instance has not get a refusal that
 * names them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance } from '../../instance';
import { startPgServer, type PgTestServer } from '../../integrations/__tests__/pg-server';
import { withPosition } from '../../errors';
import { fails, objects, open, run, waitForModel } from './model-helpers';
import { trainingCache } from '../../test/training-cache';

let inst: Instance;
const HR = 'example_db.demo_data.home_rentals';

beforeAll(async () => {
  inst = await open(undefined, trainingCache());
  // docs/mindsdb_sql/sql/api/join-on.mdx: the pets, owners and animals tables, as shown there.
  await run(
    inst,
    `CREATE TABLE files.pets (SELECT * FROM (VALUES (1,'Moon',1),(2,'Ripley',2),(3,'Bonkers',3),(4,'Star',2),(5,'Luna',2),(6,'Lake',4)) t(pet_id, name, animal_id))`,
  );
  await run(
    inst,
    `CREATE TABLE files.owners (SELECT * FROM (VALUES (1,'Amy',4),(2,'Bob',1),(3,'Harry',5),(4,'Julia',2),(5,'Larry',3),(6,'Henry',0)) t(owner_id, name, pet_id))`,
  );
  await run(
    inst,
    `CREATE TABLE files.animals (SELECT * FROM (VALUES (1,'Dog'),(2,'Cat'),(3,'Hamster'),(4,'Fish')) t(animal_id, name))`,
  );
  await run(
    inst,
    `CREATE MODEL mindsdb.home_rentals_model FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price`,
  );
  expect((await waitForModel(inst, 'home_rentals_model')).status).toBe('complete');
}, 300_000);

afterAll(async () => {
  await inst?.close();
});

describe('docs/mindsdb_sql/sql/api/join-on.mdx, the documented JOINs of files', () => {
  it('INNER, LEFT, RIGHT and FULL JOIN answer the rows the page shows', async () => {
    const inner = await run(
      inst,
      `SELECT * FROM files.owners o INNER JOIN files.pets p ON o.pet_id = p.pet_id WHERE o.name = 'Amy' OR o.name = 'Bob';`,
    );
    // No ORDER BY on the page: compare as a set.
    expect(inner.data.map((r) => [r[1], r[4]]).sort()).toEqual([
      ['Amy', 'Star'],
      ['Bob', 'Moon'],
    ]);
    const left = await run(
      inst,
      'SELECT * FROM files.owners o LEFT JOIN files.pets p ON o.pet_id = p.pet_id;',
    );
    expect(left.data.find((r) => r[1] === 'Henry')?.slice(3)).toEqual([null, null, null]);
    const full = await run(
      inst,
      'SELECT * FROM files.owners o FULL OUTER JOIN files.pets p ON o.pet_id = p.pet_id;',
    );
    expect(full.data).toHaveLength(7);
    const three = await run(
      inst,
      `SELECT * FROM files.owners o RIGHT JOIN files.pets p ON o.pet_id = p.pet_id JOIN files.animals a ON p.animal_id = a.animal_id;`,
    );
    expect(three.data.find((r) => r[4] === 'Lake')?.slice(-1)).toEqual(['Fish']);
  });
});

describe('docs/sql/feature-eng.mdx: a model trained from a view over a native query', () => {
  // The page's used_car_price table is not in the demo data; the same view shape over home_rentals.
  const VIEW = `CREATE VIEW rentals_plus_2_columns (
    SELECT * FROM example_db (
        SELECT number_of_rooms, sqft, location, days_on_market, rental_price,
               ROUND(CAST((sqft / 10.7639) AS numeric), 1) AS sqm, -- square feet to square metres
               (date_part('year', CURRENT_DATE) - 2000) AS years_since_2000,
               COUNT(*) OVER (PARTITION BY location) AS units_in_location
        FROM demo_data.home_rentals
    )
);`;

  it('CREATE MODEL ... FROM mindsdb (SELECT * FROM view) trains on the view, RETRAIN reads it again', async () => {
    await run(inst, VIEW);
    await run(
      inst,
      `CREATE MODEL mindsdb.price_predictor_plus_2_columns
FROM mindsdb
  (SELECT * FROM rentals_plus_2_columns)
PREDICT rental_price;`,
    );
    expect((await waitForModel(inst, 'price_predictor_plus_2_columns')).status).toBe('complete');
    const features = objects(
      await run(inst, 'DESCRIBE price_predictor_plus_2_columns.features;'),
    ).map((f) => f.column);
    expect(features).toEqual(expect.arrayContaining(['sqm', 'units_in_location', 'sqft']));
    await run(inst, 'RETRAIN mindsdb.price_predictor_plus_2_columns;');
    expect(
      (await waitForModel(inst, 'price_predictor_plus_2_columns', { version: 2 })).status,
    ).toBe('complete');
    const p = await run(
      inst,
      `SELECT m.rental_price FROM mindsdb.rentals_plus_2_columns AS t JOIN mindsdb.price_predictor_plus_2_columns AS m LIMIT 3`,
    );
    expect(p.data).toHaveLength(3);
    expect(typeof p.data[0][0]).toBe('number');
  }, 300_000);

  it('a model FROM a native query of the demo database trains on its rows', async () => {
    await run(
      inst,
      `CREATE MODEL mindsdb.rentals_native FROM files (SELECT * FROM example_db (SELECT sqft, location, rental_price FROM demo_data.home_rentals WHERE location = 'good')) PREDICT rental_price`,
    );
    expect((await waitForModel(inst, 'rentals_native')).status).toBe('complete');
    const features = objects(await run(inst, 'DESCRIBE rentals_native.features')).map(
      (f) => f.column,
    );
    expect(features.sort()).toEqual(['location', 'rental_price', 'sqft']);
  }, 300_000);

  it('a FROM query that reads a model (through a view) is still refused: RETRAIN could not repeat it', async () => {
    await run(
      inst,
      `CREATE VIEW rentals_predicted (SELECT t.sqft, m.rental_price FROM ${HR} AS t JOIN mindsdb.home_rentals_model AS m)`,
    );
    const e = await fails(
      inst,
      'CREATE MODEL mindsdb.from_predictions FROM mindsdb (SELECT * FROM rentals_predicted) PREDICT rental_price',
    );
    expect(e.message).toMatch(/^A model's FROM query reads the instance's own tables/);
  });
});

describe('docs/mindsdb_sql/sql/api/update.mdx and delete.mdx with predictions', () => {
  it('UPDATE ... SET c = p.c FROM (SELECT ... JOIN model) AS p WHERE k = p.k writes the predictions', async () => {
    await run(
      inst,
      `CREATE TABLE files.rentals_to_update (SELECT * FROM ${HR} WHERE neighborhood = 'westbrae')`,
    );
    const r = await run(
      inst,
      `UPDATE
    files.rentals_to_update
SET
    rental_price = prediction_data.rental_price
FROM
    (
        SELECT p.rental_price, t.sqft, t.days_on_market, t.number_of_rooms
        FROM example_db.demo_data.home_rentals as t
        JOIN mindsdb.home_rentals_model as p
        WHERE t.neighborhood = "westbrae"
    ) AS prediction_data
WHERE
    sqft = prediction_data.sqft
    AND days_on_market = prediction_data.days_on_market
    AND number_of_rooms = prediction_data.number_of_rooms;`,
    );
    expect((r as { affected_rows?: number }).affected_rows).toBeGreaterThan(0);
    // Every row of the table now holds the model's prediction for it.
    const diff = await run(
      inst,
      `SELECT count(*) FROM files.rentals_to_update u JOIN (
         SELECT t.sqft, t.days_on_market, t.number_of_rooms, m.rental_price AS predicted
         FROM files.rentals_to_update AS t JOIN mindsdb.home_rentals_model AS m) p
       ON u.sqft = p.sqft AND u.days_on_market = p.days_on_market AND u.number_of_rooms = p.number_of_rooms
       WHERE abs(u.rental_price - p.predicted) > 1e-6`,
    );
    expect(diff.data[0][0]).toBe(0);
  });

  it('DELETE ... WHERE c IN (SELECT ... JOIN model WHERE prediction ...) deletes those rows', async () => {
    await run(inst, `CREATE TABLE files.rentals_to_delete (SELECT * FROM ${HR})`);
    const expensive = await run(
      inst,
      `SELECT count(DISTINCT t.sqft) FROM ${HR} AS t JOIN mindsdb.home_rentals_model AS m WHERE m.rental_price > 4000`,
    );
    const before = (await run(inst, 'SELECT count(*) FROM files.rentals_to_delete')).data[0][0];
    await run(
      inst,
      `DELETE FROM files.rentals_to_delete
WHERE sqft IN (
    SELECT t.sqft FROM example_db.demo_data.home_rentals AS t
    JOIN mindsdb.home_rentals_model AS m
    WHERE m.rental_price > 4000
);`,
    );
    const left = await run(
      inst,
      `SELECT count(*) FROM files.rentals_to_delete WHERE sqft IN (SELECT t.sqft FROM ${HR} AS t JOIN mindsdb.home_rentals_model AS m WHERE m.rental_price > 4000)`,
    );
    expect(expensive.data[0][0]).toBeGreaterThan(0);
    expect(left.data[0][0]).toBe(0);
    const after = (await run(inst, 'SELECT count(*) FROM files.rentals_to_delete')).data[0][0];
    expect(after).toBeLessThan(before as number);
  });
});

describe('docs/mindsdb_sql/sql/api/update.mdx: UPDATE ... ON keys FROM (query)', () => {
  it("sets the query's other columns on the rows whose keys match, and only those", async () => {
    await run(
      inst,
      `CREATE TABLE files.rentals_on (SELECT * FROM ${HR} WHERE neighborhood IN ('westbrae', 'downtown'))`,
    );
    const untouched = await run(
      inst,
      `SELECT sum(rental_price) FROM files.rentals_on WHERE neighborhood = 'downtown'`,
    );
    await run(
      inst,
      `UPDATE
    files.rentals_on
ON
    sqft, days_on_market, number_of_rooms
FROM
    (
        SELECT p.rental_price as rental_price, t.sqft, t.days_on_market, t.number_of_rooms
        FROM example_db.demo_data.home_rentals as t
        JOIN mindsdb.home_rentals_model as p
        WHERE t.neighborhood = 'westbrae'
    );`,
    );
    const off = await run(
      inst,
      `SELECT count(*) FROM files.rentals_on u JOIN (
         SELECT t.sqft, t.days_on_market, t.number_of_rooms, m.rental_price AS predicted
         FROM files.rentals_on AS t JOIN mindsdb.home_rentals_model AS m WHERE t.neighborhood = 'westbrae') p
       ON u.sqft = p.sqft AND u.days_on_market = p.days_on_market AND u.number_of_rooms = p.number_of_rooms
       WHERE u.neighborhood = 'westbrae' AND abs(u.rental_price - p.predicted) > 1e-6`,
    );
    expect(off.data[0][0]).toBe(0);
    expect(
      (
        await run(
          inst,
          `SELECT sum(rental_price) FROM files.rentals_on WHERE neighborhood = 'downtown'`,
        )
      ).data,
    ).toEqual(untouched.data);
  });

  it('a key the query does not have is a specific error', async () => {
    const e = await fails(
      inst,
      'UPDATE files.rentals_on ON nope FROM (SELECT 1 AS sqft, 2 AS rental_price)',
    );
    expect(e.message).toBe(
      "UPDATE ... ON nope: the query has no column 'nope'; its columns are: sqft, rental_price",
    );
  });
});

describe('docs/sql/table-structure.mdx and use-cases/in-database_ml/ai-tables.mdx', () => {
  it('SHOW MODELS FROM p LIKE ... WHERE ... applies both filters', async () => {
    const none = await run(inst, `SHOW MODELS FROM mindsdb LIKE '%ai%' WHERE engine = 'openai';`);
    expect(none.data).toEqual([]);
    const some = await run(
      inst,
      `SHOW MODELS FROM mindsdb LIKE '%rentals%' WHERE engine = 'lightwood'`,
    );
    expect(objects(some).map((m) => m.NAME)).toContain('home_rentals_model');
    expect(objects(some).every((m) => /rentals/.test(m.NAME))).toBe(true);
  });

  it('SET SHOW_SECRETS = FALSE is accepted (secrets are never shown); TRUE is refused by name', async () => {
    await run(inst, 'SET SHOW_SECRETS = FALSE;');
    expect((await fails(inst, 'SET SHOW_SECRETS = TRUE;')).message).toBe(
      'SET SHOW_SECRETS = TRUE is not supported by this instance (connection secrets are never shown)',
    );
  });

  it('CREATE MODEL ... FROM <table> reads that table of the current database', async () => {
    await run(
      inst,
      `CREATE TABLE files.income_table (SELECT i * 10000 AS income, i * 3000 + 2000 AS debt FROM range(2, 40) r(i))`,
    );
    const r = await inst.sql.execute({
      query: `CREATE MODEL mindsdb.debt_model
FROM income_table
PREDICT debt;`,
      db: 'files',
    });
    expect(r.type).toBe('table');
    expect((await waitForModel(inst, 'debt_model')).status).toBe('complete');
    const p = await run(inst, 'SELECT income, debt FROM mindsdb.debt_model WHERE income = 90000;');
    expect(p.data[0][0]).toBe(90000);
    // debt = 0.3 * income + 2000 on the training rows: 29000 here.
    expect(Math.abs((p.data[0][1] as number) - 29000)).toBeLessThan(3000);
    const e = await fails(inst, 'CREATE MODEL mindsdb.debt_db FROM example_db PREDICT debt');
    expect(e.message).toMatch(/^'example_db' is a database: train from one of its tables/);
  }, 300_000);
});

describe('Lightwood forms of the model pages and older tutorials', () => {
  it('USING join_learn_process = true returns once the training has ended (CREATE and RETRAIN)', async () => {
    const created = await run(
      inst,
      `CREATE MODEL mindsdb.rentals_joined FROM example_db (SELECT sqft, location, rental_price FROM demo_data.home_rentals) PREDICT rental_price USING join_learn_process = true;`,
    );
    expect(objects(created)[0]).toMatchObject({ NAME: 'rentals_joined', STATUS: 'complete' });
    const retrained = await run(
      inst,
      'RETRAIN mindsdb.rentals_joined USING join_learn_process = true;',
    );
    expect(objects(retrained)[0]).toMatchObject({ VERSION: 2, STATUS: 'complete', ACTIVE: true });
  }, 300_000);

  it('reads mindsdb.predictors as the models table, and DESCRIBE m.ensemble as m.model', async () => {
    const p = await run(
      inst,
      "SELECT name, status FROM mindsdb.predictors WHERE name='home_rentals_model';",
    );
    expect(p.data).toEqual([['home_rentals_model', 'complete']]);
    const ensemble = await run(inst, 'DESCRIBE mindsdb.home_rentals_model.ensemble;');
    const model = await run(inst, 'DESCRIBE mindsdb.home_rentals_model.model;');
    expect(ensemble.column_names).toEqual(model.column_names);
    expect(ensemble.data.map((r) => r[0])).toEqual(model.data.map((r) => r[0]));
  });
});

describe("MindsDB's time-series flow (tests/integration/flows/test_ts_predictions.py) on PostgreSQL", () => {
  let pg: PgTestServer;
  const day = (i: number) => {
    const d = new Date();
    d.setUTCDate(d.getUTCDate() + i);
    return d.toISOString().slice(0, 10);
  };
  beforeAll(async () => {
    pg = await startPgServer({ seed: true });
    await run(
      inst,
      `CREATE DATABASE ts_demo_postgres WITH ENGINE = "postgres", PARAMETERS = ${JSON.stringify({
        user: pg.user,
        password: pg.password,
        host: pg.host,
        port: String(pg.port),
        database: pg.database,
      })};`,
    );
  });
  afterAll(async () => {
    await pg?.stop();
  });

  it('trains FROM mindsdb (SELECT * FROM a view over a PostgreSQL native query) and forecasts as MindsDB does', async () => {
    const selects: string[] = [];
    for (let i = 0; i < 30; i++) {
      for (const group of ['a', 'b']) {
        selects.push(
          `select '${day(i)}' as date, '${group}' as group, ${(i * 7 + group.charCodeAt(0)) % 11} as value`,
        );
      }
    }
    await run(
      inst,
      `create view testv as (
                select * from ts_demo_postgres (${selects.join(' union all ')})
            )`,
    );
    // A view that is one PostgreSQL query reads like any other.
    expect((await run(inst, 'select count(*) from testv')).data).toEqual([[60]]);
    const created = await run(
      inst,
      `CREATE MODEL
                    mindsdb.tstest
                FROM mindsdb (select * from testv)
                PREDICT value
                ORDER BY date
                GROUP BY group
                WINDOW 5
                HORIZON 3;`,
    );
    expect(objects(created)[0].STATUS).toBe('generating');
    expect((await waitForModel(inst, 'tstest')).status).toBe('complete');
    const q = async (where: string) =>
      objects(
        await run(
          inst,
          `select p.date, p.group, p.value
            from mindsdb.testv as t join mindsdb.tstest as p
            where ${where}`,
        ),
      );
    const gtLatest = await q('t.date > LATEST');
    expect(gtLatest).toHaveLength(6);
    expect(gtLatest.filter((r) => r.group === 'a')).toHaveLength(3);
    expect(String(gtLatest[0].date).slice(0, 10)).toBe(day(30));
    expect(await q("t.date > LATEST and t.group = 'wrong'")).toEqual([]);
    const eqLatest = await q('t.date = LATEST');
    expect(eqLatest).toHaveLength(2);
    expect(String(eqLatest[0].date).slice(0, 10)).toBe(day(29));
    const gtDate = await q(`t.date > '${day(15)}'`);
    expect(gtDate).toHaveLength(34);
    expect(gtDate.filter((r) => r.group === 'a')).toHaveLength(17);
    expect(String(gtDate[0].date).slice(0, 10)).toBe(day(16));
    const eqDate = await q(`t.date = '${day(15)}'`);
    expect(eqDate).toHaveLength(6);
    expect(String(eqDate[0].date).slice(0, 10)).toBe(day(16));
  }, 300_000);

  it('a model FROM a PostgreSQL native query runs it there again on RETRAIN', async () => {
    await run(
      inst,
      'CREATE MODEL mindsdb.pg_native FROM mindsdb (SELECT * FROM ts_demo_postgres (SELECT sqft, location, rental_price FROM home_rentals)) PREDICT rental_price',
    );
    expect((await waitForModel(inst, 'pg_native')).status).toBe('complete');
    const retrained = await run(inst, 'RETRAIN mindsdb.pg_native USING join_learn_process = true');
    expect(objects(retrained)[0]).toMatchObject({ VERSION: 2, STATUS: 'complete' });
    const features = objects(await run(inst, 'DESCRIBE pg_native.features')).map((f) => f.column);
    expect(features.sort()).toEqual(['location', 'rental_price', 'sqft']);
  }, 300_000);
});

describe("MindsDB's HTTP tests (tests/integration/flows/test_http.py): MySQL clients' listings", () => {
  it.each([
    'show function status',
    "show function status where db = 'mindsdb'",
    'show procedure status',
    "show procedure status where db = 'mindsdb'",
  ])("%s answers an empty table of MySQL's columns", async (sql) => {
    const r = await run(inst, sql);
    expect(r.data).toEqual([]);
    expect(r.column_names.slice(0, 3)).toEqual(['Db', 'Name', 'Type']);
  });
});

describe('documented features this instance has not: a refusal that names them', () => {
  it.each([
    [
      `CREATE MODEL model_name PREDICT answer USING engine = 'openai', prompt_template = 'provide answers to an input from a user: {{input}}';`,
      /^ML engine 'openai' is not supported by this instance/,
    ],
    [
      `CREATE MODEL mindsdb.spam_classifier PREDICT PRED USING engine = 'huggingface', task = 'text-classification', model_name = 'mrm8488/bert-tiny-finetuned-sms-spam-detection', input_column = 'text_spammy', labels = ['ham', 'spam'];`,
      /^ML engine 'huggingface' is not supported by this instance/,
    ],
    [
      `CREATE MODEL mindsdb.byom_ray_serve FROM mydb (SELECT number_of_rooms, initial_price, rental_price FROM test_data.home_rentals) PREDICT number_of_rooms USING url.train = 'http://127.0.0.1:8000/my_model/train', url.predict = 'http://127.0.0.1:8000/my_model/predict', dtype_dict = {"number_of_rooms": "categorical"}, format = 'ray_server';`,
      /^Bring-your-own-model \(USING url\.train \/ url\.predict\) is not supported by this instance/,
    ],
    [
      `CREATE MODEL mindsdb.byom_mlflow PREDICT \`1\` -- \`1\` is the target column name
USING url.predict='http://localhost:5000/invocations', format='mlflow', data_dtype={"0": "integer", "1": "integer"};`,
      /^Bring-your-own-model .* is not supported by this instance/,
    ],
    [
      `CREATE DATABASE mysql_datasource WITH ENGINE = 'mariadb', PARAMETERS = { "user": "root", "port": 3307, "password": "password", "host": "127.0.0.1", "database": "my_database" };`,
      /the 'mariadb' integration is not supported by this instance; it supports: postgres, duckdb/,
    ],
    [
      `CREATE DATABASE my_web WITH ENGINE = 'web';`,
      /the 'web' integration is not supported by this instance/,
    ],
    [
      `CREATE DATABASE mindsdb_slack WITH ENGINE = 'slack', PARAMETERS = { "token": "xoxb-...", "app_token": "xapp-..." };`,
      /the 'slack' integration is not supported by this instance/,
    ],
    [
      `SELECT * FROM mindsdb.jobs WHERE name = 'job_name';`,
      /^mindsdb\.jobs is not supported by this instance \(this instance has no jobs\)$/,
    ],
    [`SELECT * FROM information_schema.jobs;`, /^information_schema\.jobs is not supported/],
    [
      `SELECT * FROM log.jobs_history WHERE project = 'mindsdb' AND name = 'job_name';`,
      /^The log database \(log\.jobs_history\) is not supported by this instance/,
    ],
    [`SHOW JOBS WHERE project = 'project-name';`, /^SHOW JOBS is not supported by this instance/],
    [`SHOW TRIGGERS;`, /^SHOW TRIGGERS is not supported by this instance/],
    [
      `SELECT id, name
FROM fruit_data
WHERE id > LAST;`,
      /^LAST \(the last value a job or trigger read\) is not supported by this instance .*\(line 3, column 12\)$/,
    ],
    [
      `SET @my_env_var = from_env("MDB_MY_ENV_VAR")`,
      /^from_env\(\) is not supported by this instance/,
    ],
    [
      `CREATE JOB drop_model (
   DROP MODEL mindsdb.home_rentals_model
)
START '2023-04-01';`,
      /^CREATE JOB is not supported by this instance/,
    ],
  ])('%s', async (sql, message) => {
    const e = await fails(inst, sql);
    expect(withPosition(e.message, e.position)).toMatch(message);
  });

  it('a table or view of that name in a project is read as such, not refused', async () => {
    await run(inst, 'CREATE VIEW mindsdb.jobs (SELECT 7 AS job_id)');
    expect((await run(inst, 'SELECT * FROM mindsdb.jobs')).data).toEqual([[7]]);
    expect((await run(inst, 'WITH jobs AS (SELECT 1 AS a) SELECT * FROM jobs')).data).toEqual([
      [1],
    ]);
    await run(inst, 'DROP VIEW mindsdb.jobs');
  });
});
