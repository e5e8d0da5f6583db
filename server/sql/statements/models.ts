/**
 * The model statements: CREATE MODEL/PREDICTOR, RETRAIN, FINETUNE, DROP MODEL, DESCRIBE, the
 * active version (`SET model_active = m.2`, ``SET active p.m.`1` ``, `UPDATE models_versions SET
 * active = 1 WHERE ...`), `DELETE FROM models_versions WHERE ...`, and `EVALUATE metric FROM
 * (query)`. All state and work belongs to the ModelRegistry; these handlers read names and
 * options and shape results.
 */
import { DEFAULT_PROJECT } from '../../catalog/catalog';
import { MODEL_COLUMNS } from '../../models/models-table';
import type { ModelRef } from '../../models/registry';
import type { ModelVersionRecord, TimeSeriesSettings } from '../../models/store';
import type { TrainingSource } from '../../models/training-data';
import { quoteIdent } from '../../engine/quote';
import { badInput, didYouMean, notFound } from '../../errors';
import { planQuery } from '../plan/query';
import type {
  MindsStatement,
  ModelSource,
  TimeSeriesClauses,
  UsingValue,
} from '../syntax/statement';
import { applyEdits } from '../syntax/source';
import { toDuckText } from '../syntax/dialect';
import { Tokens } from '../syntax/tokens';
import { lightwoodUsing, passedOnUsing } from './using';
import { ok, type StatementInput, type StatementOutput } from './output';
import { queryStatement } from './query';
import { evaluateMetric } from './evaluate';
import { MONITORING_ATTRIBUTES, describeMonitoring, isMonitoringAttribute } from './monitoring';
import type { StatementEnv } from '../types';

type S<K extends MindsStatement['kind']> = Extract<MindsStatement, { kind: K }>;

const isVersion = (s: string) => /^\d+$/.test(s);

/** `[project.]name[.version]` in a model statement (the model need not exist). */
function modelName(
  env: StatementEnv,
  parts: string[],
  db: string,
  allowVersion: boolean,
): ModelRef {
  let rest = parts;
  let version: number | undefined;
  if (allowVersion && rest.length >= 2 && isVersion(rest[rest.length - 1])) {
    version = Number(rest[rest.length - 1]);
    rest = rest.slice(0, -1);
  }
  const current = env.catalog.projectInfo(db)?.name ?? DEFAULT_PROJECT;
  if (rest.length === 1) return { project: current, name: rest[0], version };
  if (rest.length === 2)
    return { project: env.catalog.requireProject(rest[0]), name: rest[1], version };
  throw badInput(
    `'${parts.join('.')}' is not a model name; use project.model${allowVersion ? '[.version]' : ''}`,
  );
}

const SQL_TYPES: Record<string, string> = { JSON: 'VARCHAR' };

/** The models-table row(s) of versions, as CREATE MODEL answers. */
function modelRows(env: StatementEnv, recs: ModelVersionRecord[], changed = true): StatementOutput {
  return {
    kind: 'result',
    result: {
      type: 'table',
      column_names: MODEL_COLUMNS.map((c) => c.name),
      column_types: MODEL_COLUMNS.map((c) => SQL_TYPES[c.type] ?? c.type),
      data: recs.map((r) => env.models.row(r)),
      ...(changed ? { catalog_changed: true } : {}),
    },
  };
}

/**
 * The FROM of a model as stored for training (and every RETRAIN): a DuckDB database's query is
 * planned once to apply the dialect (it must read only tables DuckDB has: no models, no other
 * integrations); a PostgreSQL integration's query is its own native SQL.
 */
async function trainingSource(
  env: StatementEnv,
  s: ModelSource,
  x: StatementInput,
): Promise<TrainingSource> {
  const fromDb = env.catalog.requireDatabase(s.db ?? x.ctx.db).name;
  if (s.table?.length === 1 && s.db === null && env.catalog.databaseInfo(s.table[0])) {
    throw badInput(
      `'${s.table[0]}' is a database: train from one of its tables (FROM ${s.table[0]}.table) or a query (FROM ${s.table[0]} (SELECT ...))`,
    );
  }
  if (s.table) {
    return { fromDb, select: `SELECT * FROM ${s.table.map(quoteIdent).join('.')}` };
  }
  const tokens = new Tokens(s.query.text);
  if (tokens.sig.some((t) => t.kind === 'param')) {
    throw badInput(
      'A model FROM query cannot use :parameters (it runs again on RETRAIN, where they have no value)',
    );
  }
  if (env.integrations.isRemote(fromDb)) {
    const duck = toDuckText(tokens, { isDatabase: () => false });
    return { fromDb, select: duck.rw.text };
  }
  // Views and native queries over the instance's DuckDB databases are planned into the query
  // (they run again on RETRAIN as they are written now).
  const planned = await planQuery(env, s.query, x.src, { ...x.ctx, inline: true }, fromDb);
  // One PostgreSQL query (`SELECT * FROM pg (native)`, a view over one): it runs there.
  if (
    planned.steps.length === 0 &&
    planned.target.kind === 'remote' &&
    planned.target.values.length === 0
  ) {
    return { fromDb: planned.target.db, select: planned.sql };
  }
  if (planned.steps.length > 0 || planned.target.kind !== 'duckdb') {
    throw badInput(
      `A model's FROM query reads the instance's own tables (it runs again on every RETRAIN); this one reads models, system tables, PostgreSQL tables next to other data, or views over them. Save that data first (CREATE TABLE ... AS SELECT ...) and train from the table`,
    );
  }
  return { fromDb, select: planned.sql };
}

/**
 * MindsDB's `USING join_learn_process = true`: the statement returns when the training has ended
 * (the Lightwood option jobs use so the next statement sees the new version). Taken out of USING.
 */
function takeJoinLearn(using: Record<string, UsingValue> | undefined): {
  using: Record<string, UsingValue> | undefined;
  join: boolean;
} {
  if (!using) return { using, join: false };
  const key = Object.keys(using).find((k) => k.toLowerCase() === 'join_learn_process');
  if (key === undefined) return { using, join: false };
  const { [key]: v, ...rest } = using;
  const join = v === true || v === 1 || String(v).toLowerCase() === 'true';
  return { using: rest, join };
}

/** Waits until the version's training has ended (complete or error), as join_learn_process asks. */
async function trainingEnded(
  env: StatementEnv,
  rec: ModelVersionRecord,
  signal: AbortSignal | undefined,
): Promise<ModelVersionRecord> {
  for (;;) {
    const r = env.models.get({ project: rec.project, name: rec.name, version: rec.version });
    if (r.status === 'complete' || r.status === 'error') return r;
    signal?.throwIfAborted();
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** Largest WINDOW / HORIZON (the engine's bound: a forecast reads WINDOW rows per group). */
const MAX_TS_STEPS = 10_000;

/**
 * The time-series clauses of CREATE MODEL, checked before anything runs: one ORDER BY column,
 * WINDOW (and HORIZON, default 1) whole numbers from 1 to 10,000, GROUP BY columns distinct from
 * each other, the ORDER BY column and the target.
 */
function timeSeriesSettings(ts: TimeSeriesClauses, target: string | undefined): TimeSeriesSettings {
  if (ts.orderBy.length === 0) {
    throw badInput(
      'GROUP BY, WINDOW and HORIZON belong to time-series models, which also need ORDER BY <time column>: CREATE MODEL m FROM db (SELECT ...) PREDICT y ORDER BY t [GROUP BY g] WINDOW n [HORIZON h]',
    );
  }
  if (ts.orderBy.length > 1) {
    throw badInput(
      `ORDER BY of a time-series model names one column (the time or sequence), not ${ts.orderBy.length}: ${ts.orderBy.join(', ')}`,
    );
  }
  const steps = (clause: string, v: number | undefined, what: string) => {
    if (v === undefined || !Number.isInteger(v) || v < 1 || v > MAX_TS_STEPS) {
      throw badInput(
        v === undefined
          ? `A time-series model needs ${clause} n: ${what}`
          : `${clause} must be a whole number from 1 to ${MAX_TS_STEPS}, got ${Number.isNaN(v) ? 'a non-number' : v}`,
      );
    }
    return v;
  };
  const window = steps('WINDOW', ts.window, 'how many rows of history each forecast reads');
  const horizon = ts.horizon === undefined ? 1 : steps('HORIZON', ts.horizon, '');
  const lower = (c: string) => c.toLowerCase();
  const orderBy = ts.orderBy[0];
  if (target !== undefined && lower(orderBy) === lower(target)) {
    throw badInput(`ORDER BY column '${orderBy}' cannot also be the PREDICT column`);
  }
  const seen = new Set<string>();
  for (const g of ts.groupBy) {
    if (seen.has(lower(g))) throw badInput(`GROUP BY names column '${g}' twice`);
    seen.add(lower(g));
    if (lower(g) === lower(orderBy) || (target !== undefined && lower(g) === lower(target))) {
      throw badInput(`GROUP BY column '${g}' cannot also be the ORDER BY or PREDICT column`);
    }
  }
  return { orderBy, groupBy: [...ts.groupBy], window, horizon };
}

export async function createModel(
  env: StatementEnv,
  s: S<'create-model'>,
  x: StatementInput,
): Promise<StatementOutput> {
  const ref = modelName(env, s.name, x.ctx.db, false);
  const join = takeJoinLearn(s.using);
  // The engine first: a model of an engine this instance has not (openai, huggingface, BYOM ...)
  // is refused as such, not for the training data such engines do without.
  const using = lightwoodUsing(env, join.using, x);
  const timeseries = s.timeSeries ? timeSeriesSettings(s.timeSeries, s.targets[0]?.name) : null;
  if (!s.source) {
    throw badInput(
      'CREATE MODEL needs training data: CREATE MODEL name FROM <database> (SELECT ...) PREDICT <column>',
    );
  }
  if (s.targets.length > 1)
    throw badInput('A model predicts one column; PREDICT names more than one');
  const target = s.targets[0];
  const source = await trainingSource(env, s.source, x);
  const { record } = await env.models.create({
    ...ref,
    ...source,
    target: target.name,
    // `PREDICT target AS alias`: the predictions are named after the alias.
    ...(target.alias ? { targetAlias: target.alias } : {}),
    using,
    timeseries,
    orReplace: s.orReplace,
    ifNotExists: s.ifNotExists,
  });
  return modelRows(env, [join.join ? await trainingEnded(env, record, x.ctx.signal) : record]);
}

export async function retrain(
  env: StatementEnv,
  s: S<'retrain'>,
  x: StatementInput,
): Promise<StatementOutput> {
  const ref = modelName(env, s.name, x.ctx.db, false);
  const join = takeJoinLearn(s.using);
  const using = join.using
    ? passedOnUsing(lightwoodUsing(env, join.using, x), x, 'RETRAIN')
    : undefined;
  const source = s.source ? await trainingSource(env, s.source, x) : undefined;
  const rec = await env.models.retrain(ref, { ...source, target: s.target, using });
  return modelRows(env, [join.join ? await trainingEnded(env, rec, x.ctx.signal) : rec]);
}

export async function finetune(
  env: StatementEnv,
  s: S<'finetune'>,
  x: StatementInput,
): Promise<StatementOutput> {
  const ref = modelName(env, s.name, x.ctx.db, false);
  const join = takeJoinLearn(s.using);
  const using = join.using
    ? passedOnUsing(lightwoodUsing(env, join.using, x), x, 'FINETUNE')
    : undefined;
  const source = await trainingSource(env, s.source, x);
  const rec = await env.models.finetune(ref, source, using);
  return modelRows(env, [join.join ? await trainingEnded(env, rec, x.ctx.signal) : rec]);
}

export async function dropModel(
  env: StatementEnv,
  s: S<'drop-model'>,
  x: StatementInput,
): Promise<StatementOutput> {
  const ref = modelName(env, s.name, x.ctx.db, true);
  if (ref.version !== undefined) {
    if (
      s.ifExists &&
      !env.models.versions(ref.project, ref.name).some((v) => v.version === ref.version)
    ) {
      return ok(0);
    }
    env.models.dropVersion({ ...ref, version: ref.version });
    return ok(1, true);
  }
  const dropped = env.models.drop(ref, s.ifExists);
  return ok(dropped ? 1 : 0, dropped);
}

const ATTRIBUTE_WORDS = new Set([
  'info',
  'features',
  'model',
  'progress',
  'ensemble',
  ...MONITORING_ATTRIBUTES,
]);
/** Older Lightwood names of attributes (`DESCRIBE m.ensemble` in MindsDB's earlier docs). */
const ATTRIBUTE_ALIASES: Record<string, string> = { ensemble: 'model' };

/**
 * `DESCRIBE [MODEL] [p.]m[.version][.attribute]`: a trailing non-numeric part is the attribute
 * when the rest names a model (an unknown word too, so the registry lists the allowed ones).
 */
function describeTarget(
  env: StatementEnv,
  parts: string[],
  db: string,
): { ref: ModelRef; attribute?: string } | null {
  const asModel = (ps: string[]) => {
    try {
      const ref = modelName(env, ps, db, true);
      return env.models.exists(ref.project, ref.name) ? ref : null;
    } catch {
      return null;
    }
  };
  const last = parts[parts.length - 1];
  if (parts.length > 1 && !isVersion(last)) {
    const ref = asModel(parts.slice(0, -1));
    if (ref && (ATTRIBUTE_WORDS.has(last.toLowerCase()) || !asModel(parts)))
      return { ref, attribute: ATTRIBUTE_ALIASES[last.toLowerCase()] ?? last };
  }
  const ref = asModel(parts);
  return ref ? { ref } : null;
}

export async function describe(
  env: StatementEnv,
  s: S<'describe'>,
  x: StatementInput,
): Promise<StatementOutput> {
  const db = x.ctx.db;
  if (
    s.object === 'DATABASE' ||
    s.object === 'PROJECT' ||
    s.object === 'ML_ENGINE' ||
    s.object === 'VIEW'
  ) {
    return describeObject(env, s, x);
  }
  if (s.object === 'TABLE') {
    const text = `DESCRIBE ${x.src.text.slice(x.tokens.sig[2].start)}`;
    return queryStatement(env, { ...x, src: x.src, tokens: new Tokens(text) });
  }
  // A bare name is a model only inside a project (elsewhere DESCRIBE shows a table's columns).
  const explicit = s.object === 'MODEL';
  if (!explicit && !env.catalog.isProject(db) && !env.catalog.isProject(s.name[0]))
    return queryStatement(env, x);
  const target = describeTarget(env, s.name, db);
  if (!target) {
    if (explicit) {
      const known = new Set(env.models.list().map((r) => r.name));
      const hint = didYouMean(s.name[s.name.length - 1], known);
      throw notFound(`Model '${s.name.join('.')}' does not exist${hint ? `.${hint}` : ''}`);
    }
    return queryStatement(env, x);
  }
  if (isMonitoringAttribute(target.attribute)) {
    const source = s.source ? await trainingSource(env, s.source, x) : null;
    return describeMonitoring(env, s, target, source);
  }
  if (s.source || s.using) {
    throw badInput(
      `DESCRIBE ... FROM / USING applies to the attributes ${MONITORING_ATTRIBUTES.join(', ')}`,
    );
  }
  // Sentences rather than nested JSON for the metrics and warnings: this lands in a grid cell.
  const rows = await env.models.describe(target.ref, target.attribute, 'text');
  const columns = rows.length > 0 ? Object.keys(rows[0]) : [];
  return {
    kind: 'result',
    result: {
      type: 'table',
      column_names: columns,
      data: rows.map((r) => columns.map((c) => r[c] ?? null)),
    },
  };
}

/** DESCRIBE DATABASE / PROJECT / ML_ENGINE / VIEW: the object's row of its system table. */
async function describeObject(
  env: StatementEnv,
  s: S<'describe'>,
  x: StatementInput,
): Promise<StatementOutput> {
  const name = s.name[s.name.length - 1];
  let sql: string;
  if (s.object === 'ML_ENGINE') {
    if (!env.mlEngines.find(name)) throw notFound(`ML engine '${name}' does not exist`);
    sql = `SELECT * FROM information_schema.ml_engines WHERE lower(NAME) = lower($__name)`;
  } else if (s.object === 'VIEW') {
    const project = s.name.length > 1 ? env.catalog.requireDatabase(s.name[0]).name : x.ctx.db;
    const v = env.views.find(project, name);
    if (!v) throw notFound(`View '${s.name.join('.')}' does not exist`);
    return {
      kind: 'result',
      result: {
        type: 'table',
        column_names: ['NAME', 'PROJECT', 'QUERY'],
        column_types: ['VARCHAR', 'VARCHAR', 'VARCHAR'],
        data: [[v.name, v.catalog, v.sql]],
      },
    };
  } else {
    const info = env.catalog.requireDatabase(name);
    if (s.object === 'PROJECT' && info.type !== 'project')
      throw notFound(`Project '${name}' does not exist`);
    sql = `SELECT * FROM information_schema.databases WHERE lower(NAME) = lower($__name)`;
  }
  const planned = await planQuery(env, { text: sql, start: 0 }, x.src, {
    ...x.ctx,
    params: { __name: name },
  });
  const result = await env.runPlanned(planned, { ...x.ctx, params: { __name: name } });
  return { kind: 'result', result };
}

/** The versions a `WHERE` over `<project>.models_versions` selects (DuckDB evaluates it). */
async function selectVersions(
  env: StatementEnv,
  project: string,
  where: { text: string; start: number } | undefined,
  x: StatementInput,
): Promise<{ name: string; version: number; active: boolean }[]> {
  const head = `SELECT NAME, VERSION, ACTIVE FROM \`${project}\`.models_versions`;
  const rw = where
    ? applyEdits({ text: x.src.text, toSource: (o) => o }, [
        { start: 0, end: where.start, text: `${head} WHERE ` },
      ])
    : { text: head, toSource: () => 0 };
  const planned = await planQuery(env, rw, x.src, x.ctx);
  const r = await env.runPlanned(planned, x.ctx, true);
  if (r.type !== 'table') return [];
  return r.data.map(([name, version, active]) => ({
    name: String(name),
    version: Number(version),
    active: active === true,
  }));
}

function versionsProject(env: StatementEnv, table: string[], db: string): string | null {
  if (table.length > 2) return null;
  if (table.length === 2) return env.catalog.projectInfo(table[0])?.name ?? null;
  return env.catalog.projectInfo(db)?.name ?? null;
}

export async function updateVersions(
  env: StatementEnv,
  s: S<'update-versions'>,
  x: StatementInput,
): Promise<StatementOutput> {
  const project = versionsProject(env, s.table, x.ctx.db);
  if (!project) return queryStatement(env, x);
  const keys = Object.keys(s.set);
  const value = s.set.active;
  if (keys.length !== 1 || value === undefined) {
    throw badInput(
      'Only the active version can be changed: UPDATE models_versions SET active = 1 WHERE name = ... AND version = ...',
    );
  }
  if (!(value === true || value === 1 || value === '1' || value === 'true')) {
    throw badInput(
      'Deactivate a version by activating another one: SET active = 1 on the version to use',
    );
  }
  if (!s.where)
    throw badInput("Name the version to activate: WHERE name = 'model' AND version = n");
  const rows = await selectVersions(env, project, s.where, x);
  if (rows.length === 0)
    throw notFound(`No model version of project '${project}' matches the WHERE condition`);
  const perModel = new Map<string, number>();
  for (const r of rows)
    perModel.set(r.name.toLowerCase(), (perModel.get(r.name.toLowerCase()) ?? 0) + 1);
  const many = [...perModel.entries()].find(([, n]) => n > 1);
  if (many)
    throw badInput(
      `The WHERE condition selects ${many[1]} versions of model '${many[0]}'; name one: AND version = n`,
    );
  for (const r of rows) env.models.setActive({ project, name: r.name, version: r.version });
  return ok(rows.length, true);
}

export async function deleteVersions(
  env: StatementEnv,
  s: S<'delete-versions'>,
  x: StatementInput,
): Promise<StatementOutput> {
  const project = versionsProject(env, s.table, x.ctx.db);
  if (!project) return queryStatement(env, x);
  if (s.table[s.table.length - 1].toLowerCase() !== 'models_versions') {
    throw badInput(
      `Delete model versions from ${project}.models_versions, or drop a model with DROP MODEL`,
    );
  }
  const rows = await selectVersions(env, project, s.where, x);
  const byModel = new Map<string, typeof rows>();
  for (const r of rows)
    byModel.set(r.name.toLowerCase(), [...(byModel.get(r.name.toLowerCase()) ?? []), r]);
  let n = 0;
  for (const versions of byModel.values()) {
    const all = env.models.versions(project, versions[0].name);
    if (versions.length === all.length) {
      env.models.drop({ project, name: versions[0].name });
    } else {
      for (const v of versions)
        env.models.dropVersion({ project, name: v.name, version: v.version });
    }
    n += versions.length;
  }
  return ok(n, n > 0);
}

export async function setActive(
  env: StatementEnv,
  s: S<'set-active'>,
  x: StatementInput,
): Promise<StatementOutput> {
  const ref = modelName(env, s.name, x.ctx.db, true);
  if (ref.version === undefined)
    throw badInput(`Name a version: SET model_active = ${s.name.join('.')}.<version>`);
  env.models.setActive({ ...ref, version: ref.version });
  return ok(1, true);
}

export async function evaluate(
  env: StatementEnv,
  s: S<'evaluate'>,
  x: StatementInput,
): Promise<StatementOutput> {
  const planned = await planQuery(env, s.query, x.src, x.ctx);
  const r = await env.runPlanned(planned, x.ctx, true);
  if (r.type !== 'table')
    throw badInput('EVALUATE needs a query returning actual and prediction columns');
  const value = evaluateMetric(s.metric, r.column_names, r.data, s.using ?? {});
  return {
    kind: 'result',
    result: { type: 'table', column_names: [s.metric], column_types: ['DOUBLE'], data: [[value]] },
  };
}
