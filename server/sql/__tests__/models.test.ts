/**
 * Model statements through the SQL layer on a real instance: the MindsDB tutorial verbatim,
 * predictions (single, batch JOIN in the shapes real clients send), DESCRIBE, SHOW, versions, and
 * the bad inputs a user can throw at them. One home_rentals model is trained once and shared; the
 * version tests that change it run last.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../errors';
import type { Instance } from '../../instance';
import { MODEL_COLUMNS } from '../../models/models-table';
import {
  fails,
  objects,
  open,
  pollPause,
  r2,
  run,
  waitForModel,
  type Table,
} from './model-helpers';

let inst: Instance;
let created: Table;

beforeAll(async () => {
  inst = await open();
  created = await run(
    inst,
    'CREATE MODEL mindsdb.home_rentals_model FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price;',
  );
  // The tutorial's own polling statement.
  for (;;) {
    const t = await run(
      inst,
      "SELECT status FROM mindsdb.models WHERE name = 'home_rentals_model';",
    );
    if (t.data[0][0] === 'complete' || t.data[0][0] === 'error') break;
    await pollPause(inst);
  }
  // Small synthetic data for the bad-input cases (fast to train).
  await run(
    inst,
    `CREATE TABLE files.small AS SELECT i % 50 AS x, (i % 50) * 2 + 1 AS y, CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END AS c
     FROM range(200) t(i)`,
  );
});

afterAll(async () => {
  await inst?.close();
  if (inst) fs.rmSync(inst.config.DATA_DIR, { recursive: true, force: true });
});

describe('the tutorial model', () => {
  it('CREATE MODEL answers the model row at once, with status generating', () => {
    expect(created.column_names).toEqual(MODEL_COLUMNS.map((c) => c.name));
    const [row] = objects(created);
    expect(row).toMatchObject({
      NAME: 'home_rentals_model',
      ENGINE: 'lightwood',
      PROJECT: 'mindsdb',
      ACTIVE: true,
      VERSION: 1,
      STATUS: 'generating',
      PREDICT: 'rental_price',
      UPDATE_STATUS: 'up_to_date',
      SELECT_DATA_QUERY: 'SELECT * FROM demo_data.home_rentals',
    });
  });

  it('reaches complete with accuracy, phases and training time in mindsdb.models', async () => {
    const [row] = objects(
      await run(
        inst,
        "SELECT * FROM mindsdb.models WHERE name = 'home_rentals_model' AND active = 1",
      ),
    );
    expect(row.STATUS).toBe('complete');
    expect(row.ERROR).toBeNull();
    expect(row.ACCURACY).toBeGreaterThan(0.99);
    expect(row.CURRENT_TRAINING_PHASE).toBe(row.TOTAL_TRAINING_PHASES);
    expect(row.TOTAL_TRAINING_PHASES).toBeGreaterThan(1);
    expect(typeof row.TRAINING_PHASE_NAME).toBe('string');
    expect(row.TRAINING_TIME).toBeGreaterThan(0);
    expect(JSON.parse(row.TRAINING_OPTIONS)).toEqual({ target: 'rental_price', using: {} });
    expect(row.CREATED_AT).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    const fromProject = await run(inst, 'SELECT name, status FROM models', 'mindsdb');
    expect(fromProject.data).toEqual([['home_rentals_model', 'complete']]);
  });

  it('is listed by models_versions (as the JS SDK queries it), information_schema.models and joins', async () => {
    const sdk = await run(
      inst,
      "SELECT * FROM `mindsdb`.models_versions WHERE name = 'home_rentals_model'",
    );
    expect(objects(sdk).map((r) => [r.NAME, r.VERSION, r.STATUS])).toEqual([
      ['home_rentals_model', 1, 'complete'],
    ]);
    const info = await run(
      inst,
      "SELECT project, name FROM information_schema.models WHERE name = 'home_rentals_model'",
    );
    expect(info.data).toEqual([['mindsdb', 'home_rentals_model']]);
    const joined = await run(
      inst,
      `SELECT m.name, p.project FROM mindsdb.models AS m JOIN (SELECT 'mindsdb' AS project) AS p ON m.project = p.project`,
    );
    expect(joined.data).toEqual([['home_rentals_model', 'mindsdb']]);
  });

  it('answers the tutorial single prediction with a number and its explanation, contributions included', async () => {
    const t = await run(
      inst,
      "SELECT rental_price, rental_price_explain FROM mindsdb.home_rentals_model WHERE sqft = 823 AND location = 'good';",
    );
    expect(t.column_names).toEqual(['rental_price', 'rental_price_explain']);
    const [[price, explain]] = t.data;
    expect(typeof price).toBe('number');
    const ex = JSON.parse(explain);
    expect(Object.keys(ex)).toEqual([
      'predicted_value',
      'confidence',
      'anomaly',
      'truth',
      'confidence_lower_bound',
      'confidence_upper_bound',
      // The query reads the column, so it carries the explanation (L-CONTRACT 1).
      'base_value',
      'feature_contributions',
      'explained_value',
      'explained_class',
    ]);
    expect(ex.predicted_value).toBe(price);
    expect(ex.explained_value).toBeCloseTo(price, 6);
    expect(ex.confidence_lower_bound).toBeLessThanOrEqual(price);
    expect(ex.confidence_upper_bound).toBeGreaterThanOrEqual(price);
  });

  it('SELECT * from a model returns inputs (cast, null when missing), prediction columns and the service columns', async () => {
    const t = await run(
      inst,
      'SELECT * FROM mindsdb.home_rentals_model WHERE sqft = "823" AND location = "good"',
    );
    const [row] = objects(t);
    expect(t.column_names).toEqual([
      'number_of_rooms',
      'number_of_bathrooms',
      'sqft',
      'location',
      'days_on_market',
      'initial_price',
      'neighborhood',
      'rental_price',
      'rental_price_confidence',
      'rental_price_min',
      'rental_price_max',
      'rental_price_anomaly',
      'rental_price_original',
      'rental_price_explain',
      '__service_row_id',
      'select_data_query',
      'when_data',
    ]);
    expect(row).toMatchObject({
      sqft: 823,
      location: 'good',
      number_of_rooms: null,
      rental_price_original: null,
      __service_row_id: 0,
      select_data_query: null,
      when_data: null,
    });
    expect(row.rental_price_min).toBeLessThanOrEqual(row.rental_price);
    expect(row.rental_price_confidence).toBeGreaterThan(0);
    // Typed as the model's columns (the row is a relation of typed values, not a table).
    expect(t.column_types).toEqual([
      ...['DOUBLE', 'DOUBLE', 'DOUBLE', 'VARCHAR', 'DOUBLE', 'DOUBLE', 'VARCHAR'],
      ...['DOUBLE', 'DOUBLE', 'DOUBLE', 'DOUBLE', 'BOOLEAN', 'DOUBLE', 'VARCHAR'],
      ...['BIGINT', 'VARCHAR', 'VARCHAR'],
    ]);
    // The same prediction as the batch form's for that row.
    const joined = await run(
      inst,
      "SELECT m.rental_price, m.rental_price_min, m.rental_price_max FROM (SELECT 823 AS sqft, 'good' AS location) AS t JOIN mindsdb.home_rentals_model AS m",
    );
    expect(joined.data).toEqual([[row.rental_price, row.rental_price_min, row.rental_price_max]]);
    // Read twice in one statement (a self-join and a subquery), each reference its own row.
    const twice = await run(
      inst,
      "SELECT a.rental_price AS a, b.rental_price AS b, (SELECT rental_price FROM mindsdb.home_rentals_model WHERE sqft = 823 AND location = 'good') AS c FROM (SELECT * FROM mindsdb.home_rentals_model WHERE sqft = 823 AND location = 'good') AS a, (SELECT * FROM mindsdb.home_rentals_model WHERE sqft = 1500 AND location = 'great') AS b",
    );
    expect(twice.data[0][0]).toBe(row.rental_price);
    expect(twice.data[0][2]).toBe(row.rental_price);
    expect(twice.data[0][1]).not.toBe(row.rental_price);
  });

  it('a view over a single prediction and a table saved from one answer its values', async () => {
    const where = "WHERE sqft = 823 AND location = 'good'";
    const [[price]] = (
      await run(inst, `SELECT rental_price FROM mindsdb.home_rentals_model ${where}`)
    ).data;
    // The view is planned on its own (its own context) and read by the outer query.
    await run(
      inst,
      `CREATE VIEW mindsdb.one_prediction AS (SELECT rental_price, sqft FROM mindsdb.home_rentals_model ${where})`,
    );
    expect((await run(inst, 'SELECT * FROM mindsdb.one_prediction')).data).toEqual([[price, 823]]);
    await run(
      inst,
      `CREATE TABLE files.one_prediction AS SELECT * FROM mindsdb.home_rentals_model ${where}`,
    );
    const saved = await run(
      inst,
      'SELECT rental_price, sqft, location, __service_row_id FROM files.one_prediction',
    );
    expect(saved.data).toEqual([[price, 823, 'good', 0]]);
  });

  it('resolves bare names in the current project, versions and backtick-quoted versions alike', async () => {
    const q = (from: string, db?: string) =>
      run(
        inst,
        `SELECT rental_price FROM ${from} WHERE sqft = 900 AND location = 'great' AND initial_price = 3000`,
        db,
      );
    const expected = (await q('mindsdb.home_rentals_model')).data;
    expect((await q('home_rentals_model', 'mindsdb')).data).toEqual(expected);
    expect((await q('mindsdb.home_rentals_model.1')).data).toEqual(expected);
    expect((await q('`mindsdb`.`home_rentals_model`.`1`')).data).toEqual(expected);
    expect((await q('home_rentals_model.1', 'mindsdb')).data).toEqual(expected);
  });

  it('takes the truth in WHERE as _original and flags an anomaly far outside the interval', async () => {
    const [row] = objects(
      await run(
        inst,
        'SELECT rental_price, rental_price_original, rental_price_anomaly FROM mindsdb.home_rentals_model WHERE sqft = 900 AND initial_price = 3000 AND rental_price = 99999',
      ),
    );
    expect(row.rental_price_original).toBe(99999);
    expect(row.rental_price_anomaly).toBe(true);
  });

  it('runs the tutorial batch JOIN with LIMIT 100 and predicts close to the truth', async () => {
    const t = await run(
      inst,
      'SELECT t.rental_price AS real, m.rental_price AS predicted FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.home_rentals_model AS m LIMIT 100;',
    );
    expect(t.column_names).toEqual(['real', 'predicted']);
    expect(t.data).toHaveLength(100);
    expect(
      r2(
        t.data.map((r) => r[0]),
        t.data.map((r) => r[1]),
      ),
    ).toBeGreaterThan(0.99);
  });

  it('answers the JS SDK join shape (alias, t.*, m.*) with table columns then prediction columns', async () => {
    const t = await run(
      inst,
      'SELECT m.rental_price AS predicted, t.*, m.* FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.home_rentals_model AS m LIMIT 5',
    );
    expect(t.column_names).toEqual([
      'predicted',
      'number_of_rooms',
      'number_of_bathrooms',
      'sqft',
      'location',
      'days_on_market',
      'initial_price',
      'neighborhood',
      'rental_price',
      'rental_price',
      'rental_price_confidence',
      'rental_price_min',
      'rental_price_max',
      'rental_price_anomaly',
      'rental_price_original',
      'rental_price_explain',
    ]);
    for (const row of t.data) {
      expect(row[0]).toBe(row[9]);
      expect(row[14]).toBe(row[8]); // _original is the table's truth
      expect(typeof row[13]).toBe('boolean');
    }
  });

  it('filters on the table, sorts and filters by predictions, with backticks and version in the JOIN', async () => {
    const sorted = await run(
      inst,
      "SELECT t.location, m.rental_price FROM `example_db`.`demo_data`.`home_rentals` AS `t` JOIN `mindsdb`.`home_rentals_model`.`1` AS `m` WHERE t.location = 'good' ORDER BY m.rental_price DESC LIMIT 3",
    );
    expect(sorted.data).toHaveLength(3);
    expect(sorted.data.every((r) => r[0] === 'good')).toBe(true);
    const prices = sorted.data.map((r) => r[1]);
    expect([...prices].sort((a, b) => b - a)).toEqual(prices);
    const byPrediction = await run(
      inst,
      'SELECT m.rental_price FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.home_rentals_model AS m WHERE m.rental_price > 5000',
    );
    expect(byPrediction.data.length).toBeGreaterThan(0);
    expect(byPrediction.data.every((r) => r[0] > 5000)).toBe(true);
  });

  it('takes a sub-select as the data side and aggregates over all predicted rows', async () => {
    const sub = await run(
      inst,
      'SELECT t.sqft, m.rental_price FROM (SELECT sqft, location, initial_price FROM example_db.demo_data.home_rentals LIMIT 10) AS t JOIN mindsdb.home_rentals_model AS m',
    );
    expect(sub.data).toHaveLength(10);
    const agg = await run(
      inst,
      'SELECT count(*) AS n, avg(m.rental_price) > 0 AS positive FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.home_rentals_model AS m LIMIT 1',
    );
    expect(agg.data).toEqual([[5037, true]]);
  });

  it('predicts through the registry API with values cast to the training types', async () => {
    const rows = await inst.models.predict({ project: 'mindsdb', name: 'home_rentals_model' }, [
      { sqft: '823', location: 'good', initial_price: '3000' },
      { sqft: 900 },
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      sqft: 823,
      initial_price: 3000,
      __service_row_id: 0,
      when_data: null,
    });
    expect(rows[1]).toMatchObject({ sqft: 900, location: null, __service_row_id: 1 });
    expect(typeof rows[1].rental_price).toBe('number');
  });
});

describe('DESCRIBE, SHOW', () => {
  it('DESCRIBE a model gives accuracies, importances, inputs, outputs, the pipeline summary, and metrics and warnings in words', async () => {
    const t = await run(inst, 'DESCRIBE mindsdb.home_rentals_model');
    expect(t.column_names).toEqual([
      'accuracies',
      'column_importances',
      'inputs',
      'outputs',
      'model',
      'metrics',
      'warnings',
      'training_data',
    ]);
    const [row] = objects(t);
    // Trained on every row: no sample to state.
    expect(row.training_data).toBeNull();
    expect(row.accuracies.r2_score).toBeGreaterThan(0.99);
    expect(Object.keys(row.column_importances)).toEqual(row.inputs);
    expect(row.outputs).toEqual(['rental_price']);
    expect(row.model).toContain(' --> ');
    expect(row.metrics).toMatch(
      /^R² 0\.99\d+ on [\d,]+ validation rows; always predicting the average rental_price \([\d,]+\) scores -?0\.00\. /,
    );
    expect(row.metrics).toContain('Typical error: ');
    // Trained with initial_price, which carries nearly all the importance: a likely leak.
    expect(row.warnings).toMatch(
      /^dominant_input \(initial_price\): 'initial_price' carries 9\d(\.\d)?% of the importance/,
    );
    const info = await run(inst, 'DESCRIBE MODEL mindsdb.home_rentals_model.info');
    expect(info.column_names).toEqual([
      'accuracies',
      'column_importances',
      'inputs',
      'outputs',
      'metrics',
      'warnings',
      'training_data',
    ]);
  });

  it('DESCRIBE .features, .1.model and .progress give one row per column, candidate and the phase', async () => {
    const features = objects(await run(inst, 'DESCRIBE home_rentals_model.features', 'mindsdb'));
    expect(features.find((f) => f.column === 'rental_price')).toMatchObject({ role: 'target' });
    expect(Object.keys(features[0])).toEqual(['column', 'type', 'encoder', 'role']);
    const candidates = objects(await run(inst, 'DESCRIBE mindsdb.home_rentals_model.1.model'));
    expect(candidates.filter((c) => c.selected)).toHaveLength(1);
    expect(Object.keys(candidates[0])).toEqual([
      'name',
      'performance',
      'training_time',
      'selected',
      'accuracy_functions',
    ]);
    const [progress] = objects(
      await run(inst, 'DESCRIBE PREDICTOR mindsdb.home_rentals_model.progress'),
    );
    expect(progress.current).toBe(progress.total);
    expect(progress.name).toBe('complete');
  });

  it('DESCRIBE with an unknown attribute lists the allowed ones; DESCRIBE of a table is DuckDB', async () => {
    const bad = await fails(inst, 'DESCRIBE mindsdb.home_rentals_model.bogus');
    expect(bad.code).toBe(ERROR_CODES.BAD_INPUT);
    expect(bad.message).toContain('info, features, model, progress');
    const table = await run(inst, 'DESCRIBE example_db.demo_data.home_rentals');
    expect(table.column_names[0]).toBe('column_name');
    expect(table.data.map((r) => r[0])).toContain('sqft');
    const missing = await fails(inst, 'DESCRIBE MODEL mindsdb.nope');
    expect(missing.code).toBe(ERROR_CODES.NOT_FOUND);
  });

  it('SHOW MODELS / SHOW PREDICTORS with LIKE and WHERE; SHOW TABLES lists models', async () => {
    const all = await run(inst, 'SHOW MODELS');
    expect(all.column_names).toEqual(MODEL_COLUMNS.map((c) => c.name));
    expect(objects(all).map((r) => r.NAME)).toContain('home_rentals_model');
    expect((await run(inst, "SHOW PREDICTORS LIKE 'home%'")).data).toHaveLength(1);
    expect((await run(inst, "SHOW MODELS FROM mindsdb WHERE status = 'nope'")).data).toHaveLength(
      0,
    );
    expect((await run(inst, 'SHOW TABLES FROM mindsdb')).data).toContainEqual([
      'home_rentals_model',
    ]);
  });
});

describe('bad inputs', () => {
  it('PREDICT of a column not in the data fails the statement, naming the columns', async () => {
    const e = await fails(inst, 'CREATE MODEL m_bad FROM files (SELECT * FROM small) PREDICT nope');
    expect(e.code).toBe(ERROR_CODES.BAD_INPUT);
    expect(e.message).toBe(
      "Column 'nope' named in PREDICT is not in the result of the FROM query; its columns are: x, y, c",
    );
  });

  it('a FROM query that fails fails the statement with the database error', async () => {
    const e = await fails(
      inst,
      'CREATE MODEL m_bad FROM files (SELECT * FROM no_such_table) PREDICT y',
    );
    expect(e.code).toBe(ERROR_CODES.NOT_FOUND);
    expect(e.message).toMatch(
      /^The FROM query failed: Catalog Error: Table with name no_such_table does not exist/,
    );
    expect((await fails(inst, 'CREATE MODEL m_bad FROM nodb (SELECT 1 AS y) PREDICT y')).code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
    expect(
      (await run(inst, "SELECT * FROM mindsdb.models WHERE name = 'm_bad'")).data,
    ).toHaveLength(0);
  });

  it('unknown USING options and other engines fail the statement', async () => {
    const e = await fails(
      inst,
      'CREATE MODEL m_bad FROM files (SELECT * FROM small) PREDICT y USING max_depht = 3',
    );
    expect(e.code).toBe(ERROR_CODES.BAD_INPUT);
    expect(e.message).toContain("Unknown USING option 'max_depht'");
    const other = await fails(
      inst,
      "CREATE MODEL m_bad FROM files (SELECT * FROM small) PREDICT y USING engine = 'openai'",
    );
    expect(other.message).toContain("ML engine 'openai' is not supported by this instance");
  });

  it('data the engine cannot learn from ends in status error with the reason in ERROR', async () => {
    const cases: [string, string, string | RegExp][] = [
      [
        'm_empty',
        'SELECT * FROM small WHERE x < 0',
        'The FROM query returned no rows; there is nothing to train on',
      ],
      [
        'm_nulls',
        'SELECT x, CAST(NULL AS DOUBLE) AS y FROM small',
        "Column 'y' named in PREDICT is NULL in every row of the FROM query",
      ],
      [
        'm_one_class',
        "SELECT x, 'same' AS y FROM small",
        "target column 'y' has only one class ('same'); a classifier needs at least 2",
      ],
      [
        'm_one_row',
        'SELECT * FROM small LIMIT 1',
        'The FROM query returned 1 row; a model needs many rows to learn from',
      ],
      [
        'm_few_rows',
        'SELECT * FROM small LIMIT 3',
        /^training needs at least \d+ rows with a value in 'y', got 3$/,
      ],
      ['m_bad_value', 'SELECT * FROM small', /^USING learning_rate must be in \(0, 1\]/],
    ];
    for (const [name, select] of cases) {
      const using = name === 'm_bad_value' ? ' USING learning_rate = 7' : '';
      await run(inst, `CREATE MODEL ${name} FROM files (${select}) PREDICT y${using}`);
    }
    for (const [name, , reason] of cases) {
      const { status, error } = await waitForModel(inst, name);
      expect(status, name).toBe('error');
      if (typeof reason === 'string') expect(error, name).toBe(reason);
      else expect(error, name).toMatch(reason);
    }
  });

  it('a model in error is never used: the prediction error says its status and reason', async () => {
    const e = await fails(inst, 'SELECT y FROM mindsdb.m_empty WHERE x = 1');
    expect(e.code).toBe(ERROR_CODES.MODEL_NOT_READY);
    expect(e.message).toBe(
      "Model 'mindsdb.m_empty' (version 1) cannot be used: its status is error: The FROM query returned no rows; there is nothing to train on",
    );
    const join = await fails(inst, 'SELECT m.y FROM files.small AS t JOIN mindsdb.m_empty AS m');
    expect(join.code).toBe(ERROR_CODES.MODEL_NOT_READY);
    expect((await fails(inst, 'DESCRIBE mindsdb.m_empty')).code).toBe(ERROR_CODES.MODEL_NOT_READY);
  });

  it('a duplicate name is a conflict; IF NOT EXISTS answers the existing row; OR REPLACE starts over', async () => {
    const dup = await fails(
      inst,
      'CREATE MODEL mindsdb.m_empty FROM files (SELECT * FROM small) PREDICT y',
    );
    expect(dup.code).toBe(ERROR_CODES.CONFLICT);
    expect(dup.message).toContain("Model 'mindsdb.m_empty' already exists");
    const same = objects(
      await run(
        inst,
        'CREATE MODEL IF NOT EXISTS mindsdb.m_empty FROM files (SELECT * FROM small) PREDICT y',
      ),
    );
    expect(same[0]).toMatchObject({ NAME: 'm_empty', STATUS: 'error' });
    const replaced = objects(
      await run(
        inst,
        'CREATE OR REPLACE MODEL mindsdb.m_empty FROM files (SELECT * FROM small) PREDICT y',
      ),
    );
    expect(replaced[0]).toMatchObject({ VERSION: 1, STATUS: 'generating', ERROR: null });
    expect(await waitForModel(inst, 'm_empty')).toEqual({ status: 'complete', error: null });
  });

  it('prediction rows with unknown columns or uncastable values are rejected, missing columns are null', async () => {
    const unknown = await fails(
      inst,
      "SELECT rental_price FROM mindsdb.home_rentals_model WHERE sqfeet = 823 AND location = 'good'",
    );
    expect(unknown.code).toBe(ERROR_CODES.BAD_INPUT);
    expect(unknown.message).toContain("has no input column 'sqfeet'");
    const wrong = await fails(
      inst,
      "SELECT rental_price FROM mindsdb.home_rentals_model WHERE sqft = 'big'",
    );
    expect(wrong.code).toBe(ERROR_CODES.BAD_INPUT);
    expect(wrong.message).toBe(
      'Cannot use "big" for column \'sqft\' in row 1: the model was trained on integer values',
    );
    await expect(
      inst.models.predict({ project: 'mindsdb', name: 'home_rentals_model' }, [
        { sqft: 1 },
        { sqft: 'x' },
      ]),
    ).rejects.toThrow('Cannot use "x" for column \'sqft\' in row 2');
    const [row] = objects(await run(inst, 'SELECT * FROM mindsdb.home_rentals_model'));
    expect(row.sqft).toBeNull();
    expect(typeof row.rental_price).toBe('number');
    const notEq = await fails(
      inst,
      'SELECT rental_price FROM mindsdb.home_rentals_model WHERE sqft > 3',
    );
    expect(notEq.message).toContain('equalities joined by AND');
  });

  it('a categorical column with 100k distinct values trains and predicts unseen values', async () => {
    await run(
      inst,
      `CREATE TABLE files.wide AS SELECT 'code_' || i AS code, i % 10 AS x, (i % 10) * 3.0 + 1 AS y FROM range(100000) t(i)`,
    );
    await run(
      inst,
      'CREATE MODEL m_wide FROM files (SELECT * FROM wide) PREDICT y USING max_iterations = 30',
    );
    expect(await waitForModel(inst, 'm_wide')).toEqual({ status: 'complete', error: null });
    const [row] = objects(
      await run(inst, "SELECT y FROM mindsdb.m_wide WHERE code = 'never_seen' AND x = 4"),
    );
    expect(row.y).toBeCloseTo(13, 0);
  });
});

describe('versions, training state, dropping', () => {
  it('RETRAIN makes version 2; v1 serves meanwhile; a second RETRAIN is a conflict; v2 becomes active', async () => {
    const [v2] = objects(await run(inst, 'RETRAIN mindsdb.home_rentals_model'));
    expect(v2).toMatchObject({
      VERSION: 2,
      ACTIVE: false,
      STATUS: 'generating',
      PREDICT: 'rental_price',
    });
    const again = await fails(inst, 'RETRAIN mindsdb.home_rentals_model');
    expect(again.code).toBe(ERROR_CODES.CONFLICT);
    expect(again.message).toContain('is already training');
    const during = await run(
      inst,
      "SELECT rental_price FROM mindsdb.home_rentals_model WHERE sqft = 823 AND location = 'good'",
    );
    expect(typeof during.data[0][0]).toBe('number');
    const v2NotReady = await inst.sql.execute({
      query: 'SELECT rental_price FROM mindsdb.home_rentals_model.2 WHERE sqft = 1',
    });
    if (v2NotReady.type === 'error')
      expect(v2NotReady.error_code).toBe(ERROR_CODES.MODEL_NOT_READY);
    expect(await waitForModel(inst, 'home_rentals_model', { version: 2 })).toEqual({
      status: 'complete',
      error: null,
    });
    const versions = await run(
      inst,
      "SELECT version, active FROM mindsdb.models_versions WHERE name = 'home_rentals_model' ORDER BY version",
    );
    expect(versions.data).toEqual([
      [1, false],
      [2, true],
    ]);
  });

  it('switches the active version with UPDATE models_versions and refuses to drop the active version alone', async () => {
    await run(
      inst,
      "UPDATE mindsdb.models_versions SET active = 1 WHERE name = 'home_rentals_model' AND version = 1",
    );
    const active = await run(
      inst,
      "SELECT version FROM mindsdb.models WHERE name = 'home_rentals_model' AND active = 1",
    );
    expect(active.data).toEqual([[1]]);
    const e = await fails(inst, 'DROP MODEL mindsdb.home_rentals_model.1');
    expect(e.code).toBe(ERROR_CODES.BAD_INPUT);
    expect(e.message).toContain('is the active version');
    await run(
      inst,
      "UPDATE models_versions SET active = true WHERE name = 'home_rentals_model' AND version = 2",
      'mindsdb',
    );
    await run(inst, 'DROP MODEL mindsdb.home_rentals_model.1');
    const left = await run(
      inst,
      "SELECT version, active FROM mindsdb.models_versions WHERE name = 'home_rentals_model'",
    );
    expect(left.data).toEqual([[2, true]]);
    expect((await fails(inst, 'SELECT rental_price FROM mindsdb.home_rentals_model.1')).code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
  });

  it('FINETUNE continues from the active version on new rows as version 3', async () => {
    const [v3] = objects(
      await run(
        inst,
        'FINETUNE mindsdb.home_rentals_model FROM example_db (SELECT * FROM demo_data.home_rentals LIMIT 500)',
      ),
    );
    expect(v3).toMatchObject({ VERSION: 3, STATUS: 'generating' });
    expect(JSON.parse(v3.TRAINING_OPTIONS).finetuned_from_version).toBe(2);
    expect(await waitForModel(inst, 'home_rentals_model', { version: 3 })).toEqual({
      status: 'complete',
      error: null,
    });
    const [active] = objects(
      await run(
        inst,
        "SELECT version, accuracy FROM mindsdb.models WHERE name = 'home_rentals_model' AND active = 1",
      ),
    );
    expect(active.VERSION).toBe(3);
    expect(active.ACCURACY).toBeGreaterThan(0.9);
  });

  it('DROP while training cancels the training and removes the model and its files', async () => {
    await run(inst, 'CREATE MODEL m_dropped FROM files (SELECT * FROM wide) PREDICT y');
    await run(inst, 'DROP MODEL m_dropped');
    expect(
      (await run(inst, "SELECT * FROM mindsdb.models WHERE name = 'm_dropped'")).data,
    ).toHaveLength(0);
    await inst.models.idle();
    expect(
      (await run(inst, "SELECT * FROM mindsdb.models WHERE name = 'm_dropped'")).data,
    ).toHaveLength(0);
    expect(fs.existsSync(path.join(inst.config.DATA_DIR, 'models', 'mindsdb', 'm_dropped'))).toBe(
      false,
    );
    expect((await fails(inst, 'DROP MODEL m_dropped')).code).toBe(ERROR_CODES.NOT_FOUND);
    expect((await run(inst, 'DROP MODEL IF EXISTS m_dropped')).type).toBe('ok');
  });

  it('DROP PROJECT refuses while the project holds a model, trained or training, and drops it once the models are gone', async () => {
    await run(inst, 'CREATE PROJECT proj2');
    await run(inst, 'CREATE MODEL proj2.m FROM files (SELECT * FROM small) PREDICT y');
    const busy = await fails(inst, 'DROP PROJECT proj2');
    expect(busy.code).toBe(ERROR_CODES.CONFLICT);
    expect(busy.message).toContain("model 'proj2.m'");
    expect(await waitForModel(inst, 'm', { project: 'proj2' })).toEqual({
      status: 'complete',
      error: null,
    });
    const viaUse = await run(inst, 'SELECT y FROM m WHERE x = 10', 'proj2');
    expect(viaUse.data[0][0]).toBeCloseTo(21, -1);
    // Like MindsDB: a project that holds a model is not dropped (the model was trained in it).
    expect((await fails(inst, 'DROP PROJECT proj2')).message).toContain("model 'proj2.m'");
    await run(inst, 'DROP MODEL proj2.m');
    await run(inst, 'DROP PROJECT proj2');
    expect(
      (await run(inst, "SELECT * FROM information_schema.models WHERE project = 'proj2'")).data,
    ).toHaveLength(0);
    expect(fs.existsSync(path.join(inst.config.DATA_DIR, 'models', 'proj2'))).toBe(false);
  });

  it('DROP MODEL removes every version', async () => {
    await run(inst, 'DROP MODEL mindsdb.home_rentals_model');
    expect(
      (await run(inst, "SELECT * FROM mindsdb.models_versions WHERE name = 'home_rentals_model'"))
        .data,
    ).toHaveLength(0);
    const e = await fails(
      inst,
      'SELECT rental_price FROM mindsdb.home_rentals_model WHERE sqft = 1',
    );
    expect(e.code).toBe(ERROR_CODES.NOT_FOUND);
  });
});
