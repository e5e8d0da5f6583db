/**
 * Saving query results (the last step of every MindsDB tutorial), in every form MindsDB has:
 * `CREATE [OR REPLACE] TABLE db.t (SELECT ... JOIN model)`, `CREATE TABLE t AS SELECT ...`,
 * `INSERT INTO db.t (SELECT ...)`, into the instance's DuckDB databases or a PostgreSQL
 * integration (created there with matching types, rows inserted in batches); and views:
 * `CREATE VIEW [p.]v [FROM db] [AS] (SELECT ...)`, `ALTER VIEW`, `DROP VIEW`. A view keeps its
 * query and runs it through the planner each time it is read, so a view over a model re-predicts.
 */
import { quoteIdent } from '../../engine/quote';
import { ERROR_CODES, ServiceError, badInput, notFound } from '../../errors';
import { remoteTempColumns } from '../../integrations/load';
import { pgIdent } from '../../integrations/postgres';
import { runInto } from '../plan/execute';
import { planQuery } from '../plan/query';
import type { PlannedQuery } from '../plan/steps';
import { createPlaceholder, paramsOf } from '../plan/state';
import { ViewStore, type StoredView } from '../plan/views';
import type { Embedded, MindsStatement } from '../syntax/statement';
import type { Rewrite } from '../syntax/source';
import { ok, type StatementInput, type StatementOutput } from './output';
import { pgType, streamToDuckDB, streamToPostgres } from './saving-stream';
import { queryStatement } from './query';
import type { StatementEnv } from '../types';

type S<K extends MindsStatement['kind']> = Extract<MindsStatement, { kind: K }>;

/** `prefix` + a planned query, mapped back (the prefix maps to the statement's start). */
function prefixed(prefix: string, q: PlannedQuery): PlannedQuery {
  const rw: Rewrite = {
    text: prefix + q.sql,
    toSource: (o) => (o < prefix.length ? 0 : q.rw.toSource(o - prefix.length)),
  };
  return { ...q, sql: rw.text, rw };
}

/** The integration a table name writes to (`pg.t`, `pg.schema.t`), or null for DuckDB's. */
function remoteTarget(env: StatementEnv, name: string[]): { db: string; table: string[] } | null {
  if (name.length >= 2 && env.integrations.isRemote(name[0])) {
    return { db: env.integrations.record(name[0])!.name, table: name.slice(1) };
  }
  return null;
}

const pgName = (parts: string[]) => parts.map(pgIdent).join('.');

/** Runs the query locally and writes its rows to a PostgreSQL table in batches. */
async function writeRemote(
  env: StatementEnv,
  x: StatementInput,
  target: { db: string; table: string[] },
  planned: PlannedQuery,
  o: { create?: { orReplace: boolean; ifNotExists: boolean }; columns?: string[] },
): Promise<StatementOutput> {
  if (planned.stream) {
    const label = `${target.db}.${target.table.join('.')}`;
    return streamToPostgres(
      env,
      x,
      planned,
      { db: target.db, table: pgName(target.table), label },
      o,
    );
  }
  const r = await env.runPlanned(planned, x.ctx, true);
  if (r.type !== 'table') throw badInput('The query to save returned no rows table');
  if (r.truncated) {
    throw new ServiceError(
      ERROR_CODES.TOO_LARGE,
      `The query returns more rows than this instance moves in one statement; save it in parts (WHERE / LIMIT)`,
    );
  }
  const table = pgName(target.table);
  const columns = o.columns ?? r.column_names;
  if (o.create) {
    if (o.create.orReplace)
      await env.integrations.query(target.db, `DROP TABLE IF EXISTS ${table}`);
    const defs = r.column_names.map(
      (c, i) => `${pgIdent(c)} ${pgType(r.column_types?.[i] ?? 'VARCHAR')}`,
    );
    await env.integrations.query(
      target.db,
      `CREATE TABLE ${o.create.ifNotExists ? 'IF NOT EXISTS ' : ''}${table} (${defs.join(', ')})`,
    );
  }
  const width = columns.length;
  const perBatch = Math.max(1, Math.floor(30_000 / Math.max(1, width)));
  let n = 0;
  for (let off = 0; off < r.data.length; off += perBatch) {
    const batch = r.data.slice(off, off + perBatch);
    const values: unknown[] = [];
    const tuples = batch.map((row) => {
      const slots = row.slice(0, width).map((v) => {
        values.push(v !== null && typeof v === 'object' ? JSON.stringify(v) : v);
        return `$${values.length}`;
      });
      return `(${slots.join(', ')})`;
    });
    const res = await env.integrations.query(
      target.db,
      `INSERT INTO ${table} (${columns.map(pgIdent).join(', ')}) VALUES ${tuples.join(', ')}`,
      { values, signal: x.ctx.signal },
    );
    n += res.affectedRows ?? batch.length;
  }
  return ok(n, !!o.create);
}

/**
 * The query of CREATE TABLE / INSERT, planned to be saved: in batches when its shape allows
 * (plan/stream-plan.ts) and SCORING_BATCH_ROWS is not 0.
 */
function planSaved(env: StatementEnv, q: Embedded, x: StatementInput): Promise<PlannedQuery> {
  const mode = env.scoringBatchRows > 0 ? 'stream' : true;
  return planQuery(env, q, x.src, x.ctx, x.ctx.db, undefined, mode);
}

const createPrefix = (s: S<'create-table'>, target: string) =>
  `CREATE ${s.orReplace ? 'OR REPLACE ' : ''}${s.temp ? 'TEMP ' : ''}TABLE ${s.ifNotExists ? 'IF NOT EXISTS ' : ''}${target} AS `;

export async function createTable(
  env: StatementEnv,
  s: S<'create-table'>,
  x: StatementInput,
): Promise<StatementOutput> {
  const remote = remoteTarget(env, s.name);
  const scored = await planSaved(env, s.query, x);
  if (remote) {
    return writeRemote(env, x, remote, scored, {
      create: { orReplace: s.orReplace, ifNotExists: s.ifNotExists },
    });
  }
  const target = s.name.map(quoteIdent).join('.');
  if (scored.stream) {
    return streamToDuckDB(env, x, scored, {
      target,
      create: createPrefix(s, target),
      ifNotExists: s.ifNotExists,
    });
  }
  const planned = await readLocally(env, x, scored);
  return {
    kind: 'query',
    planned: prefixed(createPrefix(s, target), planned),
    catalogChanged: true,
  };
}

/**
 * A query that runs whole in PostgreSQL, to be saved in DuckDB: its rows are fetched into a TEMP
 * table first (a step), and the saved query reads that table.
 */
async function readLocally(
  env: StatementEnv,
  x: StatementInput,
  q: PlannedQuery,
): Promise<PlannedQuery> {
  if (q.target.kind !== 'remote') return q;
  if (q.target.values.length > 0) {
    throw badInput(
      'Parameters in a query saved from an integration are not supported; write the values in the query',
    );
  }
  const name = `__mdb_save_${++x.ctx.seq.n}`;
  x.ctx.temps.push(name);
  const cols = await env.integrations
    .postgres(q.target.db)
    .columns(q.sql, env.integrations.defaults.timeoutMs);
  await createPlaceholder(x.ctx, name, { columns: remoteTempColumns(cols) }, undefined);
  const local = await planQuery(
    env,
    { text: `SELECT * FROM temp.main.${quoteIdent(name)}`, start: 0 },
    x.src,
    x.ctx,
  );
  return {
    ...local,
    steps: [
      {
        kind: 'fetch',
        db: q.target.db,
        source: `a query on ${q.target.db}`,
        sql: q.sql,
        into: name,
      },
      ...local.steps,
    ],
  };
}

export async function insert(
  env: StatementEnv,
  s: S<'insert'>,
  x: StatementInput,
): Promise<StatementOutput> {
  const remote = remoteTarget(env, s.name);
  const scored = await planSaved(env, s.query, x);
  if (remote) return writeRemote(env, x, remote, scored, { columns: s.columns });
  const planned = await readLocally(env, x, scored);
  const target = s.name.map(quoteIdent).join('.');
  const cols = s.columns ? ` (${s.columns.map(quoteIdent).join(', ')})` : '';
  // MindsDB inserts a query's columns by name; DuckDB by position. By name when every column of
  // the query is a column of the table, by position otherwise (INSERT INTO t VALUES ..., SELECT 1).
  let byName = false;
  if (!s.columns && planned.target.kind === 'duckdb') {
    // One after the other: a DuckDB connection runs one statement at a time.
    const t = await x.ctx.session
      .query(`SELECT * FROM ${target} LIMIT 0`, { db: planned.target.db, internal: true })
      .catch(() => null);
    const q = await x.ctx.session
      .query(`SELECT * FROM (${planned.sql}) AS __q LIMIT 0`, {
        db: planned.target.db,
        params: paramsOf(planned.sql, x.ctx.params),
      })
      .catch(() => null);
    if (t && q) {
      const names = new Set(t.columns.map((c) => c.toLowerCase()));
      const mine = q.columns.map((c) => c.toLowerCase());
      byName = new Set(mine).size === mine.length && mine.every((c) => names.has(c));
    }
  }
  const prefix = `INSERT INTO ${target}${cols}${byName ? ' BY NAME' : ''} `;
  if (planned.stream) return streamToDuckDB(env, x, planned, { target, insert: prefix });
  return { kind: 'query', planned: prefixed(prefix, planned) };
}

/**
 * MindsDB's `UPDATE t ON k1, k2 FROM (SELECT ...)`: every row of the query updates the rows of
 * `t` whose key columns equal its keys, setting the query's other columns (by name).
 */
export async function updateOn(
  env: StatementEnv,
  s: S<'update-on'>,
  x: StatementInput,
): Promise<StatementOutput> {
  if (remoteTarget(env, s.name)) {
    throw badInput(
      `UPDATE ... ON into a PostgreSQL integration is not supported by this instance; save the rows first (CREATE TABLE files.t (SELECT ...)) and update from it in PostgreSQL`,
    );
  }
  const planned = await planQuery(env, s.query, x.src, x.ctx);
  const rows = `__mdb_update_${++x.ctx.seq.n}`;
  x.ctx.temps.push(rows);
  await runInto(env, x.ctx, rows, planned);
  const columns = (
    await x.ctx.session.query(`SELECT * FROM temp.main.${quoteIdent(rows)} LIMIT 0`, {
      internal: true,
    })
  ).columns;
  const lower = (c: string) => c.toLowerCase();
  for (const k of s.keys) {
    if (!columns.some((c) => lower(c) === lower(k))) {
      throw badInput(
        `UPDATE ... ON ${k}: the query has no column '${k}'; its columns are: ${columns.join(', ')}`,
      );
    }
  }
  const keys = new Set(s.keys.map(lower));
  const set = columns.filter((c) => !keys.has(lower(c)));
  if (set.length === 0) {
    throw badInput('UPDATE ... ON: the query has no column to set besides the key columns');
  }
  const target = s.name.map(quoteIdent).join('.');
  const me = quoteIdent(s.name[s.name.length - 1]);
  const sql =
    `UPDATE ${target} SET ${set.map((c) => `${quoteIdent(c)} = __u.${quoteIdent(c)}`).join(', ')} ` +
    `FROM temp.main.${quoteIdent(rows)} AS __u WHERE ` +
    s.keys.map((k) => `${me}.${quoteIdent(k)} = __u.${quoteIdent(k)}`).join(' AND ');
  const info = env.catalog.databaseInfo(x.ctx.db);
  const r = await x.ctx.session.query(sql, {
    db:
      info && info.type !== 'system' && !env.integrations.isRemote(info.name)
        ? info.name
        : undefined,
    signal: x.ctx.signal,
  });
  return ok(r.affectedRows);
}

/** Where a view lives: (database, schema, name) from `v`, `p.v` or `p.schema.v`. */
function viewPlace(
  env: StatementEnv,
  name: string[],
  db: string,
): { catalog: string; schema: string; name: string } {
  const at = (catalog: string) => {
    const info = env.catalog.requireDatabase(catalog);
    if (info.type === 'system' || env.integrations.isRemote(info.name)) {
      throw badInput(
        `Views live in projects and the instance's own databases, not in '${info.name}'`,
      );
    }
    return info.name;
  };
  if (name.length === 1) return { catalog: at(db), schema: 'main', name: name[0] };
  if (name.length === 2) return { catalog: at(name[0]), schema: 'main', name: name[1] };
  if (name.length === 3) return { catalog: at(name[0]), schema: name[1], name: name[2] };
  throw badInput(`'${name.join('.')}' is not a view name; use project.view`);
}

export async function createView(
  env: StatementEnv,
  s: S<'create-view'>,
  x: StatementInput,
): Promise<StatementOutput> {
  const place = viewPlace(env, s.name, x.ctx.db);
  const existing = env.views.find(place.catalog, place.name, place.schema);
  if (s.alter && !existing) throw notFound(`View '${place.catalog}.${place.name}' does not exist`);
  if (existing && s.ifNotExists && !s.alter) return ok();
  const sql = s.fromDb ? `SELECT * FROM ${quoteIdent(s.fromDb)} (${s.query.text})` : s.query.text;
  const view: StoredView = { ...place, db: x.ctx.db, sql };
  // The query must run now (DuckDB checks a view's query when it is created, too); its columns
  // and types become the stored view's.
  const planned = await planQuery(
    env,
    s.fromDb ? { text: sql, toSource: () => s.query.start } : s.query,
    x.src,
    x.ctx,
  );
  const cols = await columnsOf(env, x, planned);
  for (const ddl of ViewStore.ddl(view, cols, s.alter || s.orReplace)) {
    await x.ctx.session.query(ddl, { internal: true });
  }
  env.views.remember(view);
  return ok(null, true);
}

async function columnsOf(
  env: StatementEnv,
  x: StatementInput,
  q: PlannedQuery,
): Promise<{ name: string; type: string }[]> {
  if (q.target.kind === 'remote') {
    const r = await env.integrations.query(q.target.db, `SELECT * FROM (${q.sql}) AS __v LIMIT 0`, {
      values: q.target.values.length ? q.target.values : undefined,
    });
    return r.columns.map((c, i) => ({ name: c, type: r.types[i] || 'VARCHAR' }));
  }
  const r = await x.ctx.session.query(`SELECT * FROM (${q.sql}) AS __v LIMIT 0`, {
    db: q.target.db,
    params: paramsOf(q.sql, x.ctx.params),
    sourceOffset: (o) => q.src.offset + q.rw.toSource(Math.max(0, o - 'SELECT * FROM ('.length)),
    script: q.src.script,
  });
  return r.columns.map((c, i) => ({ name: c, type: r.types[i] }));
}

export async function dropView(
  env: StatementEnv,
  s: S<'drop-view'>,
  x: StatementInput,
): Promise<StatementOutput> {
  for (const name of s.names) {
    const place = viewPlace(env, name, x.ctx.db);
    await x.ctx.session.query(
      `DROP VIEW ${s.ifExists ? 'IF EXISTS ' : ''}${[place.catalog, place.schema, place.name].map(quoteIdent).join('.')}`,
      { internal: true },
    );
    env.views.forget(place.catalog, place.schema, place.name);
  }
  return ok(null, true);
}

export async function dropTable(
  env: StatementEnv,
  s: S<'drop-table'>,
  x: StatementInput,
): Promise<StatementOutput> {
  const remote = remoteTarget(env, s.name);
  if (!remote) return queryStatement(env, x);
  await env.integrations.query(
    remote.db,
    `DROP TABLE ${s.ifExists ? 'IF EXISTS ' : ''}${pgName(remote.table)}`,
  );
  return ok(null, true);
}
