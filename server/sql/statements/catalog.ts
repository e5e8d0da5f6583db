/**
 * Databases, projects, ML engines, session statements and SHOW. Every SHOW is a SELECT over a
 * system table (as MindsDB answers it), so `SHOW DATABASES WHERE type = 'project'` filters on the
 * table's own columns and the user's WHERE keeps its positions.
 */
import { DEFAULT_PROJECT } from '../../catalog/catalog';
import type { JsonValue } from '../../engine/values';
import { quoteString } from '../../engine/quote';
import { ERROR_CODES, ServiceError, badInput, notFound } from '../../errors';
import { inputColumns, predictionColumns } from '../../models/predict/columns';
import { integrationEngine } from '../../integrations';
import { SERVER_VARIABLES } from '../plan/mysql';
import { planQuery } from '../plan/query';
import { transpose } from '../plan/state';
import type { MindsStatement } from '../syntax/statement';
import { applyEdits, type Rewrite } from '../syntax/source';
import type { OutputColumn as VirtualColumn } from '../../models/predict/columns';
import { loadTempTable } from '../../engine/scratch';
import { ok, type StatementInput, type StatementOutput } from './output';
import { queryStatement } from './query';
import type { StatementEnv } from '../types';

type S<K extends MindsStatement['kind']> = Extract<MindsStatement, { kind: K }>;

const single = (name: string[], what: string): string => {
  if (name.length !== 1) throw badInput(`A ${what} name has no dots: '${name.join('.')}'`);
  return name[0];
};

export async function use(env: StatementEnv, s: S<'use'>): Promise<StatementOutput> {
  const info = env.catalog.requireDatabase(single(s.name, 'database'));
  return { kind: 'result', result: { type: 'ok', affected_rows: null }, db: info.name };
}

export async function createProject(
  env: StatementEnv,
  s: S<'create-project'>,
): Promise<StatementOutput> {
  await env.catalog.createProject(single(s.name, 'project'), s.ifNotExists);
  return ok(null, true);
}

export async function createDatabase(
  env: StatementEnv,
  s: S<'create-database'>,
): Promise<StatementOutput> {
  const name = single(s.name, 'database');
  const engine = s.engine?.toLowerCase();
  if (engine === undefined && s.parameters) {
    throw badInput(
      `CREATE DATABASE with PARAMETERS needs an ENGINE, e.g. WITH ENGINE = 'postgres', PARAMETERS = {...}`,
    );
  }
  if (engine === undefined || engine === 'mindsdb') {
    await env.catalog.createProject(name, s.ifNotExists);
    return ok(null, true);
  }
  integrationEngine(engine);
  if (!s.parameters) {
    throw badInput(`CREATE DATABASE ... WITH ENGINE = '${s.engine}' needs PARAMETERS = {...}`);
  }
  if (s.orReplace && env.integrations.record(name)) await env.integrations.drop(name, true);
  await env.integrations.create({
    name,
    engine: s.engine!,
    parameters: s.parameters,
    ifNotExists: s.ifNotExists,
  });
  return ok(null, true);
}

export async function dropDatabase(
  env: StatementEnv,
  s: S<'drop-database'>,
  x: StatementInput,
): Promise<StatementOutput> {
  const name = single(s.name, 'database');
  if (s.word === 'SCHEMA' && !env.catalog.databaseInfo(name)) return queryStatement(env, x);
  if (s.word === 'PROJECT' || env.catalog.isProject(name)) {
    if (s.word === 'PROJECT' || env.catalog.isProject(name)) {
      await env.catalog.dropProject(name, s.ifExists);
      await env.views.reload();
      return ok(null, true);
    }
  }
  await env.integrations.drop(name, s.ifExists);
  await env.views.reload();
  return ok(null, true);
}

export async function createMlEngine(
  env: StatementEnv,
  s: S<'create-ml-engine'>,
): Promise<StatementOutput> {
  env.mlEngines.create(
    { name: single(s.name, 'ML engine'), handler: s.handler, options: Object.keys(s.using ?? {}) },
    s.ifNotExists,
  );
  return ok();
}

export async function dropMlEngine(
  env: StatementEnv,
  s: S<'drop-ml-engine'>,
): Promise<StatementOutput> {
  env.mlEngines.drop(single(s.name, 'ML engine'), s.ifExists);
  return ok();
}

/** SET NAMES, SET autocommit, SET @@session.x ...: MySQL clients send them; nothing to change. */
export async function setSession(): Promise<StatementOutput> {
  return ok();
}

export async function refused(_env: StatementEnv, s: S<'refused'>): Promise<StatementOutput> {
  throw new ServiceError(
    ERROR_CODES.BAD_INPUT,
    `${s.construct} is not supported by this instance${s.hint ? ` (${s.hint})` : ''}`,
  );
}

// ---- SHOW ----------------------------------------------------------------------------------

const col = (name: string, type: VirtualColumn['type'] = 'VARCHAR'): VirtualColumn => ({
  name,
  type,
});

interface ShowPlan {
  /** The relation rows come from (SQL), and the expressions of the result. */
  source: string;
  outputs: string[];
  /** Column LIKE applies to. */
  like: string;
}

/** Runs `SELECT outputs FROM (source) [WHERE <user's condition> | LIKE]` through the planner. */
async function runShow(
  env: StatementEnv,
  s: S<'show'>,
  x: StatementInput,
  p: ShowPlan,
): Promise<StatementOutput> {
  const head = `SELECT ${p.outputs.join(', ')} FROM (${p.source}) AS __show`;
  let rw: Rewrite;
  if (s.filter.where) {
    const like =
      s.filter.like !== undefined
        ? `${name(p.like)} ILIKE ${quoteString(s.filter.like)} AND (`
        : '';
    const text = x.src.text;
    rw = applyEdits({ text, toSource: (o) => o }, [
      { start: 0, end: s.filter.where.start, text: `${head} WHERE ${like}` },
      ...(like ? [{ start: text.length, end: text.length, text: ')' }] : []),
    ]);
  } else {
    const tail =
      s.filter.like !== undefined
        ? ` WHERE ${name(p.like)} ILIKE ${quoteString(s.filter.like)}`
        : '';
    const text = head + tail;
    rw = { text, toSource: () => s.filterStart };
  }
  const planned = await planQuery(env, rw, x.src, x.ctx);
  return { kind: 'query', planned };
}

/** Loads rows into a TEMP table of the request and returns its SQL name. */
async function rowsRelation(
  x: StatementInput,
  columns: VirtualColumn[],
  rows: JsonValue[][],
): Promise<string> {
  const table = `__mdb_show_${++x.ctx.seq.n}`;
  x.ctx.temps.push(table);
  await loadTempTable(x.ctx.session, table, columns, transpose(rows, columns.length), rows.length);
  return `temp.main.${name(table)}`;
}

/**
 * A name in SQL this module generates for the planner: backticks, since the planner reads a
 * double-quoted lone name as a string (MindsDB's rule).
 */
const name = (s: string) => `\`${s.replaceAll('`', '``')}\``;

export async function show(
  env: StatementEnv,
  s: S<'show'>,
  x: StatementInput,
): Promise<StatementOutput> {
  const what = s.what;
  const fromDb = () =>
    s.from ? env.catalog.requireDatabase(s.from[s.from.length - 1]).name : x.ctx.db;
  switch (what) {
    case 'DATABASES':
    case 'SCHEMAS':
      return runShow(env, s, x, {
        source: 'SELECT *, NAME AS `Database` FROM information_schema.databases',
        outputs: ['`Database`', ...(s.full ? ['TYPE', 'ENGINE'] : [])],
        like: 'Database',
      });
    case 'PROJECTS':
      return runShow(env, s, x, {
        source: `SELECT *, NAME AS project FROM information_schema.databases WHERE TYPE = 'project'`,
        outputs: ['project'],
        like: 'project',
      });
    case 'MODELS':
    case 'PREDICTORS': {
      const project = s.from
        ? env.catalog.requireProject(s.from[s.from.length - 1])
        : currentProject(env, x.ctx.db);
      return runShow(env, s, x, {
        source: `SELECT * FROM ${name(project)}.models`,
        outputs: ['*'],
        like: 'NAME',
      });
    }
    case 'ML_ENGINES':
    case 'ML ENGINES':
      return runShow(env, s, x, {
        source: 'SELECT * FROM information_schema.ml_engines',
        outputs: ['*'],
        like: 'NAME',
      });
    case 'HANDLERS':
      return runShow(env, s, x, {
        source: 'SELECT * FROM information_schema.handlers',
        outputs: ['*'],
        like: 'NAME',
      });
    case 'TABLES': {
      const db = fromDb();
      const label = `Tables_in_${db}`;
      const rows = await tablesOf(env, x, db);
      const rel = await rowsRelation(
        x,
        [col('TABLE_NAME'), col('TABLE_TYPE'), col('TABLE_SCHEMA')],
        rows,
      );
      return runShow(env, s, x, {
        source: `SELECT *, TABLE_NAME AS ${name(label)} FROM ${rel}`,
        outputs: [name(label), ...(s.full ? ['TABLE_TYPE AS `Table_type`'] : [])],
        like: label,
      });
    }
    case 'VIEWS': {
      const db = fromDb();
      const rows = env.views.list(db).map((v) => [v.name, v.catalog, v.sql] as JsonValue[]);
      const rel = await rowsRelation(x, [col('NAME'), col('PROJECT'), col('QUERY')], rows);
      return runShow(env, s, x, { source: `SELECT * FROM ${rel}`, outputs: ['*'], like: 'NAME' });
    }
    case 'VARIABLES':
    case 'SESSION VARIABLES':
    case 'GLOBAL VARIABLES':
    case 'STATUS':
    case 'SESSION STATUS':
    case 'GLOBAL STATUS': {
      const rows = Object.entries(SERVER_VARIABLES).map(([k, v]) => [k, String(v)]);
      const rel = await rowsRelation(x, [col('Variable_name'), col('Value')], rows);
      return runShow(env, s, x, {
        source: `SELECT * FROM ${rel}`,
        outputs: ['*'],
        like: 'Variable_name',
      });
    }
    case 'ENGINES': {
      const rows = [
        [
          'InnoDB',
          'DEFAULT',
          'Supports transactions, row-level locking, and foreign keys',
          'YES',
          'YES',
          'YES',
        ],
      ];
      const names = ['Engine', 'Support', 'Comment', 'Transactions', 'XA', 'Savepoints'];
      const rel = await rowsRelation(
        x,
        names.map((n) => col(n)),
        rows,
      );
      return runShow(env, s, x, { source: `SELECT * FROM ${rel}`, outputs: ['*'], like: 'Engine' });
    }
    case 'CHARSET':
    case 'CHARACTER SET': {
      const rows = [
        ['utf8', 'UTF-8 Unicode', 'utf8_general_ci', 3],
        ['latin1', 'cp1252 West European', 'latin1_swedish_ci', 1],
        ['utf8mb4', 'UTF-8 Unicode', 'utf8mb4_general_ci', 4],
      ];
      const rel = await rowsRelation(
        x,
        [col('Charset'), col('Description'), col('Default collation'), col('Maxlen', 'BIGINT')],
        rows,
      );
      return runShow(env, s, x, {
        source: `SELECT * FROM ${rel}`,
        outputs: ['*'],
        like: 'Charset',
      });
    }
    case 'COLLATION': {
      const rows = [
        ['utf8_general_ci', 'utf8', 33, 'Yes', 'Yes', 1, 'PAD SPACE'],
        ['latin1_swedish_ci', 'latin1', 8, 'Yes', 'Yes', 1, 'PAD SPACE'],
      ];
      const rel = await rowsRelation(
        x,
        [
          col('Collation'),
          col('Charset'),
          col('Id', 'BIGINT'),
          col('Default'),
          col('Compiled'),
          col('Sortlen', 'BIGINT'),
          col('Pad_attribute'),
        ],
        rows,
      );
      return runShow(env, s, x, {
        source: `SELECT * FROM ${rel}`,
        outputs: ['*'],
        like: 'Collation',
      });
    }
    case 'WARNINGS':
    case 'ERRORS': {
      const rows = x.ctx.previousWarnings
        .filter((w) => what === 'WARNINGS' || w.level === 'Warning')
        .map((w) => [w.level, w.code, w.message]);
      const rel = await rowsRelation(
        x,
        [col('Level'), col('Code', 'BIGINT'), col('Message')],
        rows,
      );
      return runShow(env, s, x, {
        source: `SELECT * FROM ${rel}`,
        outputs: ['*'],
        like: 'Message',
      });
    }
    case 'FUNCTION STATUS':
    case 'PROCEDURE STATUS': {
      // MySQL clients (DBeaver, Workbench) list stored routines on connect; MindsDB has none and
      // answers an empty table of MySQL's columns, as MindsDB's HTTP tests expect.
      const names = [
        'Db',
        'Name',
        'Type',
        'Definer',
        'Modified',
        'Created',
        'Security_type',
        'Comment',
        'character_set_client',
        'collation_connection',
        'Database Collation',
      ];
      const rel = await rowsRelation(
        x,
        names.map((n) => col(n)),
        [],
      );
      return runShow(env, s, x, { source: `SELECT * FROM ${rel}`, outputs: ['*'], like: 'Name' });
    }
    case 'COLUMNS':
    case 'FIELDS': {
      if (!s.from) throw badInput('Name the table: SHOW [FULL] COLUMNS FROM table [FROM database]');
      const rows = await columnsOf(env, x, s.from);
      const names = [
        'Field',
        'Type',
        'Collation',
        'Null',
        'Key',
        'Default',
        'Extra',
        'Privileges',
        'Comment',
      ];
      const rel = await rowsRelation(
        x,
        names.map((n) => col(n)),
        rows,
      );
      const outputs = s.full ? ['*'] : ['Field', 'Type', '`Null`', '`Key`', '`Default`', 'Extra'];
      return runShow(env, s, x, { source: `SELECT * FROM ${rel}`, outputs, like: 'Field' });
    }
    default:
      throw new ServiceError(
        ERROR_CODES.BAD_INPUT,
        `SHOW ${what} is not supported by this instance`,
      );
  }
}

/** Rows of SHOW COLUMNS (MySQL's shape) for a table, view or model: `t`, `db.t`, `db.schema.t`. */
async function columnsOf(
  env: StatementEnv,
  x: StatementInput,
  name: string[],
): Promise<JsonValue[][]> {
  const row = (field: string, type: string): JsonValue[] => [
    field,
    type,
    null,
    'YES',
    '',
    null,
    '',
    'select',
    '',
  ];
  const db = name.length > 1 ? env.catalog.requireDatabase(name[0]).name : x.ctx.db;
  const table = name[name.length - 1];
  if (env.catalog.isProject(db) && env.models.exists(db, table)) {
    const rec = env.models.ready({ project: db, name: table });
    const desc = (await env.models.predictor(rec)).description;
    return [...inputColumns(desc), ...predictionColumns(desc, rec.targetAlias)].map((c) =>
      row(c.name, c.type),
    );
  }
  const schema = name.length === 3 ? name[1] : null;
  const r = await x.ctx.session.query(
    `SELECT column_name, data_type FROM information_schema.columns
     WHERE table_catalog = $db AND table_name = $t AND ($s IS NULL OR table_schema = $s)
     ORDER BY table_schema = 'main' DESC, ordinal_position`,
    { params: { db, t: table, s: schema }, internal: true, maxRows: Number.MAX_SAFE_INTEGER },
  );
  if (r.rows.length === 0) throw notFound(`Table '${name.join('.')}' does not exist`);
  return r.rows.map(([c, t]) => row(String(c), String(t)));
}

function currentProject(env: StatementEnv, db: string): string {
  return env.catalog.projectInfo(db)?.name ?? DEFAULT_PROJECT;
}

/** Tables of a database for SHOW TABLES: name, type (BASE TABLE, VIEW, MODEL, SYSTEM VIEW). */
async function tablesOf(env: StatementEnv, x: StatementInput, db: string): Promise<JsonValue[][]> {
  const info = env.catalog.requireDatabase(db);
  const rows: JsonValue[][] = [];
  if (info.type === 'system') {
    const r = await x.ctx.session.query(
      `SELECT DISTINCT table_name FROM information_schema.tables WHERE table_schema = 'information_schema' ORDER BY 1`,
      { internal: true, maxRows: Number.MAX_SAFE_INTEGER },
    );
    for (const t of ['databases', 'handlers', 'ml_engines', 'models'])
      rows.push([t, 'SYSTEM VIEW', info.name]);
    for (const [name] of r.rows) rows.push([String(name), 'SYSTEM VIEW', info.name]);
    return rows;
  }
  if (env.integrations.isRemote(info.name)) {
    for (const t of (await env.integrations.listTables(info.name)) ?? [])
      rows.push([t.name, t.type, info.name]);
    return rows;
  }
  if (info.type === 'project') {
    rows.push(['models', 'BASE TABLE', info.name]);
    for (const name of env.models.modelNames(info.name)) rows.push([name, 'MODEL', info.name]);
  }
  const r = await x.ctx.session.query(
    `SELECT table_schema, table_name, table_type FROM information_schema.tables
     WHERE table_catalog = $db ORDER BY table_schema, table_name`,
    { params: { db: info.name }, internal: true, maxRows: Number.MAX_SAFE_INTEGER },
  );
  for (const [schema, name, type] of r.rows) {
    rows.push([schema === 'main' ? String(name) : `${schema}.${name}`, String(type), info.name]);
  }
  return rows;
}
