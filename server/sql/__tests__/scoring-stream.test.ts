/**
 * Scoring big tables in batches (issue 28): CREATE TABLE / INSERT INTO ... (SELECT ... FROM data
 * JOIN model) read the data chunk by chunk (a PostgreSQL cursor, DuckDB rowid ranges), predict
 * and write each chunk, in one transaction on the target. With a batch of 40 rows on a table of
 * 230 (six batches), the saved rows must be the rows, values and order of the ordinary unbatched
 * query; progress counts must rise to the total; Cancel must leave the target as it was.
 * Real DuckDB, a real PostgreSQL server, the real HTTP endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgServer, type PgTestServer } from '../../integrations/__tests__/pg-server';
import type { ScoringProgress } from '../plan/progress';
import { startHarness, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';

let h: Harness;
let pgs: PgTestServer;

const ROWS = 230;
const BATCH = 40;
/** The streamed answers' row cap, under the table's size. */
const STREAM_CAP = 150;

async function sql(query: string) {
  const r = await h.sql(query);
  if (r.type === 'error') throw new Error(`${r.error_message}\n  in: ${query}`);
  return r as { column_names: string[]; data: unknown[][]; affected_rows?: number };
}

/** Runs `fn` and returns the progress reports of scoring statements while it ran. */
async function reports(fn: () => Promise<unknown>) {
  const seen: { p: ScoringProgress; ended: boolean }[] = [];
  const off = h.instance.sql.scoring.subscribe((p, ended) => seen.push({ p, ended }));
  try {
    await fn();
  } finally {
    off();
  }
  return seen;
}

/** Counts only go up, the last report is the end, and it is at the total. */
function expectMonotone(seen: { p: ScoringProgress; ended: boolean }[], total: number) {
  const done = seen.map((s) => s.p.rows_done);
  expect(done).toEqual([...done].sort((a, b) => a - b));
  const last = seen[seen.length - 1];
  expect(last.ended).toBe(true);
  expect(last.p.rows_done).toBe(total);
  expect(last.p.rows_total).toBe(total);
  // Several batches, each reported.
  expect(new Set(done).size).toBeGreaterThanOrEqual(Math.ceil(total / BATCH));
}

const SELECT = (src: string) =>
  `SELECT t.id, t.location, m.rental_price AS predicted, m.rental_price_explain FROM ${src} AS t JOIN mindsdb.small AS m`;

beforeAll(async () => {
  pgs = await startPgServer();
  h = await startHarness({
    ...trainingCache(),
    SCORING_BATCH_ROWS: BATCH,
    MAX_STREAM_ROWS: STREAM_CAP,
  });
  // Rows whose order follows no column (a hash of the row), numbered so the order can be checked.
  await sql(
    `CREATE TABLE files.src AS SELECT hash(sqft, number_of_rooms, location, days_on_market) % 1000003 AS id, sqft, location, number_of_rooms, rental_price FROM example_db.demo_data.home_rentals ORDER BY hash(sqft * 7, location, days_on_market) LIMIT ${ROWS}`,
  );
  await sql(
    'CREATE MODEL mindsdb.small FROM files (SELECT sqft, location, number_of_rooms, rental_price FROM src) PREDICT rental_price',
  );
  await h.instance.models.idle();
  await sql(pgs.createDatabase('pg'));
  await sql('CREATE TABLE pg.src (SELECT * FROM files.src)');
});

afterAll(async () => {
  await h?.close();
  await pgs?.stop();
});

/** Runs statements on the test server as its superuser (tables the tests then read as the user). */
async function asAdmin(...statements: string[]) {
  const admin = await pgs.admin();
  try {
    for (const s of statements) await admin.query(s);
  } finally {
    await admin.end();
  }
}

/** POST /api/sql/query with a streamed format: its documents (jsonlines) or events (sse). */
async function streamed(query: string, format: 'jsonlines' | 'sse') {
  const res = await fetch(`${h.url}/api/sql/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: h.url },
    body: JSON.stringify({ query, response_format: format }),
  });
  const text = await res.text();
  const docs =
    format === 'jsonlines'
      ? text
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as unknown)
      : text
          .split('\n\n')
          .filter((e) => e.startsWith('data: '))
          .map((e) => JSON.parse(e.slice(6)) as unknown);
  const end = /^: (.*)$/m.exec(text);
  const [header, ...rows] = docs as [{ type: string; column_names: string[] }, ...unknown[][][]];
  return { header, rows: rows.flat(), end: end ? (JSON.parse(end[1]) as unknown) : null };
}

describe('scoring in batches', () => {
  it("jsonlines and sse answers of SELECT ... JOIN model stream batch by batch: the JSON answer's rows in its order, cut at the row cap", async () => {
    for (const src of ['files.src', 'pg.src']) {
      const expected = await sql(SELECT(src));
      const some = `${SELECT(src)} WHERE t.location = 'good'`;
      const few = await sql(some);
      expect(few.data.length).toBeGreaterThan(BATCH);
      expect(few.data.length).toBeLessThan(STREAM_CAP);
      let got: Awaited<ReturnType<typeof streamed>>;
      const seen = await reports(async () => {
        got = await streamed(some, 'jsonlines');
      });
      expect(got!.header).toMatchObject({ type: 'table', column_names: expected.column_names });
      expect(got!.rows).toEqual(few.data);
      // Source rows read: PostgreSQL filters them (the condition is pushed down), DuckDB's are all read.
      expectMonotone(seen, src === 'pg.src' ? few.data.length : ROWS);
      const cut = await streamed(SELECT(src), 'sse');
      expect(cut.rows).toEqual(expected.data.slice(0, STREAM_CAP));
      expect(cut.end).toEqual({ type: 'end', row_count: STREAM_CAP, truncated: true });
    }
  });

  it('CREATE TABLE files.t from a DuckDB table: the rows, values and order of the unbatched query, progress to the total', async () => {
    const expected = await sql(SELECT('files.src'));
    expect(expected.data).toHaveLength(ROWS);
    let r: Awaited<ReturnType<typeof h.sql>>;
    const seen = await reports(async () => {
      r = await h.sql(`CREATE TABLE files.scored (${SELECT('files.src')})`);
    });
    expect(r).toMatchObject({ type: 'ok', affected_rows: ROWS, catalog_changed: true });
    expectMonotone(seen, ROWS);
    const saved = await sql('SELECT * FROM files.scored');
    expect(saved.column_names).toEqual(['id', 'location', 'predicted', 'rental_price_explain']);
    expect(saved.data).toEqual(expected.data);
  });

  it('CREATE TABLE pg.t and INSERT INTO pg.t from a PostgreSQL table: same rows in the same order, then appended', async () => {
    const expected = await sql(SELECT('pg.src'));
    expect(expected.data).toHaveLength(ROWS);
    const seen = await reports(() => sql(`CREATE TABLE pg.scored (${SELECT('pg.src')})`));
    expectMonotone(seen, ROWS);
    const saved = await sql('SELECT * FROM pg (SELECT * FROM scored)');
    // JSON of the explanation comes back from PostgreSQL's jsonb as an object.
    const norm = (rows: unknown[][]) =>
      rows.map((row) =>
        row.map((v) => (typeof v === 'string' && v.startsWith('{') ? JSON.parse(v) : v)),
      );
    expect(norm(saved.data)).toEqual(norm(expected.data));
    const ins = await sql(`INSERT INTO pg.scored (${SELECT('pg.src')} WHERE t.location = 'good')`);
    const good = expected.data.filter((row) => row[1] === 'good');
    expect(ins.affected_rows).toBe(good.length);
    const after = await sql('SELECT * FROM pg (SELECT * FROM scored)');
    expect(norm(after.data)).toEqual(norm([...expected.data, ...good]));
  });

  it('a PostgreSQL target gets each batch as one COPY FROM STDIN (no INSERT), with text values as the unbatched answer has them', async () => {
    // Values COPY's text format must escape: tabs, newlines, backslashes, the text `\N`, and an
    // empty string beside a NULL.
    await asAdmin(
      `CREATE TABLE odd AS SELECT id, sqft, location, number_of_rooms, (ARRAY[E'a\\tb', E'line\\nnext\\r', E'back\\\\slash', '\\N', '', NULL, 'plain ü', E'\\\\.'])[1 + (abs(id) % 8)::int] AS note FROM src`,
      `GRANT SELECT ON odd TO ${pgs.user}`,
    );
    const query = `SELECT t.id, t.note, m.rental_price AS predicted FROM pg.odd AS t JOIN mindsdb.small AS m`;
    const expected = await sql(query);
    const notes = new Set(expected.data.map((row) => row[1]));
    for (const v of ['a\tb', 'line\nnext\r', 'back\\slash', '\\N', '', null, '\\.'])
      expect(notes).toContain(v);
    const from = pgs.log().length;
    await sql(`CREATE TABLE pg.odd_scored (${query})`);
    const log = pgs.log().slice(from);
    expect(
      log.match(/COPY "?odd_scored"? \("?id"?, "?note"?, "?predicted"?\) FROM STDIN/g),
    ).toHaveLength(Math.ceil(ROWS / BATCH));
    expect(log).not.toMatch(/INSERT INTO "?odd_scored"?/);
    const saved = await sql('SELECT * FROM pg (SELECT * FROM odd_scored)');
    expect(saved.data).toEqual(expected.data);
  });

  it("a value its PostgreSQL column cannot hold fails the statement with PostgreSQL's message and writes nothing (never cut to fit)", async () => {
    await asAdmin(
      'CREATE TABLE narrow (id bigint, location varchar(3), predicted float8)',
      `GRANT ALL ON narrow TO ${pgs.user}`,
    );
    const r = await h.sql(
      'INSERT INTO pg.narrow (SELECT t.id, t.location, m.rental_price AS predicted FROM pg.src AS t JOIN mindsdb.small AS m)',
    );
    expect(r).toMatchObject({ type: 'error' });
    expect((r as { error_message: string }).error_message).toMatch(
      /value too long for type character varying\(3\)/,
    );
    expect((await sql('SELECT * FROM pg (SELECT count(*) FROM narrow)')).data).toEqual([[0]]);
  });

  it('a PostgreSQL target whose columns take the answer as it is gets binary COPY: the unbatched answer, repeated input rows included', async () => {
    // Each source row twice (every input row repeated: predicted by position, not matched back
    // on the inputs), with integers, a double with NaN and infinities, booleans and text.
    await asAdmin(
      `CREATE TABLE typed AS SELECT (id % 100000)::int * 2 + k AS id, (number_of_rooms * 10 - k)::smallint AS small, id::bigint * 1000000000 AS big, (ARRAY[sqft / 7.0, 'NaN', 'Infinity', '-Infinity', NULL])[1 + (abs(id) % 5)::int]::float8 AS x, CASE WHEN id % 3 = 0 THEN NULL ELSE id % 2 = 0 END AS flag, (ARRAY[E'a\\tb', E'line\\nnext', 'ünï ✓', '', NULL, location])[1 + (abs(id) % 6)::int] AS note, sqft, location, number_of_rooms FROM src, generate_series(0, 1) AS k ORDER BY md5(id::text), k`,
      `GRANT SELECT ON typed TO ${pgs.user}`,
    );
    const query = `SELECT t.id, t.small, t.big, t.x, t.flag, t.note, t.location, m.rental_price AS predicted FROM pg.typed AS t JOIN mindsdb.small AS m`;
    const expected = await sql(query);
    expect(expected.data).toHaveLength(2 * ROWS);
    const xs = expected.data.map((r) => r[3]);
    expect(xs.filter((v) => v === null).length).toBeGreaterThan(ROWS / 2);
    expect(xs.filter((v) => typeof v === 'number').length).toBeGreaterThan(ROWS / 4);
    const from = pgs.log().length;
    await sql(`CREATE TABLE pg.typed_scored (${query})`);
    const log = pgs.log().slice(from);
    expect(
      log.match(
        /COPY "typed_scored" \("id", "small", "big", "x", "flag", "note", "location", "predicted"\) FROM STDIN \(FORMAT binary\)/g,
      ),
    ).toHaveLength(Math.ceil((2 * ROWS) / BATCH));
    const saved = await sql('SELECT * FROM pg (SELECT * FROM typed_scored)');
    expect(saved.data).toEqual(expected.data);
    // Into an existing table whose columns are wider (integer into bigint) or bounded
    // (varchar(3)): PostgreSQL's own error for a value too long, nothing written.
    await asAdmin(
      'CREATE TABLE narrow2 (id bigint, location varchar(3), predicted float8)',
      `GRANT ALL ON narrow2 TO ${pgs.user}`,
    );
    const at = pgs.log().length;
    const r = await h.sql(
      'INSERT INTO pg.narrow2 (SELECT t.id, t.location, m.rental_price AS predicted FROM pg.typed AS t JOIN mindsdb.small AS m)',
    );
    expect(pgs.log().slice(at)).toMatch(
      /COPY "narrow2" \("id", "location", "predicted"\) FROM STDIN \(FORMAT binary\)/,
    );
    expect((r as { error_message: string }).error_message).toMatch(
      /value too long for type character varying\(3\)/,
    );
    expect((await sql('SELECT * FROM pg (SELECT count(*) FROM narrow2)')).data).toEqual([[0]]);
    const fits = await sql(
      `INSERT INTO pg.narrow2 (SELECT t.id, substr(t.location, 1, 3) AS location, m.rental_price AS predicted FROM pg.typed AS t JOIN mindsdb.small AS m)`,
    );
    expect(fits.affected_rows).toBe(2 * ROWS);
    expect((await sql('SELECT * FROM pg (SELECT * FROM narrow2)')).data).toEqual(
      expected.data.map((row) => [row[0], String(row[6]).slice(0, 3), row[7]]),
    );
    // A model JOIN reads from PostgreSQL the columns the query names and the model's inputs,
    // not every column of the table; `t.*` still reads them all.
    const fetched = (since: number) =>
      [
        ...pgs
          .log()
          .slice(since)
          .matchAll(/COPY \(SELECT (.*?) FROM "?typed"?/g),
      ].map((m) => m[1]);
    const before = pgs.log().length;
    const few = await sql(
      'SELECT t.id, m.rental_price AS p FROM pg.typed AS t JOIN mindsdb.small AS m WHERE t.flag',
    );
    expect(fetched(before)).toEqual(['"id", "flag", "sqft", "location", "number_of_rooms"']);
    expect(few.data).toEqual(
      expected.data.filter((row) => row[4] === true).map((row) => [row[0], row[7]]),
    );
    const star = pgs.log().length;
    await sql('SELECT t.*, m.rental_price FROM pg.typed AS t JOIN mindsdb.small AS m LIMIT 1');
    expect(fetched(star)[0]).toMatch(/"note"/);
  });

  it('a LEFT JOIN with a filter and an expression over the predictions, and the model written first, save the unbatched answer', async () => {
    const queries = [
      `SELECT t.id, m.rental_price * 2 + t.sqft AS v FROM files.src AS t LEFT JOIN mindsdb.small AS m WHERE t.number_of_rooms > 1 AND m.rental_price > 2000`,
      `SELECT t.id, m.rental_price AS p FROM mindsdb.small AS m JOIN pg.src AS t WHERE t.location <> 'good'`,
    ];
    for (const [i, query] of queries.entries()) {
      const expected = await sql(query);
      expect(expected.data.length).toBeGreaterThan(BATCH);
      expect(expected.data.length).toBeLessThan(ROWS);
      const seen = await reports(() => sql(`CREATE TABLE files.shaped_${i} (${query})`));
      expect(seen.length).toBeGreaterThan(0);
      expect((await sql(`SELECT * FROM files.shaped_${i}`)).data).toEqual(expected.data);
    }
  });

  it('INSERT INTO files.t from PostgreSQL into DuckDB, columns matched by name', async () => {
    await sql('CREATE TABLE files.appended (predicted DOUBLE, id BIGINT)');
    const r = await sql(
      `INSERT INTO files.appended (SELECT m.rental_price AS predicted, t.id FROM pg.src AS t JOIN mindsdb.small AS m)`,
    );
    expect(r.affected_rows).toBe(ROWS);
    const expected = await sql(SELECT('pg.src'));
    const saved = await sql('SELECT id, predicted FROM files.appended');
    expect(saved.data).toEqual(expected.data.map((row) => [row[0], row[2]]));
  });

  it('Cancel after the first batches rolls back: no table in DuckDB or PostgreSQL, an appended table keeps its rows', async () => {
    const cases = [
      { sql: `CREATE TABLE files.cancelled (${SELECT('files.src')})`, check: 'files.cancelled' },
      { sql: `CREATE TABLE pg.cancelled (${SELECT('pg.src')})`, check: 'pg.cancelled' },
      { sql: `INSERT INTO pg.scored (${SELECT('pg.src')})`, check: null },
    ];
    const before = (await sql('SELECT count(*) FROM pg.scored')).data[0][0];
    for (const c of cases) {
      const ac = new AbortController();
      const off = h.instance.sql.scoring.subscribe((p) => {
        if (p.rows_done >= 2 * BATCH) ac.abort();
      });
      let r;
      try {
        r = await h.instance.sql.execute({ query: c.sql, signal: ac.signal });
      } finally {
        off();
      }
      // Said in full when it fails (once in 42 CI runs, not reproduced in 14 runs of the file at
      // load 4-6): which statement never reported 2 batches, and what it answered instead.
      expect(
        ac.signal.aborted,
        `${c.sql} never reported ${2 * BATCH} rows done; it answered ${JSON.stringify(r)}`,
      ).toBe(true);
      expect(r).toMatchObject({ type: 'error' });
      expect(h.instance.sql.scoring.list()).toEqual([]);
      if (c.check) {
        const gone = await h.sql(`SELECT * FROM ${c.check}`);
        expect(gone.type).toBe('error');
      }
    }
    expect((await sql('SELECT count(*) FROM pg.scored')).data[0][0]).toBe(before);
  });

  it('queries that look across rows are not batched and still answer whole (LIMIT, aggregates)', async () => {
    const seen = await reports(async () => {
      await sql(`CREATE TABLE files.limited (${SELECT('files.src')} LIMIT 100)`);
      await sql(
        `CREATE TABLE files.grouped (SELECT t.location, avg(m.rental_price) AS p FROM files.src AS t JOIN mindsdb.small AS m GROUP BY 1)`,
      );
    });
    expect(seen).toEqual([]);
    const expected = await sql(SELECT('files.src'));
    expect((await sql('SELECT * FROM files.limited')).data).toEqual(expected.data.slice(0, 100));
    expect((await sql('SELECT count(*) FROM files.grouped')).data[0][0]).toBeGreaterThan(1);
  });

  it('service columns a statement does not read are left null; every way of reading one gets its values', async () => {
    const col = (r: { column_names: string[]; data: unknown[][] }, name: string) =>
      r.data.map((row) => row[r.column_names.indexOf(name)]);
    const JOIN = (src: string) => `FROM ${src} AS t JOIN mindsdb.small AS m`;
    for (const src of ['files.src', 'pg.src']) {
      // The reference: every column of the model, read through m.*.
      const all = await sql(`SELECT t.id, m.* ${JOIN(src)}`);
      expect(all.data).toHaveLength(ROWS);
      const conf = col(all, 'rental_price_confidence');
      const lo = col(all, 'rental_price_min');
      for (const v of [...conf, ...lo]) expect(typeof v).toBe('number');
      const read = async (query: string, name: string) => col(await sql(query), name);
      expect(
        await read(
          `SELECT t.id, m.rental_price_confidence ${JOIN(src)}`,
          'rental_price_confidence',
        ),
      ).toEqual(conf);
      expect(
        await read(`SELECT t.id, rental_price_confidence ${JOIN(src)}`, 'rental_price_confidence'),
      ).toEqual(conf);
      expect(await read(`SELECT * ${JOIN(src)}`, 'rental_price_min')).toEqual(lo);
      expect(
        await read(
          `WITH j AS (SELECT t.id, m.* ${JOIN(src)}) SELECT id, rental_price_min FROM j`,
          'rental_price_min',
        ),
      ).toEqual(lo);
      const filtered = await sql(
        `SELECT t.id ${JOIN(src)} WHERE m.rental_price_confidence IS NOT NULL`,
      );
      expect(filtered.data).toHaveLength(ROWS);
    }
    // Saved in batches, the column read is there, in the data's order.
    await sql(
      `CREATE TABLE pg.conf (SELECT t.id, m.rental_price_confidence AS c ${JOIN('pg.src')})`,
    );
    const ref = await sql(`SELECT t.id, m.* ${JOIN('pg.src')}`);
    expect((await sql('SELECT id, c FROM pg.conf')).data).toEqual(
      ref.data.map((r, i) => [r[0], col(ref, 'rental_price_confidence')[i]]),
    );
    // The model layer: the unread columns are nulls, the others as without the option.
    const inputs = await sql('SELECT sqft, location, number_of_rooms FROM files.src');
    const columns = Object.fromEntries(
      inputs.column_names.map((c, j) => [c, inputs.data.map((r) => r[j])]),
    );
    const ref2 = { project: 'mindsdb', name: 'small' };
    const full = await h.instance.models.predictColumns(ref2, columns, ROWS);
    const unread = ['rental_price_confidence', 'rental_price_explain'];
    const part = await h.instance.models.predictColumns(ref2, columns, ROWS, { unread });
    expect(part.columns).toEqual(full.columns);
    full.columns.forEach((c, j) => {
      if (unread.includes(c.name)) expect(new Set(part.values[j])).toEqual(new Set([null]));
      else expect(part.values[j]).toEqual(full.values[j]);
    });
  });
});
