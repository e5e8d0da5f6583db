/**
 * Statements that are DuckDB's SQL: queries go through the planner; any other statement (DDL,
 * UPDATE, COPY, ...) goes to DuckDB with the lexical dialect applied, or, when it writes a table of
 * a PostgreSQL integration, to PostgreSQL whole with the database prefix removed.
 */
import { ERROR_CODES } from '../../errors';
import { pgIdent } from '../../integrations/postgres';
import { toDuckText } from '../syntax/dialect';
import { applyEdits, type Edit, type Rewrite } from '../syntax/source';
import { isName, isOp, type Tok } from '../syntax/tokens';
import { NotAQuery, planQuery, type PlannedQuery } from '../plan/query';
import type { StatementInput, StatementOutput } from './output';
import type { SqlService } from '../service';

export async function queryStatement(env: SqlService, x: StatementInput): Promise<StatementOutput> {
  try {
    const planned = await planQuery(
      env,
      { text: x.src.text, start: 0 },
      x.src,
      x.ctx,
      x.ctx.db,
      x.tokens,
    );
    return { kind: 'query', planned };
  } catch (err) {
    if (!(err instanceof NotAQuery)) throw err;
  }
  return { kind: 'query', planned: duckStatement(env, x) };
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
function duckStatement(env: SqlService, x: StatementInput): PlannedQuery {
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
  return { target: { kind: 'duckdb', db: engineDb }, sql: duck.rw.text, rw: duck.rw, src };
}

/** The statement for PostgreSQL: `db.` prefixes removed, backticks double-quoted, `$n` params. */
function remoteStatement(env: SqlService, x: StatementInput, db: string): PlannedQuery {
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
  return { target: { kind: 'remote', db, values }, sql: rw.text, rw, src };
}
