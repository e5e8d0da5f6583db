/**
 * The query planner: one query (a SELECT, or the query inside CREATE TABLE / INSERT / CREATE VIEW /
 * EVALUATE), from MindsDB's SQL to the SQL that finally runs, in these steps:
 *
 * 1. dialect: the lexical differences (syntax/dialect.ts), then DuckDB's parser (a JOIN without a
 *    condition, which MindsDB allows and DuckDB does not, gets `ON TRUE`), then the expression
 *    dialect on the tree (plan/mysql.ts);
 * 2. resolve every table reference at any depth (plan/names.ts);
 * 3. a query that only reads one PostgreSQL integration runs there whole (plan/remote.ts);
 * 4. otherwise materialise, in the request's TEMP tables, whatever DuckDB cannot read itself:
 *    native queries, PostgreSQL tables (only the columns and rows needed), system tables, stored
 *    views (re-planned, so views over models re-predict), and for every model reference its
 *    predictions (plan/models.ts); each reference is rewritten to its relation;
 * 5. DuckDB runs the rest: joins, aggregates, CASE, CTAS, INSERT, ... over those relations.
 *
 * The user's text is edited in place (never regenerated), so DuckDB's error positions still point
 * at what the user wrote.
 */
import { quoteIdent } from '../../engine/quote';
import { ERROR_CODES, ServiceError, badInput } from '../../errors';
import { remoteTempColumns } from '../../integrations/load';
import { toDuckText, type NativeQuery } from '../syntax/dialect';
import { parseUsing } from '../syntax/clauses';
import type { Embedded } from '../syntax/statement';
import { StatementSource, applyEdits, type Rewrite } from '../syntax/source';
import { Cursor, Tokens, isOp } from '../syntax/tokens';
import { indexQuery, parseQuery, type ParseOutcome, type TableRefInfo } from '../syntax/tree';
import type { ExecContext, SqlEnv } from '../types';
import { originPlan } from './column-origins';
import { planModels } from './models';
import { recordItemSpans } from './order';
import { applyExpressionDialect } from './mysql';
import { resolveTable, splitParts } from './names';
import { rowAnswer } from './row-answer';
import { fetchNative, fetchRemote, pushDown, readsOneIntegration } from './remote';
import { PlanState, paramsOf, tempTableNode } from './state';
import type { PlannedQuery, StreamSource } from './steps';
import { streamable, tableStream } from './stream-plan';
import { systemRows } from './system';

const MAX_DEPTH = 8;

/** The text is not a query (DuckDB parsed it as another kind of statement). */
export class NotAQuery extends ServiceError {
  constructor(readonly reason: string) {
    super(ERROR_CODES.SYNTAX, 'Syntax error: expected a query (SELECT ...)');
  }
}

/** Parses the query with DuckDB, adding `ON TRUE` to MindsDB's joins without a condition. */
async function parseWithJoins(
  ctx: ExecContext,
  rw: Rewrite,
): Promise<{ rw: Rewrite; parsed: ParseOutcome }> {
  for (let tries = 0; ; tries++) {
    const parsed = await parseQuery(ctx.session, rw.text);
    if (parsed.ok || parsed.kind !== 'parser' || parsed.position === undefined || tries > 32) {
      return { rw, parsed };
    }
    const at = missingJoinCondition(rw.text, parsed.position);
    if (at === null) return { rw, parsed };
    rw = applyEdits(rw, [{ start: at, end: at, text: ' ON TRUE' }]);
  }
}

const JOIN_MODIFIERS = new Set([
  'LEFT',
  'RIGHT',
  'INNER',
  'FULL',
  'OUTER',
  'CROSS',
  'NATURAL',
  'POSITIONAL',
  'ASOF',
  'ANTI',
  'SEMI',
]);
const CLAUSE_ENDS = new Set([
  'SELECT',
  'WHERE',
  'GROUP',
  'HAVING',
  'ORDER',
  'LIMIT',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'QUALIFY',
  'WINDOW',
  'OFFSET',
]);

/**
 * Where to add `ON TRUE` when DuckDB stopped at `errorAt` in a FROM clause holding a JOIN
 * without a condition: after the first such join's relation (DuckDB would otherwise nest the
 * following JOIN ... ON inside it). Null when the error is something else.
 */
export function missingJoinCondition(text: string, errorAt: number): number | null {
  const sig = new Tokens(text).sig;
  let k = sig.findIndex((x) => x.start >= errorAt);
  if (k < 0) k = sig.length;
  // The FROM of the clause the error is in (same parenthesis depth).
  let depth = 0;
  let from = -1;
  for (let j = k - 1; j >= 0 && from < 0; j--) {
    const x = sig[j];
    if (isOp(x, ')')) depth++;
    else if (isOp(x, '(')) {
      if (depth === 0) return null;
      depth--;
    } else if (depth === 0) {
      if (x.word === 'FROM') from = j;
      else if (CLAUSE_ENDS.has(x.word)) return null;
    }
  }
  if (from < 0) return null;
  const joins: { at: number; clause: number; cond: boolean; plain: boolean }[] = [];
  depth = 0;
  for (let j = from + 1; j < k; j++) {
    const x = sig[j];
    if (isOp(x, '(')) depth++;
    else if (isOp(x, ')')) depth--;
    else if (depth === 0 && x.word === 'JOIN') {
      let clause = j;
      while (clause > from + 1 && JOIN_MODIFIERS.has(sig[clause - 1].word)) clause--;
      const mods = sig.slice(clause, j).map((t) => t.word);
      const plain = !mods.some((m) => m === 'CROSS' || m === 'NATURAL' || m === 'POSITIONAL');
      joins.push({ at: j, clause, cond: false, plain });
    } else if (depth === 0 && (x.word === 'ON' || x.word === 'USING') && joins.length) {
      joins[joins.length - 1].cond = true;
    }
  }
  const i = joins.findIndex((j) => j.plain && !j.cond);
  if (i < 0) return null;
  const end = i + 1 < joins.length ? joins[i + 1].clause - 1 : k - 1;
  return end > joins[i].at ? sig[end].end : null;
}

/**
 * Plans a query written at `q` inside the statement `src`, with bare names resolving in `db`.
 * TEMP tables it creates are listed in `ctx.temps` (dropped when the statement is done).
 */
export async function planQuery(
  env: SqlEnv,
  q: Embedded | Rewrite,
  src: StatementSource,
  ctx: ExecContext,
  db: string = ctx.db,
  /** The tokens of `q.text`, when the caller has them already. */
  scanned?: Tokens,
  /**
   * The rows are to be saved (CREATE TABLE ... AS, INSERT): a column name written twice keeps
   * its first column only, as MindsDB saves it, and the rows go in in their order. `'stream'`:
   * the same, planned to score in batches when the query's shape allows (plan/stream.ts);
   * `'stream-answer'`: an answer (not saved) planned to be streamed to the client in batches.
   */
  purpose: boolean | 'stream' | 'stream-answer' = false,
): Promise<PlannedQuery> {
  const saving = purpose === true || purpose === 'stream';
  if (ctx.depth > MAX_DEPTH) {
    throw src.error(
      ERROR_CODES.BAD_INPUT,
      `Views and native queries nest more than ${MAX_DEPTH} deep (a view that reads itself?)`,
    );
  }
  // Offsets in the query text -> offsets in the statement.
  const toStatement = 'toSource' in q ? q.toSource : (o: number) => q.start + o;
  const tokens = scanned?.text === q.text ? scanned : new Tokens(q.text);
  const duck = toDuckText(tokens, {
    params: ctx.params,
    isDatabase: (name) => !!env.catalog.databaseInfo(name),
  });
  const natives = duck.natives.map((n) => ({ ...n, start: toStatement(n.start) }));
  if (duck.using) {
    const c = new Cursor(tokens, src, ctx.params);
    c.i = duck.using.tokenIndex + 1;
    const options = parseUsing(c);
    ctx.warnings.push({
      level: 'Note',
      code: 1,
      message: `SELECT ... USING ${Object.keys(options).join(', ')}: options for the models of a query are accepted and not applied by this instance's engine`,
    });
  }
  const { rw: parsedRw, parsed } = await parseWithJoins(ctx, duck.rw);
  const rw: Rewrite = { text: parsedRw.text, toSource: (o) => toStatement(parsedRw.toSource(o)) };
  if (!parsed.ok) {
    if (parsed.kind !== 'parser') throw new NotAQuery(parsed.message);
    const at = parsed.position === undefined ? toStatement(0) : rw.toSource(parsed.position);
    throw src.error(
      parsed.kind === 'parser' ? ERROR_CODES.SYNTAX : ERROR_CODES.BAD_INPUT,
      `${parsed.kind === 'parser' ? 'Parser Error: ' : ''}${parsed.message}`,
      at,
    );
  }
  const st = new PlanState(
    env,
    ctx,
    src,
    rw,
    rw.text === tokens.text ? tokens : new Tokens(rw.text),
    parsed.offsets,
    indexQuery(parsed.node),
    db,
    parsed.node,
  );
  recordItemSpans(st, parsed.node);

  // The original token written at a position of the parsed text (backtick or double quote?).
  const original = (offset: number) => {
    const i = tokens.indexAt(parsedRw.toSource(offset));
    return i < 0 ? undefined : tokens.sig[i];
  };
  applyExpressionDialect(st, original);

  for (const t of st.index.tables) st.resolved.set(t.node, resolveTable(env, t.parts, t.scope, db));

  const remoteDb = readsOneIntegration(st, natives);
  if (remoteDb) return pushDown(st, remoteDb, natives);

  const streamData = typeof purpose === 'string' ? await streamable(st, natives) : null;
  let stream: StreamSource | undefined;

  // Views that are one PostgreSQL query, while inlining (see below).
  const remoteViews: { t: TableRefInfo; inner: PlannedQuery; name: string; db: string }[] = [];
  for (const t of st.index.tables) {
    const r = st.resolved.get(t.node)!;
    switch (r.kind) {
      case 'native': {
        const n = natives[r.index];
        const rel = await nativeRelation(st, n);
        if (typeof rel === 'string') await materialize(st, t, rel, n.db);
        else inlineRelation(st, t, rel.sql, n.db);
        if (t === streamData) stream = fetchStream(st);
        break;
      }
      case 'remote':
        await materialize(st, t, await fetchRemote(st, t, r), r.name[r.name.length - 1]);
        if (t === streamData) stream = fetchStream(st);
        break;
      case 'system': {
        const into = st.tempName('sys');
        await st.addStep(
          { kind: 'system', table: r.table, project: r.project, into },
          { columns: systemRows(env, r.table, r.project).columns },
        );
        await materialize(st, t, into, t.parts[t.parts.length - 1]);
        break;
      }
      case 'view': {
        const inner = await planQuery(
          env,
          { text: r.view.sql, start: 0 },
          viewSource(r.view),
          innerContext(ctx),
          r.view.db,
        ).catch((err: unknown) => {
          throw viewError(err, `${r.view.catalog}.${r.view.name}`);
        });
        if (inlinable(ctx, inner)) {
          inlineRelation(st, t, inner.sql, r.view.name);
          break;
        }
        if (ctx.inline && inner.target.kind === 'remote' && inner.steps.length === 0) {
          remoteViews.push({ t, inner, name: r.view.name, db: inner.target.db });
          break;
        }
        const into = await subplan(st, `view ${r.view.catalog}.${r.view.name}`, inner);
        await materialize(st, t, into, r.view.name);
        break;
      }
      case 'local':
        if (t === streamData) {
          const scan = await tableStream(st, t, db);
          if (scan) {
            stream = scan;
            await materialize(st, t, scan.into, t.parts[t.parts.length - 1]);
            break;
          }
        }
        if (ctx.qualify && st.engineDb(db)) qualifyName(st, t, db);
        else if (t.parts.some((p) => p.includes('.'))) splitName(st, t);
        else if (t.parts.length === 1 && env.catalog.databaseInfo(db)?.type === 'system') {
          // After USE information_schema, bare names are its (DuckDB's) views.
          const at = st.loc(t.node);
          const span = at === undefined ? null : st.nameSpan(at);
          if (span) st.edit(span.start, span.start, 'information_schema.');
          t.node.schema_name = 'information_schema';
        }
        break;
      default:
        break;
    }
  }

  if (remoteViews.length > 0) {
    // A query that reads nothing but views over one PostgreSQL integration is one PostgreSQL
    // query (a model's FROM query then runs there again on RETRAIN); otherwise they load as usual.
    const db = remoteViews[0].db;
    const whole = st.index.tables.every(
      (t) =>
        st.resolved.get(t.node)?.kind === 'cte' ||
        remoteViews.some((v) => v.t === t && v.db.toLowerCase() === db.toLowerCase()),
    );
    for (const v of remoteViews) {
      if (whole) inlineRelation(st, v.t, v.inner.sql, v.name);
      else {
        const into = await subplan(st, `view ${v.name}`, v.inner);
        await materialize(st, v.t, into, v.name);
      }
    }
    if (whole) {
      const final = applyEdits(rw, st.edits);
      return {
        target: { kind: 'remote', db, values: [] },
        sql: final.text,
        rw: final,
        src,
        steps: [],
      };
    }
  }

  st.positional = stream !== undefined;
  await planModels(st, saving);

  let final = applyEdits(rw, st.edits);
  const hidden = st.exported.get(st.root);
  if (hidden || saving) final = await hideOrderColumns(st, final, hidden ?? [], saving);
  const row = purpose === true || purpose === 'stream' ? null : rowAnswer(st);
  return {
    target: { kind: 'duckdb', db: st.engineDb(db) },
    sql: final.text,
    rw: final,
    src,
    steps: st.steps,
    origins: originPlan(st),
    ...(stream ? { stream } : {}),
    ...(row ? { row } : {}),
  };
}

/** The fetch step just planned, as the stream of a query scored in batches. */
function fetchStream(st: PlanState): StreamSource {
  const i = st.steps.length - 1;
  const step = st.steps[i];
  if (step?.kind !== 'fetch') throw new Error('a streamed PostgreSQL source has no fetch step');
  return { kind: 'fetch', step: i, source: step.source };
}

/**
 * The statement's query exports order columns (a UNION ALL of model joins, rows to save: see
 * plan/order.ts) or is saved: wrapped to sort by them and leave them out, its other columns
 * renamed back to their own names (DuckDB would rename a duplicate `a` to `a_1`); when saving, a
 * name written twice keeps its first column (noted in SHOW WARNINGS).
 */
async function hideOrderColumns(
  st: PlanState,
  rw: Rewrite,
  hidden: string[],
  saving: boolean,
): Promise<Rewrite> {
  const prefix = 'DESCRIBE ';
  const d = await st.ctx.session.query(prefix + rw.text, {
    db: st.engineDb(st.db),
    signal: st.ctx.signal,
    params: paramsOf(rw.text, st.ctx.params),
    sourceOffset: (o) => st.src.offset + rw.toSource(Math.max(0, o - prefix.length)),
    script: st.src.script,
    maxRows: Number.MAX_SAFE_INTEGER,
  });
  const names = d.rows.map((r) => String(r[0]));
  const visible = names.slice(0, names.length - hidden.length);
  const keep: number[] = [];
  const seen = new Set<string>();
  const dropped: string[] = [];
  visible.forEach((n, i) => {
    if (saving && seen.has(n.toLowerCase())) dropped.push(n);
    else keep.push(i);
    seen.add(n.toLowerCase());
  });
  if (hidden.length === 0 && dropped.length === 0) return rw;
  if (dropped.length > 0) {
    st.ctx.warnings.push({
      level: 'Note',
      code: 1,
      message: `The saved query names ${[...new Set(dropped)].map((n) => `'${n}'`).join(', ')} more than once; the first column of each name is saved (as MindsDB saves it), the others are left out`,
    });
  }
  const inner = visible.map((_, i) => quoteIdent(`__mdb_c${i + 1}`));
  const head = `SELECT ${keep.map((i) => `${inner[i]} AS ${quoteIdent(visible[i])}`).join(', ')} FROM (\n`;
  const order = hidden.length ? ` ORDER BY ${hidden.map(quoteIdent).join(', ')}` : '';
  const tail = `\n) AS "__mdb_q"(${[...inner, ...hidden.map(quoteIdent)].join(', ')})${order}`;
  return applyEdits(rw, [
    { start: 0, end: 0, text: head },
    { start: rw.text.length, end: rw.text.length, text: tail },
  ]);
}

/** A stored view's query, located in itself (its errors are reported as the view's). */
function viewSource(v: { sql: string }): StatementSource {
  return new StatementSource(v.sql, 0, v.sql);
}

function viewError(err: unknown, name: string): unknown {
  if (err instanceof ServiceError) {
    return new ServiceError(err.code, `View '${name}' cannot run: ${err.message}`);
  }
  return err;
}

/**
 * A native query: in PostgreSQL (fetched), or in one of the instance's DuckDB databases (a TEMP
 * table's name, or the SQL to inline when the context asks for it and nothing else needs TEMPs).
 */
async function nativeRelation(st: PlanState, n: NativeQuery): Promise<string | { sql: string }> {
  const info = st.env.catalog.requireDatabase(n.db);
  if (st.env.integrations.isRemote(info.name)) {
    return fetchNative(st, info.name, n);
  }
  const inner = await planQuery(
    st.env,
    { text: n.sql, start: n.start },
    st.src,
    innerContext(st.ctx),
    info.name,
  );
  if (inlinable(st.ctx, inner)) return { sql: inner.sql };
  return subplan(st, `native query on ${info.name}`, inner);
}

/** A nested plan (a view, a native query) as a step filling a TEMP table of its rows. */
async function subplan(st: PlanState, source: string, inner: PlannedQuery): Promise<string> {
  const into = st.tempName('view');
  let schema: { columns: { name: string; type: string }[] } | { query: string; db?: string };
  if (inner.target.kind === 'remote') {
    if (inner.target.values.length > 0) {
      throw badInput('Parameters in a query read from an integration this way are not supported');
    }
    const integ = st.env.integrations.postgres(inner.target.db);
    const cols = await integ.columns(inner.sql, st.env.integrations.defaults.timeoutMs);
    schema = { columns: remoteTempColumns(cols) };
  } else schema = { query: inner.sql, db: inner.target.db };
  await st.addStep({ kind: 'subplan', source, plan: inner, into }, schema);
  return into;
}

/** The context of a view's or native query's own plan. */
function innerContext(ctx: ExecContext): ExecContext {
  // One params object for both: values an inner step computes are read by the outer SQL too.
  ctx.params ??= {};
  return { ...ctx, depth: ctx.depth + 1, qualify: ctx.inline };
}

/** Whether an inner plan can stand in the query as a subquery (see ExecContext.inline). */
function inlinable(ctx: ExecContext, inner: PlannedQuery): boolean {
  return !!ctx.inline && inner.target.kind === 'duckdb' && inner.steps.length === 0;
}

/** Rewrites a table reference to a subquery (its names qualified), keeping or adding an alias. */
function inlineRelation(st: PlanState, t: TableRefInfo, sql: string, defaultAlias: string): void {
  const at = st.loc(t.node);
  const span = at === undefined ? null : st.nameSpan(at);
  if (!span) throw new Error(`no position for table reference ${t.parts.join('.')}`);
  const alias = t.alias ? '' : ` AS "${defaultAlias.replaceAll('"', '""')}"`;
  st.edit(span.start, span.end, `(\n${sql}\n)${alias}`);
  st.resolved.set(t.node, { kind: 'local' });
}

/** A DuckDB table name as `"catalog"."schema"."table"`, as DuckDB resolves it in `db`. */
function qualifyName(st: PlanState, t: TableRefInfo, db: string): void {
  const at = st.loc(t.node);
  const span = at === undefined ? null : st.nameSpan(at);
  const parts = splitParts(t.parts);
  if (!span || parts.length > 3) return;
  const current = st.engineDb(db);
  let full: string[];
  if (parts.length === 3) full = parts;
  else if (parts.length === 2) {
    const named = st.env.catalog.databaseInfo(parts[0]);
    full = named ? [named.name, 'main', parts[1]] : [current ?? db, parts[0], parts[1]];
  } else full = [current ?? db, 'main', parts[0]];
  st.edit(span.start, span.end, full.map((p) => `"${p.replaceAll('"', '""')}"`).join('.'));
}

/** Rewrites a table reference to a TEMP table, keeping (or adding) its alias. */
async function materialize(
  st: PlanState,
  t: TableRefInfo,
  temp: string,
  defaultAlias: string,
): Promise<void> {
  const at = st.loc(t.node);
  const span = at === undefined ? null : st.nameSpan(at);
  if (!span) throw new Error(`no position for table reference ${t.parts.join('.')}`);
  const alias = t.alias || defaultAlias;
  st.edit(
    span.start,
    span.end,
    `${PlanState.tempSql(temp)}${t.alias ? '' : ` AS "${alias.replaceAll('"', '""')}"`}`,
  );
  const node = tempTableNode(temp, alias);
  (t.holder as Record<string | number, unknown>)[t.key] = node;
  st.resolved.set(node, { kind: 'local' });
  const written = st.itemSpans.get(t.node);
  if (written) st.itemSpans.set(node, written);
}

/** `` `db.schema.table` `` (one quoted name holding dots) as the separate names MindsDB reads. */
function splitName(st: PlanState, t: TableRefInfo): void {
  const at = st.loc(t.node);
  const span = at === undefined ? null : st.nameSpan(at);
  if (!span) return;
  const parts = splitParts(t.parts);
  st.edit(span.start, span.end, parts.map((p) => `"${p.replaceAll('"', '""')}"`).join('.'));
  const table = parts[parts.length - 1];
  const schema = parts.length >= 2 ? parts[parts.length - 2] : '';
  const catalog = parts.length >= 3 ? parts[parts.length - 3] : '';
  Object.assign(t.node, { catalog_name: catalog, schema_name: schema, table_name: table });
}
