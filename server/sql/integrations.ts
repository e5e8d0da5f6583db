/**
 * The SQL surface of integrations (DESIGN 3.5): `CREATE DATABASE name WITH ENGINE = 'postgres',
 * PARAMETERS = {...}`, `DROP DATABASE [IF EXISTS] name`, and the router that decides where a
 * statement touching a PostgreSQL integration runs:
 *
 * - only that integration's tables (`pg.t`, `pg.schema.t`, bare names after `USE pg`, and
 *   `pg (native SQL)`): the whole statement is pushed down to PostgreSQL with the `pg.` prefixes
 *   removed, so PostgreSQL plans it (filters, joins, aggregates, LIMIT run there);
 * - mixed with local tables: each PostgreSQL relation is fetched (only the columns the statement
 *   names, and its own WHERE conditions when they are simple) into a DuckDB scratch table, and
 *   DuckDB runs the statement over those.
 *
 * All state lives in the IntegrationRegistry; this module only parses and routes.
 */
import type { IntegrationRegistry } from '../integrations';
import { loadRemoteIntoScratch } from '../integrations/load';
import { pgIdent } from '../integrations/postgres';
import { ERROR_CODES, ServiceError, badInput } from '../errors';
import { Cursor } from './cursor';
import { lineColumn, quoteIdent, significant, tokenize, type Token } from './lexer';
import {
  applyEdits,
  backtickEdits,
  cteNames,
  isP,
  scanRelations,
  upper,
  type Edit,
  type RelationRef,
} from './integrations-refs';
import {
  dropScratchTables,
  ensureScratch,
  scratchTable,
  type ScratchTable,
} from '../engine/scratch';
import { toSqlResult, type EngineRouter, type SqlService } from './service';
import type { ExecContext, Outcome, Statement, StatementHandler } from './types';

const cursor = (st: Statement) => new Cursor(st.tokens, st.text);

/** `CREATE DATABASE` that belongs to an integration engine rather than a project. */
function createsIntegration(st: Statement): boolean {
  const c = cursor(st);
  if (!c.acceptWord('CREATE', 'DATABASE')) return false;
  const engineIdx = st.tokens.findIndex((t) => upper(t) === 'ENGINE');
  if (engineIdx === -1) return st.tokens.some((t) => upper(t) === 'PARAMETERS');
  const v = st.tokens
    .slice(engineIdx + 1)
    .find((t) => t.kind === 'string' || t.kind === 'ident' || t.kind === 'word');
  return v?.value.toLowerCase() !== 'mindsdb';
}

type JsonLike = string | number | boolean | null | JsonLike[] | { [k: string]: JsonLike };

/**
 * The PARAMETERS object: JSON-ish, with single- or double-quoted keys and strings, numbers,
 * true/false/null, nested objects and arrays, and a tolerated trailing comma.
 */
export function parseParameters(c: Cursor): Record<string, JsonLike> {
  const value = (): JsonLike => {
    if (c.isPunct('{')) return object();
    if (c.acceptPunct('[')) {
      const arr: JsonLike[] = [];
      while (!c.acceptPunct(']')) {
        arr.push(value());
        if (!c.acceptPunct(',') && !c.isPunct(']')) c.fail(`expected ',' or ']' in PARAMETERS`);
      }
      return arr;
    }
    // The lexer reads `:true` (no space after the colon) as a parameter token.
    return c.literal();
  };
  const object = (): Record<string, JsonLike> => {
    c.expectPunct('{');
    const out: Record<string, JsonLike> = {};
    while (!c.acceptPunct('}')) {
      const k = c.peek();
      if (!k || (k.kind !== 'string' && k.kind !== 'ident' && k.kind !== 'word'))
        c.fail(`expected a parameter name in PARAMETERS`);
      c.i++;
      const colon = c.peek();
      if (colon?.kind === 'param') {
        // `"ssl":true` -> the param token `:true`
        c.i++;
        const w = colon.value.toLowerCase();
        out[k!.value] =
          w === 'true' ? true : w === 'false' ? false : w === 'null' ? null : colon.value;
      } else {
        if (!c.acceptPunct(':') && !c.acceptPunct('='))
          c.fail(`expected ':' after '${k!.value}' in PARAMETERS`);
        out[k!.value] = value();
      }
      if (!c.acceptPunct(',') && !c.isPunct('}')) c.fail(`expected ',' or '}' in PARAMETERS`);
    }
    return out;
  };
  return object();
}

type Resolved =
  | {
      kind: 'remote';
      db: string;
      /** token index where the name inside the integration starts */ nameFrom: number;
    }
  | { kind: 'local' }
  | { kind: 'cte' };

const STOP_WHERE = new Set([
  'GROUP',
  'HAVING',
  'ORDER',
  'LIMIT',
  'OFFSET',
  'WINDOW',
  'QUALIFY',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'FETCH',
  'RETURNING',
]);
const SAFE_WORDS = new Set([
  'AND',
  'OR',
  'NOT',
  'IN',
  'IS',
  'NULL',
  'LIKE',
  'ILIKE',
  'BETWEEN',
  'TRUE',
  'FALSE',
]);
const SAFE_OPS = new Set([
  '=',
  '<>',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '(',
  ')',
  ',',
  '||',
]);

/**
 * Whether a WHERE conjunct can run in PostgreSQL before the join: only comparisons of the
 * relation's own qualified columns (`alias.col`) with literals, in operators both dialects share.
 * Unqualified names are refused: they might belong to the local table.
 */
function pushable(ts: Token[], alias: string): boolean {
  let qualified = 0;
  for (let k = 0; k < ts.length; k++) {
    const t = ts[k];
    if (t.kind === 'string' || t.kind === 'number') continue;
    if (t.kind === 'punct') {
      if (SAFE_OPS.has(t.text)) continue;
      return false;
    }
    if (t.kind === 'word' && SAFE_WORDS.has(upper(t))) continue;
    const col = ts[k + 2];
    if (
      (t.kind === 'word' || t.kind === 'ident') &&
      t.value.toLowerCase() === alias &&
      isP(ts[k + 1], '.') &&
      col &&
      (col.kind === 'word' || col.kind === 'ident') &&
      !isP(ts[k + 3], '.') &&
      !isP(ts[k + 3], '(')
    ) {
      qualified++;
      k += 2;
      continue;
    }
    return false;
  }
  return qualified > 0;
}

export function integrationHandlers(svc: SqlService, reg: IntegrationRegistry): StatementHandler[] {
  const catalog = svc.catalog;
  return [
    {
      name: 'create-integration',
      match: createsIntegration,
      async run(st) {
        const c = cursor(st);
        c.expectWord('CREATE', 'DATABASE');
        const ifNotExists = c.acceptWord('IF', 'NOT', 'EXISTS');
        const parts = c.dottedName('database name');
        if (parts.length !== 1) c.fail('a database name has no dots');
        c.acceptWord('WITH');
        let engine: string | undefined;
        let parameters: Record<string, unknown> = {};
        let sawParameters = false;
        while (!c.done()) {
          if (c.acceptWord('ENGINE')) {
            c.acceptPunct('=');
            const t = c.peek();
            if (!t || (t.kind !== 'string' && t.kind !== 'ident' && t.kind !== 'word'))
              c.fail(`expected an engine name`);
            engine = t!.value;
            c.i++;
          } else if (c.acceptWord('PARAMETERS')) {
            c.acceptPunct('=');
            if (!c.isPunct('{')) c.fail(`expected PARAMETERS = {"name": value, ...}`);
            parameters = parseParameters(c);
            sawParameters = true;
          } else if (!c.acceptPunct(',')) {
            c.fail(`expected ENGINE = '...' or PARAMETERS = {...}`);
          }
        }
        if (!engine)
          throw badInput(
            `CREATE DATABASE with PARAMETERS needs an ENGINE, e.g. WITH ENGINE = 'postgres', PARAMETERS = {...}`,
          );
        if (!sawParameters)
          throw badInput(`CREATE DATABASE ... WITH ENGINE = '${engine}' needs PARAMETERS = {...}`);
        await reg.create({ name: parts[0], engine, parameters, ifNotExists });
        return { result: { type: 'ok', affected_rows: null } };
      },
    },
    {
      name: 'drop-integration',
      match(st) {
        const c = cursor(st);
        if (!c.acceptWord('DROP', 'DATABASE')) return false;
        c.acceptWord('IF', 'EXISTS');
        const name = c.namePart();
        // Projects are the builtins' business (DROP DATABASE on a project drops the project).
        return !!name && !catalog.isProject(name);
      },
      async run(st) {
        const c = cursor(st);
        c.expectWord('DROP', 'DATABASE');
        const ifExists = c.acceptWord('IF', 'EXISTS');
        const parts = c.dottedName('database name');
        if (parts.length !== 1 || !c.done()) c.fail('unexpected text after the database name');
        await reg.drop(parts[0], ifExists);
        return { result: { type: 'ok', affected_rows: null } };
      },
    },
  ];
}

/**
 * The router SqlService consults before DuckDB (see SqlService.engineRouters): returns null for
 * statements that touch no PostgreSQL integration.
 */
export function integrationRouter(svc: SqlService, reg: IntegrationRegistry): EngineRouter {
  const catalog = svc.catalog;
  const engine = catalog.engine;

  /** The statement names a PostgreSQL integration, or runs with one as the current database. */
  const claims = (st: Statement, db: string) =>
    reg.isRemote(db) ||
    st.tokens.some((t) => (t.kind === 'word' || t.kind === 'ident') && reg.isRemote(t.value));

  async function routeIntegrations(st: Statement, ctx: ExecContext): Promise<Outcome | null> {
    if (!claims(st, ctx.db)) return null;
    const current = reg.isRemote(ctx.db) ? reg.record(ctx.db)!.name : null;

    const tokens = st.tokens;
    const refs = scanRelations(tokens, st.text, (n) => reg.isRemote(n));
    const ctes = cteNames(tokens);
    const resolve = (r: RelationRef): Resolved => {
      if (r.call) return { kind: 'local' };
      const p0 = r.parts[0];
      if (r.native) return { kind: 'remote', db: reg.record(p0)!.name, nameFrom: -1 };
      if (r.parts.length >= 2 && reg.isRemote(p0))
        return { kind: 'remote', db: reg.record(p0)!.name, nameFrom: r.first + 2 };
      if (r.parts.length === 1 && ctes.has(p0.toLowerCase())) return { kind: 'cte' };
      if (r.parts.length === 1 && reg.isRemote(p0) && !current) {
        throw badInput(
          `'${p0}' is a database; name one of its tables (${p0}.table) or send a native query: SELECT * FROM ${p0} (SELECT ...)`,
        );
      }
      if (
        current &&
        (r.parts.length === 1 || (r.parts.length === 2 && !catalog.databaseInfo(p0)))
      ) {
        return { kind: 'remote', db: current, nameFrom: r.first };
      }
      return { kind: 'local' };
    };
    const items = refs.map((ref) => ({ ref, res: resolve(ref) }));
    const remote = items.filter(
      (x): x is { ref: RelationRef; res: Extract<Resolved, { kind: 'remote' }> } =>
        x.res.kind === 'remote',
    );
    if (remote.length === 0) return null;
    const dbs = new Set(remote.map((x) => x.res.db.toLowerCase()));
    if (dbs.size === 1 && items.every((x) => x.res.kind !== 'local')) {
      return pushDown(st, ctx, remote[0].res.db, remote);
    }
    const writer = remote.find((x) => x.ref.write);
    if (writer) {
      throw badInput(
        `A statement that writes to integration '${writer.res.db}' runs there as a whole, so it can only use that database's tables`,
      );
    }
    return joinLocally(st, ctx, remote);
  }

  /** The statement's SQL for PostgreSQL: prefixes removed, backticks and :params converted. */
  async function pushDown(
    st: Statement,
    ctx: ExecContext,
    db: string,
    remote: { ref: RelationRef; res: Extract<Resolved, { kind: 'remote' }> }[],
  ): Promise<Outcome> {
    const tokens = st.tokens;
    const integ = reg.postgres(db);
    const opts = {
      maxRows: engine.defaults.maxRows,
      timeoutMs: engine.defaults.timeoutMs,
      signal: ctx.signal,
    };
    const where = (srcOffset: number) => {
      const pos = lineColumn(st.script, st.offset + srcOffset);
      return ` (line ${pos.line}, column ${pos.column})`;
    };

    // `SELECT * FROM pg (native SQL)` alone: the native SQL verbatim, whatever statement it is.
    const only = remote.length === 1 ? remote[0].ref : null;
    if (
      only?.native &&
      !only.alias &&
      only.first === 3 &&
      upper(tokens[0]) === 'SELECT' &&
      isP(tokens[1], '*') &&
      upper(tokens[2]) === 'FROM' &&
      only.native.close === tokens.length - 1
    ) {
      const from = tokens[only.native.open].end;
      const raw = st.text.slice(from, tokens[only.native.close].start);
      const lead = raw.length - raw.trimStart().length;
      const r = await integ.query(raw.trim(), { ...opts, position: (o) => where(from + lead + o) });
      return { result: toSqlResult(r) };
    }

    const nativeRanges = remote
      .filter((x) => x.ref.native)
      .map((x) => [tokens[x.ref.native!.open].end, tokens[x.ref.native!.close].start] as const);
    const inNative = (t: Token) => nativeRanges.some(([a, b]) => t.start >= a && t.end <= b);
    const edits: Edit[] = [];
    for (const { ref, res } of remote) {
      if (ref.native) {
        edits.push({
          start: tokens[ref.first].start,
          end: tokens[ref.native.open].start,
          text: '',
        });
        // PostgreSQL 15 requires an alias on a subquery in FROM.
        if (!ref.alias)
          edits.push({
            start: tokens[ref.native.close].end,
            end: tokens[ref.native.close].end,
            text: ` AS ${pgIdent(ref.parts[0])}`,
          });
      } else if (res.nameFrom === ref.first + 2) {
        edits.push({ start: tokens[ref.first].start, end: tokens[res.nameFrom].start, text: '' });
      }
    }
    // Column qualifiers written with the database prefix (`pg.t.col`).
    const lowerDb = db.toLowerCase();
    tokens.forEach((t, i) => {
      if (
        (t.kind === 'word' || t.kind === 'ident') &&
        t.value.toLowerCase() === lowerDb &&
        isP(tokens[i + 1], '.') &&
        !isP(tokens[i - 1], '.') &&
        tokens[i + 2] &&
        !inNative(t) &&
        !edits.some((e) => e.start === t.start)
      ) {
        edits.push({ start: t.start, end: tokens[i + 2].start, text: '' });
      }
    });
    edits.push(
      ...backtickEdits(st.all, 0, st.text.length).filter(
        (e) => !nativeRanges.some(([a, b]) => e.start >= a && e.end <= b),
      ),
    );
    const values: unknown[] = [];
    const slots = new Map<string, number>();
    for (const t of st.all) {
      if (t.kind !== 'param' || inNative(t)) continue;
      if (!ctx.params || !(t.value in ctx.params))
        throw badInput(`Parameter ':${t.value}' has no value in params`);
      let n = slots.get(t.value);
      if (n === undefined) {
        const v = ctx.params[t.value];
        values.push(v !== null && typeof v === 'object' ? JSON.stringify(v) : v);
        n = values.length;
        slots.set(t.value, n);
      }
      edits.push({ start: t.start, end: t.end, text: `$${n}` });
    }
    const out = applyEdits(st.text, edits);
    const r = await integ.query(out.text, {
      ...opts,
      values: values.length ? values : undefined,
      position: (o) => where(out.toSource(o)),
    });
    return { result: toSqlResult(r) };
  }

  /** Source text of [from, to) with backtick identifiers double-quoted (PostgreSQL's quoting). */
  function pgText(st: Statement, from: number, to: number): string {
    const edits = backtickEdits(st.all, from, to).map((e) => ({
      ...e,
      start: e.start - from,
      end: e.end - from,
    }));
    return applyEdits(st.text.slice(from, to), edits).text;
  }

  /** The simple conditions of the WHERE clause at the relation's own level, as PostgreSQL text. */
  function whereConjuncts(st: Statement, ref: RelationRef, alias: string): string[] {
    const ts = st.tokens;
    let depth = 0;
    let w = -1;
    for (let i = ref.end + 1; i < ts.length; i++) {
      if (isP(ts[i], '(')) depth++;
      else if (isP(ts[i], ')')) {
        if (depth === 0) break;
        depth--;
      } else if (depth === 0) {
        const kw = upper(ts[i]);
        if (kw === 'WHERE') {
          w = i;
          break;
        }
        if (STOP_WHERE.has(kw)) break;
      }
    }
    if (w < 0) return [];
    const spans: [number, number][] = [];
    let start = w + 1;
    let between = false;
    let i = w + 1;
    depth = 0;
    for (; i < ts.length; i++) {
      if (isP(ts[i], '(')) depth++;
      else if (isP(ts[i], ')')) {
        if (depth === 0) break;
        depth--;
      } else if (depth === 0) {
        const kw = upper(ts[i]);
        if (STOP_WHERE.has(kw)) break;
        if (kw === 'BETWEEN') between = true;
        else if (kw === 'AND') {
          if (between) between = false;
          else {
            spans.push([start, i]);
            start = i + 1;
          }
        }
      }
    }
    spans.push([start, i]);
    return spans
      .filter(([a, b]) => b > a && pushable(ts.slice(a, b), alias))
      .map(([a, b]) => `(${pgText(st, ts[a].start, ts[b - 1].end)})`);
  }

  /**
   * Fetches each PostgreSQL relation into a scratch table and lets DuckDB run the statement over
   * them. Scratch tables are dropped whatever happens.
   */
  async function joinLocally(
    st: Statement,
    ctx: ExecContext,
    remote: { ref: RelationRef; res: Extract<Resolved, { kind: 'remote' }> }[],
  ): Promise<Outcome> {
    const tokens = st.tokens;
    const timeoutMs = engine.defaults.timeoutMs;
    const nativeRanges = remote
      .filter((x) => x.ref.native)
      .map((x) => [x.ref.native!.open, x.ref.native!.close] as const);
    const used = new Set<string>();
    let star = false;
    tokens.forEach((t, i) => {
      if (nativeRanges.some(([a, b]) => i > a && i < b)) return;
      if (t.kind === 'word' || t.kind === 'ident') used.add(t.value.toLowerCase());
      if (isP(t, '*') && !isP(tokens[i - 1], '(')) star = true;
      if (upper(t) === 'NATURAL') star = true;
    });
    // A condition on the nullable side of an outer join must not filter before the join.
    const outer = tokens.some((t) => ['LEFT', 'RIGHT', 'FULL'].includes(upper(t)));

    await ensureScratch(engine);
    const tables: ScratchTable[] = [];
    try {
      const edits: Edit[] = [];
      for (const { ref, res } of remote) {
        const integ = reg.postgres(res.db);
        const table = scratchTable('remote');
        tables.push(table);
        const load = (sql: string) =>
          loadRemoteIntoScratch(engine, integ, sql, table, { timeoutMs, signal: ctx.signal });
        let name: string;
        if (ref.native) {
          name = ref.alias ?? ref.parts[0];
          await load(
            st.text.slice(tokens[ref.native.open].end, tokens[ref.native.close].start).trim(),
          );
        } else {
          name = ref.alias ?? ref.parts[ref.parts.length - 1];
          const relation = pgText(st, tokens[res.nameFrom].start, tokens[ref.last].end);
          const aliasText = ref.alias
            ? ` AS ${pgText(st, tokens[ref.end].start, tokens[ref.end].end)}`
            : '';
          const cols = await integ.columns(`SELECT * FROM ${relation}`, timeoutMs);
          const keep = star ? cols : cols.filter((c) => used.has(c.name.toLowerCase()));
          const list = (keep.length > 0 ? keep : cols.slice(0, 1))
            .map((c) => pgIdent(c.name))
            .join(', ');
          const base = `SELECT ${list} FROM ${relation}${aliasText}`;
          const conds = outer ? [] : whereConjuncts(st, ref, name.toLowerCase());
          if (conds.length > 0) {
            try {
              await load(`${base} WHERE ${conds.join(' AND ')}`);
            } catch (err) {
              // A condition PostgreSQL reads differently: fetch unfiltered, DuckDB filters anyway.
              if (err instanceof ServiceError && err.code === ERROR_CODES.TIMEOUT) throw err;
              await engine.query(`DROP TABLE IF EXISTS ${table.sql}`);
              await load(base);
            }
          } else {
            await load(base);
          }
        }
        const endTok = ref.native ? tokens[ref.native.close] : tokens[ref.last];
        edits.push({
          start: tokens[ref.first].start,
          end: endTok.end,
          text: `${table.sql}${ref.alias ? '' : ` AS ${quoteIdent(name)}`}`,
        });
      }
      const text = applyEdits(st.text, edits).text;
      const all = tokenize(text);
      const local: Statement = { text, all, tokens: significant(all), offset: 0, script: text };
      try {
        return await svc.runOnEngine(local, ctx);
      } catch (err) {
        // Positions would point into SQL the user never wrote.
        if (err instanceof ServiceError) {
          throw new ServiceError(
            err.code,
            err.message.replace(/ \((statement at )?line \d+, column \d+\)$/, ''),
          );
        }
        throw err;
      }
    } finally {
      await dropScratchTables(engine, tables);
    }
  }

  return { claims, run: routeIntegrations };
}
