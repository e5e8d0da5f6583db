/**
 * SELECTs that read models, in three shapes, each ending in one ordinary DuckDB query so the
 * user's projection, aliases, expressions, ORDER BY and LIMIT keep DuckDB's full semantics:
 *
 * - the model tables (`p.models`, `p.models_versions`, `information_schema.models`) anywhere in a
 *   SELECT: each reference becomes a parenthesised VALUES relation, the rest goes to DuckDB;
 * - single prediction, `SELECT ... FROM p.m[.v] WHERE a = 1 AND b = 'x'`: the equalities form one
 *   input row; its prediction becomes a one-row VALUES relation under the model's alias;
 * - batch prediction, `SELECT ... FROM <table|(subquery)> AS t JOIN p.m[.v] AS m ...`: the data
 *   side (with WHERE / ORDER BY / LIMIT pushed down when they only concern it) is materialised
 *   in a scratch table, predicted in one columnar call, the predictions bulk-loaded into a second
 *   scratch table, and the user's SELECT runs over `data POSITIONAL JOIN predictions`.
 */
import type { Catalog } from '../catalog/catalog';
import { MODEL_COLUMNS } from '../models/models-table';
import type { ModelRegistry, ModelRef } from '../models/registry';
import { inputColumns, predictionColumns, type OutputColumn } from '../models/predict';
import type { JsonValue } from '../engine/values';
import { ServiceError, badInput } from '../errors';
import { Cursor } from './cursor';
import { quoteIdent, significant, tokenize, type Token } from './lexer';
import { NOT_ALIAS, dottedName, resolveRelation, type Relation } from './models-names';
import {
  dropScratchTables,
  ensureScratch,
  loadScratchTable,
  scratchTable,
} from '../engine/scratch';
import type { SqlService } from './service';
import type { ExecContext, Outcome, Statement, StatementHandler } from './types';
import { NON_CALL } from './keywords';
import { valuesRelation } from './virtual';

const AGGREGATES = new Set([
  'COUNT',
  'SUM',
  'AVG',
  'MIN',
  'MAX',
  'STDDEV',
  'STDDEV_POP',
  'STDDEV_SAMP',
  'VARIANCE',
  'VAR_POP',
  'VAR_SAMP',
  'MEDIAN',
  'MODE',
  'LIST',
  'ARRAY_AGG',
  'STRING_AGG',
  'GROUP_CONCAT',
  'FIRST',
  'LAST',
  'ANY_VALUE',
  'BOOL_AND',
  'BOOL_OR',
  'CORR',
  'COVAR_POP',
  'COVAR_SAMP',
  'QUANTILE',
  'QUANTILE_CONT',
  'QUANTILE_DISC',
  'APPROX_COUNT_DISTINCT',
  'APPROX_QUANTILE',
  'ARG_MIN',
  'ARG_MAX',
  'ARGMIN',
  'ARGMAX',
  'MAX_BY',
  'MIN_BY',
  'HISTOGRAM',
  'ENTROPY',
  'KURTOSIS',
  'SKEWNESS',
  'PRODUCT',
  'FSUM',
  'BIT_AND',
  'BIT_OR',
  'BIT_XOR',
  'REGR_SLOPE',
  'REGR_INTERCEPT',
  'REGR_R2',
  'COUNT_IF',
]);

const CLAUSES = [
  'WHERE',
  'GROUP',
  'HAVING',
  'WINDOW',
  'QUALIFY',
  'ORDER',
  'LIMIT',
  'OFFSET',
  'FETCH',
] as const;
type Clause = (typeof CLAUSES)[number];

interface NameRef {
  parts: string[];
  /** Token indexes (into the significant tokens) of the name's first and last token. */
  first: number;
  last: number;
}

const upper = (t: Token | undefined) => (t && t.kind === 'word' ? t.value.toUpperCase() : '');
const isP = (t: Token | undefined, p: string) => t?.kind === 'punct' && t.text === p;

/** Names in FROM / JOIN position at any depth, skipping FROM inside calls (EXTRACT(x FROM y)). */
function relationNames(tokens: Token[], src: string): NameRef[] {
  const out: NameRef[] = [];
  const calls: boolean[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (isP(t, '(')) {
      const prev = tokens[i - 1];
      calls.push(
        !!prev && (prev.kind === 'ident' || (prev.kind === 'word' && !NON_CALL.has(upper(prev)))),
      );
      continue;
    }
    if (isP(t, ')')) {
      calls.pop();
      continue;
    }
    const kw = upper(t);
    if ((kw === 'FROM' || kw === 'JOIN' || kw === 'UPDATE') && !calls[calls.length - 1]) {
      const next = tokens[i + 1];
      if (!next || (next.kind !== 'word' && next.kind !== 'ident')) continue;
      const c = new Cursor(tokens, src);
      c.i = i + 1;
      try {
        const parts = dottedName(c);
        out.push({ parts, first: i + 1, last: c.i - 1 });
      } catch {
        // not a name after all
      }
    }
  }
  return out;
}

/** Strips the "(line n, column m)" that points into SQL the user never wrote. */
function withoutPosition(err: unknown): never {
  if (err instanceof ServiceError) {
    throw new ServiceError(
      err.code,
      err.message.replace(/ \((statement at )?line \d+, column \d+\)$/, ''),
    );
  }
  throw err;
}

/** Runs generated SQL (backticks and :params converted) in the statement's database. */
async function runGenerated(svc: SqlService, text: string, ctx: ExecContext): Promise<Outcome> {
  const all = tokenize(text);
  const st: Statement = { text, all, tokens: significant(all), offset: 0, script: text };
  try {
    return await svc.runOnEngine(st, ctx);
  } catch (err) {
    return withoutPosition(err);
  }
}

interface FromItem {
  /** Source text of the relation (a dotted name or a parenthesised subquery), without alias. */
  text: string;
  parts: string[] | null;
  alias: string | null;
  rel: Relation | null;
}

interface TopSelect {
  projection: string;
  projectionTokens: Token[];
  items: FromItem[];
  /** Each top-level clause after FROM, with its full text (keyword included) and tokens. */
  clauses: { kw: Clause; text: string; tokens: Token[] }[];
}

function parseTopSelect(
  tokens: Token[],
  src: string,
  resolve: (parts: string[]) => Relation | null,
): TopSelect {
  const shapeError = () =>
    badInput(
      'A query that uses a model must be SELECT ... FROM model WHERE col = value AND ..., or SELECT ... FROM table AS t JOIN model AS m [WHERE ...] [ORDER BY ...] [LIMIT n]',
    );
  if (upper(tokens[0]) !== 'SELECT') throw shapeError();
  const marks: { kw: Clause | 'FROM'; i: number }[] = [];
  let depth = 0;
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i];
    if (isP(t, '(')) depth++;
    else if (isP(t, ')')) depth--;
    else if (depth === 0) {
      const kw = upper(t);
      if (kw === 'UNION' || kw === 'EXCEPT' || kw === 'INTERSECT') throw shapeError();
      if (kw === 'FROM' && !marks.some((m) => m.kw === 'FROM')) marks.push({ kw, i });
      else if ((CLAUSES as readonly string[]).includes(kw) && marks.length > 0)
        marks.push({ kw: kw as Clause, i });
    }
  }
  if (marks.length === 0 || marks[0].kw !== 'FROM') throw shapeError();
  const end = (k: number) => (k + 1 < marks.length ? marks[k + 1].i : tokens.length);
  const textOf = (a: number, b: number) =>
    a < b ? src.slice(tokens[a].start, tokens[b - 1].end) : '';
  const projection = textOf(1, marks[0].i);
  const clauses = marks.slice(1).map((m, k) => ({
    kw: m.kw as Clause,
    text: textOf(m.i, end(k + 1)),
    tokens: tokens.slice(m.i, end(k + 1)),
  }));

  const c = new Cursor(tokens.slice(marks[0].i + 1, end(0)), src);
  const item = (): FromItem => {
    const start = c.peek();
    if (!start) return c.fail('expected a table or model after FROM');
    let parts: string[] | null = null;
    if (c.isPunct('(')) c.parenthesized();
    else parts = dottedName(c, 'table name');
    const text = src.slice(start.start, c.tokens[c.i - 1].end);
    let alias: string | null = null;
    if (c.acceptWord('AS')) alias = c.namePart() ?? c.fail('expected an alias after AS');
    else {
      const t = c.peek();
      if (
        t &&
        (t.kind === 'ident' || (t.kind === 'word' && !NOT_ALIAS.has(t.value.toUpperCase())))
      ) {
        alias = t.value;
        c.i++;
      }
    }
    return { text, parts, alias, rel: parts ? resolve(parts) : null };
  };
  const items = [item()];
  while (!c.done()) {
    if (!c.acceptPunct(',')) {
      // Every row gets a prediction, so INNER, LEFT and CROSS joins all mean the same here.
      if (!c.acceptWord('INNER') && !c.acceptWord('CROSS') && c.acceptWord('LEFT'))
        c.acceptWord('OUTER');
      c.expectWord('JOIN');
    }
    items.push(item());
    if (c.isWord('ON') || c.isWord('USING')) {
      throw badInput(
        'A model join takes no ON/USING condition: every row of the table gets its own prediction',
      );
    }
  }
  return { projection, projectionTokens: tokens.slice(1, marks[0].i), items, clauses };
}

/** `a = 1 AND b = 'x'` (qualifiers ignored, double-quoted text is a string) as one input row. */
function whereRow(
  tokens: Token[],
  src: string,
  params: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  if (tokens.length === 0) return row;
  const c = new Cursor(tokens.slice(1), src);
  const bad = () =>
    badInput(
      "The WHERE clause of a prediction must be equalities joined by AND, e.g. WHERE sqft = 823 AND location = 'good'",
    );
  do {
    let name: string[];
    try {
      name = c.dottedName('column');
    } catch {
      throw bad();
    }
    if (!c.acceptPunct('=')) throw bad();
    const t = c.peek();
    let value: unknown;
    if (t?.kind === 'param') {
      if (!params || !(t.value in params))
        throw badInput(`Parameter ':${t.value}' has no value in params`);
      value = params[t.value];
      c.i++;
    } else {
      try {
        value = c.literal();
      } catch {
        throw bad();
      }
    }
    row[name[name.length - 1]] = value;
  } while (c.acceptWord('AND'));
  if (!c.done()) throw bad();
  return row;
}

/** Does this token list reference the model side (its alias, or a prediction-only column)? */
function touchesModel(tokens: Token[], modelAlias: string, modelOnly: Set<string>): boolean {
  const alias = modelAlias.toLowerCase();
  return tokens.some(
    (t, i) =>
      (t.kind === 'word' || t.kind === 'ident') &&
      ((t.value.toLowerCase() === alias && isP(tokens[i + 1], '.')) ||
        modelOnly.has(t.value.toLowerCase())),
  );
}

export function modelSelectHandler(svc: SqlService, models: ModelRegistry): StatementHandler {
  const catalog: Catalog = svc.catalog;
  const engine = catalog.engine;

  function mayMention(st: Statement): boolean {
    const first = upper(st.tokens[0]);
    if (first !== 'SELECT' && first !== 'WITH' && !isP(st.tokens[0], '(')) return false;
    return relationNames(st.tokens, st.text).some(({ parts }) =>
      parts.some((p) => {
        const l = p.toLowerCase();
        return l === 'models' || l === 'models_versions' || models.isModelName(p);
      }),
    );
  }

  /** Replaces model-table references with VALUES relations; returns the new text. */
  function rewriteVirtual(st: Statement, db: string): { text: string; changed: boolean } {
    const refs = relationNames(st.tokens, st.text);
    let out = '';
    let last = 0;
    let changed = false;
    for (const r of refs) {
      const rel = resolveRelation(r.parts, db, catalog, models);
      if (!rel || rel.kind !== 'virtual') continue;
      const start = st.tokens[r.first].start;
      const end = st.tokens[r.last].end;
      const next = st.tokens[r.last + 1];
      const hasAlias =
        upper(next) === 'AS' ||
        next?.kind === 'ident' ||
        (next?.kind === 'word' && !NOT_ALIAS.has(upper(next)));
      const rows = models.rows(rel.project);
      const alias = hasAlias ? '' : ` AS ${quoteIdent(r.parts[r.parts.length - 1])}`;
      out += st.text.slice(last, start) + `(${valuesRelation(MODEL_COLUMNS, rows)})${alias}`;
      last = end;
      changed = true;
    }
    return { text: out + st.text.slice(last), changed };
  }

  async function single(
    q: TopSelect,
    src: string,
    ref: ModelRef,
    alias: string,
    ctx: ExecContext,
  ): Promise<Outcome> {
    const where = q.clauses.find((c) => c.kw === 'WHERE');
    const row = whereRow(where?.tokens ?? [], src, ctx.params);
    const p = await models.predictColumns(
      ref,
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, [v]])),
      1,
    );
    const ins = inputColumns(p.description);
    const columns: OutputColumn[] = [
      ...ins,
      ...p.columns,
      { name: '__service_row_id', type: 'BIGINT' },
      { name: 'select_data_query', type: 'VARCHAR' },
      { name: 'when_data', type: 'VARCHAR' },
    ];
    const values: JsonValue[] = [
      ...ins.map((c) => p.inputs[c.name][0]),
      ...p.values.map((v) => v[0]),
      0,
      null,
      null,
    ];
    const tail = q.clauses
      .filter((c) => c.kw !== 'WHERE')
      .map((c) => c.text)
      .join(' ');
    const sql = `SELECT ${q.projection} FROM (${valuesRelation(columns, [values])}) AS ${quoteIdent(alias)} ${tail}`;
    return runGenerated(svc, sql, ctx);
  }

  async function batch(q: TopSelect, modelIdx: number, ctx: ExecContext): Promise<Outcome> {
    const mItem = q.items[modelIdx];
    const dItem = q.items[1 - modelIdx];
    const ref = (mItem.rel as Extract<Relation, { kind: 'model' }>).ref;
    const record = models.ready(ref);
    const desc = (await models.predictor(record)).description;
    const predCols = predictionColumns(desc);
    const modelAlias = mItem.alias ?? ref.name;
    const dataAlias =
      dItem.alias ?? (dItem.parts ? dItem.parts[dItem.parts.length - 1] : 'unnamed_subquery');
    const modelOnly = new Set(predCols.slice(1).map((c) => c.name.toLowerCase()));

    // What can run on the data side alone: WHERE without model references, and then ORDER BY /
    // LIMIT / OFFSET when nothing groups, aggregates or sorts by a prediction or an output alias.
    const clause = (kw: Clause) => q.clauses.find((c) => c.kw === kw);
    const where = clause('WHERE');
    const pushWhere = !where || !touchesModel(where.tokens, modelAlias, modelOnly);
    const outputAliases = new Set<string>();
    let aggregates = upper(q.projectionTokens[0]) === 'DISTINCT';
    q.projectionTokens.forEach((t, i) => {
      if (upper(t) === 'AS' && q.projectionTokens[i + 1])
        outputAliases.add(q.projectionTokens[i + 1].value.toLowerCase());
      if ((AGGREGATES.has(upper(t)) && isP(q.projectionTokens[i + 1], '(')) || upper(t) === 'OVER')
        aggregates = true;
    });
    const order = clause('ORDER');
    const pushTail =
      pushWhere &&
      !aggregates &&
      !q.clauses.some((c) => ['GROUP', 'HAVING', 'WINDOW', 'QUALIFY'].includes(c.kw)) &&
      (!order ||
        !(
          touchesModel(order.tokens, modelAlias, modelOnly) ||
          order.tokens.some(
            (t) =>
              (t.kind === 'word' || t.kind === 'ident') && outputAliases.has(t.value.toLowerCase()),
          )
        ));
    const pushed = new Set<Clause>();
    if (where && pushWhere) pushed.add('WHERE');
    if (pushTail)
      for (const kw of ['ORDER', 'LIMIT', 'OFFSET', 'FETCH'] as const)
        if (clause(kw)) pushed.add(kw);

    await ensureScratch(engine);
    const data = scratchTable('data');
    const preds = scratchTable('pred');
    try {
      const dataSql =
        `SELECT * FROM ${dItem.text}${dItem.alias ? ` AS ${quoteIdent(dItem.alias)}` : ''} ` +
        q.clauses
          .filter((c) => pushed.has(c.kw))
          .map((c) => c.text)
          .join(' ');
      await runGenerated(svc, `CREATE TABLE ${data.sql} AS ${dataSql}`, ctx);

      const head = await engine.query(`SELECT * FROM ${data.sql} LIMIT 0`);
      const wanted = new Set([...desc.inputs, desc.target].map((c) => c.toLowerCase()));
      const use = head.columns.filter((c) => wanted.has(c.toLowerCase()));
      const columns: Record<string, JsonValue[]> = Object.fromEntries(use.map((c) => [c, []]));
      let n = 0;
      if (use.length > 0) {
        const r = await engine.query(`SELECT ${use.map(quoteIdent).join(', ')} FROM ${data.sql}`, {
          maxRows: Number.MAX_SAFE_INTEGER,
          signal: ctx.signal,
        });
        n = r.rows.length;
        use.forEach((c, j) => {
          const col = new Array<JsonValue>(n);
          for (let i = 0; i < n; i++) col[i] = r.rows[i][j];
          columns[c] = col;
        });
      } else {
        n = Number((await engine.rows(`SELECT count(*) FROM ${data.sql}`))[0][0]);
      }
      const p = await models.predictColumns(ref, columns, n, { unknownColumns: 'ignore' });
      await loadScratchTable(engine, preds, p.columns, p.values, n);

      const d = `${data.sql} AS ${quoteIdent(dataAlias)}`;
      const m = `${preds.sql} AS ${quoteIdent(modelAlias)}`;
      const from = modelIdx === 0 ? `${m} POSITIONAL JOIN ${d}` : `${d} POSITIONAL JOIN ${m}`;
      const tail = q.clauses
        .filter((c) => !pushed.has(c.kw))
        .map((c) => c.text)
        .join(' ');
      return await runGenerated(svc, `SELECT ${q.projection} FROM ${from} ${tail}`, ctx);
    } finally {
      await dropScratchTables(engine, [data, preds]);
    }
  }

  return {
    name: 'model-select',
    match: mayMention,
    async run(st, ctx) {
      const v = rewriteVirtual(st, ctx.db);
      const text = v.text;
      const all = tokenize(text);
      const tokens = significant(all);
      const resolve = (parts: string[]) => resolveRelation(parts, ctx.db, catalog, models);
      const modelRefs = relationNames(tokens, text).filter(
        (r) => resolve(r.parts)?.kind === 'model',
      );
      if (modelRefs.length === 0) {
        if (!v.changed) return svc.runOnEngine(st, ctx);
        return runGenerated(svc, text, ctx);
      }
      const q = parseTopSelect(tokens, text, resolve);
      const modelIdxs = q.items.flatMap((it, i) => (it.rel?.kind === 'model' ? [i] : []));
      if (modelIdxs.length !== 1 || modelRefs.length !== 1) {
        throw badInput(
          'A query can use one model, at its top level: SELECT ... FROM model WHERE ..., or SELECT ... FROM table JOIN model',
        );
      }
      if (q.items.length > 2)
        throw badInput('A model can be joined with one table (or subquery) at a time');
      const item = q.items[modelIdxs[0]];
      const ref = (item.rel as Extract<Relation, { kind: 'model' }>).ref;
      if (q.items.length === 1) return single(q, text, ref, item.alias ?? ref.name, ctx);
      return batch(q, modelIdxs[0], ctx);
    },
  };
}
