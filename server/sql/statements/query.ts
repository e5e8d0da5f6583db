/**
 * Statements that are DuckDB's SQL: queries go through the planner; any other statement (DDL,
 * UPDATE, COPY, ...) goes to DuckDB with the lexical dialect applied, or, when it writes a table of
 * a PostgreSQL integration, to PostgreSQL whole with the database prefix removed.
 */
import { ERROR_CODES } from '../../errors';
import { pgIdent } from '../../integrations/postgres';
import { toDuckText } from '../syntax/dialect';
import { applyEdits, unchanged, type Edit, type Rewrite } from '../syntax/source';
import { Tokens, isName, isOp, type Tok } from '../syntax/tokens';
import { NotAQuery, planQuery } from '../plan/query';
import type { PlannedQuery, Step } from '../plan/steps';
import { explainQuery } from './explain';
import type { StatementInput, StatementOutput } from './output';
import type { StatementEnv } from '../types';

export async function queryStatement(
  env: StatementEnv,
  x: StatementInput,
): Promise<StatementOutput> {
  if (x.tokens.sig[0]?.word === 'EXPLAIN') {
    const explained = await explainQuery(env, x);
    if (explained) return explained;
  }
  try {
    const planned = await planQuery(
      env,
      { text: x.src.text, start: 0 },
      x.src,
      x.ctx,
      x.ctx.db,
      x.tokens,
      x.ctx.answerInBatches && x.ctx.depth === 0 && env.scoringBatchRows > 0
        ? 'stream-answer'
        : false,
    );
    return { kind: 'query', planned };
  } catch (err) {
    if (!(err instanceof NotAQuery)) throw err;
  }
  return { kind: 'query', planned: await withPlannedSubqueries(env, x, duckStatement(env, x)) };
}

/**
 * `(SELECT ...)` / `(WITH ...)` inside an UPDATE or DELETE for DuckDB (MindsDB documents
 * `UPDATE t SET c = p.c FROM (SELECT ... JOIN model) AS p WHERE ...`): each goes through the
 * planner (models, views, native queries, integrations), the rest of the statement through the
 * lexical dialect, and DuckDB runs the whole. The TEMP tables the plans made live until the
 * statement is done.
 */
async function withPlannedSubqueries(
  env: StatementEnv,
  x: StatementInput,
  plain: PlannedQuery,
): Promise<PlannedQuery> {
  const sig = x.tokens.sig;
  if (plain.target.kind !== 'duckdb' || !['UPDATE', 'DELETE'].includes(sig[0]?.word ?? '')) {
    return plain;
  }
  const spans: { start: number; end: number }[] = [];
  for (let i = 0; i < sig.length; i++) {
    if (!isOp(sig[i], '(') || !['SELECT', 'WITH'].includes(sig[i + 1]?.word ?? '')) continue;
    let depth = 0;
    let j = i;
    for (; j < sig.length; j++) {
      if (isOp(sig[j], '(')) depth++;
      else if (isOp(sig[j], ')') && --depth === 0) break;
    }
    if (j >= sig.length) return plain; // unbalanced: DuckDB reports it
    spans.push({ start: sig[i + 1].start, end: sig[j].start });
    i = j;
  }
  if (spans.length === 0) return plain;
  const text = x.src.text;
  const own = await updatedColumns(x, plain, spans);
  const pieces: { text: string; toSource: (o: number) => number }[] = [];
  const outside = (a: number, b: number) => {
    const qualified = own
      ? qualifyOwnColumns(text.slice(a, b), a, own)
      : unchanged(text.slice(a, b));
    const rw = toDuckText(new Tokens(qualified.text), {
      params: x.ctx.params,
      isDatabase: () => false,
    }).rw;
    pieces.push({ text: rw.text, toSource: (o) => a + qualified.toSource(rw.toSource(o)) });
  };
  let pos = 0;
  const steps: Step[] = [];
  for (const sp of spans) {
    outside(pos, sp.start);
    const q = await planQuery(
      env,
      { text: text.slice(sp.start, sp.end), start: sp.start },
      x.src,
      x.ctx,
    );
    if (q.target.kind !== 'duckdb') {
      throw x.src.error(
        ERROR_CODES.BAD_INPUT,
        'A subquery of UPDATE/DELETE reads only a PostgreSQL integration; the statement runs in DuckDB, so select those rows into a table first',
        sp.start,
      );
    }
    pieces.push({ text: q.sql, toSource: (o) => q.rw.toSource(o) });
    steps.push(...q.steps);
    pos = sp.end;
  }
  outside(pos, text.length);
  const starts: number[] = [];
  let sql = '';
  for (const p of pieces) {
    starts.push(sql.length);
    sql += p.text;
  }
  const rw: Rewrite = {
    text: sql,
    toSource(o) {
      let k = starts.length - 1;
      while (k > 0 && starts[k] > o) k--;
      return pieces[k].toSource(o - starts[k]);
    },
  };
  return { ...plain, sql, rw, steps };
}

/** The statement a non-query writes to: `UPDATE t`, `DELETE FROM t`, `ALTER TABLE t`, ... */
function writeTarget(sig: Tok[]): { index: number; verb: string } | null {
  const w = (i: number) => sig[i]?.word ?? '';
  let i: number;
  const verb = w(0);
  if (verb === 'UPDATE') i = 1;
  else if (verb === 'DELETE' && w(1) === 'FROM') i = 2;
  else if (verb === 'TRUNCATE') i = w(1) === 'TABLE' ? 2 : 1;
  else if ((verb === 'ALTER' || verb === 'DROP') && w(1) === 'TABLE') i = 2;
  else if (verb === 'CREATE') {
    i = 1;
    if (w(i) === 'OR' && w(i + 1) === 'REPLACE') i += 2;
    if (w(i) !== 'TABLE') return null;
    i++;
  } else if (verb === 'INSERT') {
    i = sig.findIndex((t) => t.word === 'INTO') + 1;
    if (i === 0) return null;
  } else return null;
  if (w(i) === 'IF') i += w(i + 1) === 'NOT' ? 3 : 2;
  return isName(sig[i]) ? { index: i, verb } : null;
}

/** A statement DuckDB runs as written (after the lexical dialect), or PostgreSQL for its tables. */
function duckStatement(env: StatementEnv, x: StatementInput): PlannedQuery {
  const { ctx, src, tokens } = x;
  const sig = tokens.sig;
  const target = writeTarget(sig);
  const db = target && isOp(sig[target.index + 1], '.') ? sig[target.index].value : null;
  if (db && env.integrations.isRemote(db))
    return remoteStatement(env, x, env.integrations.record(db)!.name);
  if (!target && env.integrations.isRemote(ctx.db) && !sig.some((t) => t.word === 'COPY')) {
    return remoteStatement(env, x, env.integrations.record(ctx.db)!.name);
  }
  const duck = toDuckText(tokens, { params: ctx.params, isDatabase: () => false });
  const info = env.catalog.databaseInfo(ctx.db);
  const engineDb =
    info && info.type !== 'system' && !env.integrations.isRemote(info.name) ? info.name : undefined;
  return {
    target: { kind: 'duckdb', db: engineDb },
    sql: duck.rw.text,
    rw: duck.rw,
    src,
    steps: [],
  };
}

/** The statement for PostgreSQL: `db.` prefixes removed, backticks double-quoted, `$n` params. */
function remoteStatement(env: StatementEnv, x: StatementInput, db: string): PlannedQuery {
  const { ctx, src, tokens } = x;
  const sig = tokens.sig;
  const lower = db.toLowerCase();
  const edits: Edit[] = [];
  const values: unknown[] = [];
  const slots = new Map<string, number>();
  sig.forEach((t, i) => {
    if (
      isName(t) &&
      t.value.toLowerCase() === lower &&
      isOp(sig[i + 1], '.') &&
      !isOp(sig[i - 1], '.')
    ) {
      edits.push({ start: t.start, end: sig[i + 2]?.start ?? sig[i + 1].end, text: '' });
    } else if (t.kind === 'quoted' && t.quote === '`') {
      edits.push({ start: t.start, end: t.end, text: pgIdent(t.value) });
    } else if (t.kind === 'param') {
      if (!ctx.params || !(t.value in ctx.params)) {
        throw src.error(ERROR_CODES.BAD_INPUT, `Parameter ':${t.value}' has no value in params`);
      }
      let n = slots.get(t.value);
      if (n === undefined) {
        const v = ctx.params[t.value];
        values.push(v !== null && typeof v === 'object' ? JSON.stringify(v) : v);
        n = values.length;
        slots.set(t.value, n);
      }
      edits.push({ start: t.start, end: t.end, text: `$${n}` });
    }
  });
  // Tables of other databases cannot be read from PostgreSQL.
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i];
    if (!isName(t) || !isOp(sig[i + 1], '.') || isOp(sig[i - 1], '.')) continue;
    const other = env.catalog.databaseInfo(t.value);
    if (other && other.name.toLowerCase() !== lower) {
      throw src.error(
        ERROR_CODES.BAD_INPUT,
        `A statement that writes to integration '${db}' runs there as a whole, so it can only use that database's tables`,
        t.start,
      );
    }
  }
  const rw: Rewrite = applyEdits({ text: src.text, toSource: (o) => o }, edits);
  return { target: { kind: 'remote', db, values }, sql: rw.text, rw, src, steps: [] };
}

/**
 * `UPDATE t SET ... FROM (SELECT ...) AS p WHERE c = p.c`: MindsDB reads an unqualified `c` as
 * the updated table's column (it updates row by row), where DuckDB finds it ambiguous when the
 * subquery has a column of that name too. The updated table's name and columns, to qualify such
 * names with; null when the statement has no `FROM (subquery)`.
 */
async function updatedColumns(
  x: StatementInput,
  plain: PlannedQuery,
  spans: { start: number; end: number }[],
): Promise<{ table: string; columns: Set<string>; after: number } | null> {
  const sig = x.tokens.sig;
  if (sig[0]?.word !== 'UPDATE') return null;
  const fromSub = sig.findIndex(
    (t, i) =>
      t.word === 'FROM' &&
      isOp(sig[i + 1], '(') &&
      spans.some((sp) => sp.start === sig[i + 2]?.start),
  );
  const set = sig.findIndex((t) => t.word === 'SET');
  if (fromSub < 0 || set < 0) return null;
  const name: Tok[] = [];
  for (let i = 1; i < set && isName(sig[i]); i += 2) {
    name.push(sig[i]);
    if (!isOp(sig[i + 1], '.')) break;
  }
  if (name.length === 0 || name.length !== Math.ceil((set - 1) / 2)) return null;
  const quoted = name.map((t) => `"${t.value.replaceAll('"', '""')}"`).join('.');
  const r = await x.ctx.session.query(`SELECT * FROM ${quoted} LIMIT 0`, {
    db: plain.target.kind === 'duckdb' ? plain.target.db : undefined,
    signal: x.ctx.signal,
  });
  return {
    table: name[name.length - 1].value,
    columns: new Set(r.columns.map((c) => c.toLowerCase())),
    after: sig[set].end,
  };
}

/** Qualifies, in `text` (at `base` in the statement), the updated table's bare column names. */
function qualifyOwnColumns(
  text: string,
  base: number,
  own: { table: string; columns: Set<string>; after: number },
): Rewrite {
  const sig = new Tokens(text).sig;
  const edits: Edit[] = [];
  sig.forEach((t, i) => {
    if (
      base + t.start >= own.after &&
      isName(t) &&
      own.columns.has(t.value.toLowerCase()) &&
      !isOp(sig[i - 1], '.') &&
      !isOp(sig[i + 1], '.') &&
      !isOp(sig[i + 1], '(') &&
      !isSetTarget(sig, i)
    ) {
      edits.push({ start: t.start, end: t.start, text: `\`${own.table.replaceAll('`', '``')}\`.` });
    }
  });
  return applyEdits(unchanged(text), edits);
}

/** `c` in `SET c = ...` / `, c = ...`: an assignment's target, which DuckDB wants bare. */
const isSetTarget = (sig: Tok[], i: number) =>
  isOp(sig[i + 1], '=') && (sig[i - 1]?.word === 'SET' || isOp(sig[i - 1], ','));
