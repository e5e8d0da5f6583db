/**
 * PostgreSQL integrations in the planner:
 *
 * - a query whose every table is in one PostgreSQL integration (`pg.t`, `pg.schema.t`, bare names
 *   after `USE pg`, `pg (native SQL)`) runs there whole, with the `pg.` prefixes removed, so
 *   PostgreSQL plans it (filters, joins, aggregates, LIMIT run there); a lone
 *   `SELECT * FROM pg (native SQL)` sends the native SQL verbatim;
 * - otherwise each PostgreSQL table is fetched into a TEMP table of the request, with only the
 *   columns the query names and its own simple WHERE conditions, and DuckDB runs the rest.
 */
import { pgIdent } from '../../integrations/postgres';
import { remoteTempColumns } from '../../integrations/load';
import { ERROR_CODES } from '../../errors';
import type { NativeQuery } from '../syntax/dialect';
import { applyEdits, type Edit, type Rewrite } from '../syntax/source';
import { Tokens, isOp } from '../syntax/tokens';
import {
  NO_LOCATION,
  conjuncts,
  forEachExpr,
  renderQuery,
  type JNode,
  type TableRefInfo,
} from '../syntax/tree';
import type { Resolved } from './names';
import type { PlannedQuery } from './steps';
import { PlanState, selectNode } from './state';

/** The one PostgreSQL integration every table of the query is in, or null. */
export function readsOneIntegration(st: PlanState, natives: NativeQuery[]): string | null {
  let db: string | null = null;
  for (const t of st.index.tables) {
    const r = st.resolved.get(t.node)!;
    let here: string;
    if (r.kind === 'remote') here = r.db;
    else if (r.kind === 'native') {
      const name = st.env.catalog.databaseInfo(natives[r.index].db)?.name;
      if (!name || !st.env.integrations.isRemote(name)) return null;
      here = name;
    } else if (r.kind === 'cte') continue;
    else return null;
    if (db && db.toLowerCase() !== here.toLowerCase()) return null;
    db = here;
  }
  return db;
}

const pgName = (s: string) => (/^[a-z_][a-z0-9_]*$/.test(s) ? s : pgIdent(s));

/** The whole query for PostgreSQL: prefixes removed, native queries inlined, `$n` parameters. */
export function pushDown(st: PlanState, db: string, natives: NativeQuery[]): PlannedQuery {
  const lower = db.toLowerCase();
  const sig = st.tokens.sig;
  const only = st.index.tables.length === 1 ? st.index.tables[0] : null;
  const onlyNative = only && st.resolved.get(only.node)?.kind === 'native' ? only : null;
  if (onlyNative && isSelectStarOf(st, onlyNative)) {
    const n =
      natives[(st.resolved.get(onlyNative.node) as Extract<Resolved, { kind: 'native' }>).index];
    const rw: Rewrite = { text: n.sql, toSource: (o) => n.start + o };
    return withPgParams(st, db, rw);
  }
  for (const t of st.index.tables) {
    const r = st.resolved.get(t.node)!;
    const at = st.loc(t.node);
    if (at === undefined) continue;
    const span = st.nameSpan(at)!;
    if (r.kind === 'native') {
      const n = natives[r.index];
      st.edit(span.start, span.end, `(${n.sql})${t.alias ? '' : ` AS ${pgIdent(n.db)}`}`);
    } else if (r.kind === 'remote') {
      const i = st.tokens.indexAt(span.start);
      const first = sig[i];
      if (first.value.toLowerCase() === lower && isOp(sig[i + 1], '.')) {
        st.edit(first.start, sig[i + 2].start, '');
      } else if (t.parts.length !== r.name.length && t.parts.length === 1) {
        st.edit(span.start, span.end, r.name.map(pgName).join('.'));
      }
    }
  }
  // Column qualifiers written with the database: pg.t.col.
  for (const sel of st.index.selects) {
    for (const e of sel.exprs) {
      const names = e.node.column_names as string[] | undefined;
      if (e.node.class !== 'COLUMN_REF' || !names || names.length < 3) continue;
      if (names[0].toLowerCase() !== lower) continue;
      const at = st.loc(e.node);
      if (at === undefined) continue;
      const i = st.tokens.indexAt(at);
      if (isOp(sig[i + 1], '.') && sig[i + 2]) st.edit(sig[i].start, sig[i + 2].start, '');
    }
  }
  return withPgParams(st, db, applyEdits(st.rw, st.edits));
}

function isSelectStarOf(st: PlanState, t: TableRefInfo): boolean {
  const sel = t.select;
  if (!sel || st.index.selects.length !== 1 || t.alias) return false;
  const n = sel.node;
  const list = n.select_list as JNode[];
  return (
    list.length === 1 &&
    list[0].class === 'STAR' &&
    !(list[0].relation_name as string) &&
    !n.where_clause &&
    (n.modifiers as unknown[]).length === 0 &&
    (n.group_expressions as unknown[]).length === 0 &&
    n.from_table === t.node
  );
}

/** Turns DuckDB's `$name` parameters into PostgreSQL's `$1, $2, ...` with their values. */
function withPgParams(st: PlanState, db: string, rw: Rewrite): PlannedQuery {
  const tokens = new Tokens(rw.text);
  const values: unknown[] = [];
  const slots = new Map<string, number>();
  const edits: Edit[] = [];
  for (const t of tokens.sig) {
    const name = t.kind === 'placeholder' ? t.raw.slice(1) : t.kind === 'param' ? t.value : null;
    if (name === null || /^\d+$/.test(name)) continue;
    if (!st.ctx.params || !(name in st.ctx.params)) {
      throw st.src.error(ERROR_CODES.BAD_INPUT, `Parameter ':${name}' has no value in params`);
    }
    let n = slots.get(name);
    if (n === undefined) {
      const v = st.ctx.params[name];
      values.push(v !== null && typeof v === 'object' ? JSON.stringify(v) : v);
      n = values.length;
      slots.set(name, n);
    }
    edits.push({ start: t.start, end: t.end, text: `$${n}` });
  }
  const out = applyEdits(rw, edits);
  return { target: { kind: 'remote', db, values }, sql: out.text, rw: out, src: st.src, steps: [] };
}

const PUSHABLE_FUNCTIONS = new Set(['~~', '!~~', '~~*', '!~~*', '+', '-', '*', '/', '%']);
const PUSHABLE_CONSTANTS = new Set([
  'VARCHAR',
  'INTEGER',
  'BIGINT',
  'DOUBLE',
  'DECIMAL',
  'BOOLEAN',
  'HUGEINT',
  'FLOAT',
  'SMALLINT',
  'TINYINT',
]);

/** Can this condition run in PostgreSQL before the join? Only `alias.col` against literals. */
function pushable(n: JNode, alias: string): boolean {
  let ok = true;
  let columns = 0;
  forEachExpr(n, (x) => {
    switch (x.class) {
      case 'COMPARISON':
      case 'CONJUNCTION':
      case 'BETWEEN':
        return;
      case 'OPERATOR':
        if (
          ![
            'OPERATOR_NOT',
            'OPERATOR_IS_NULL',
            'OPERATOR_IS_NOT_NULL',
            'COMPARE_IN',
            'COMPARE_NOT_IN',
          ].includes(String(x.type))
        )
          ok = false;
        return;
      case 'CONSTANT': {
        const v = x.value as JNode;
        if (!v.is_null && !PUSHABLE_CONSTANTS.has(String((v.type as JNode).id))) ok = false;
        return;
      }
      case 'FUNCTION':
        if (!PUSHABLE_FUNCTIONS.has(String(x.function_name))) ok = false;
        return;
      case 'COLUMN_REF': {
        const names = x.column_names as string[];
        if (names.length === 2 && names[0].toLowerCase() === alias) columns++;
        else ok = false;
        return;
      }
      default:
        ok = false;
    }
  });
  return ok && columns > 0;
}

/** SQL text of an expression, rendered by DuckDB. */
async function renderExpr(st: PlanState, n: JNode): Promise<string> {
  const sql = await renderQuery(
    st.ctx.session,
    selectNode({
      selectList: [n],
      from: { type: 'EMPTY', alias: '', sample: null, query_location: NO_LOCATION },
    }),
  );
  return sql.replace(/^SELECT /, '');
}

/**
 * The columns a query names, and the inputs and target of the models it joins (lower case); null
 * when it may use all of a relation's columns.
 */
async function namedColumns(st: PlanState, alias: string): Promise<Set<string> | null> {
  const names = new Set<string>();
  // A model reads its inputs (and its target, when the data has it) by name from its data side,
  // whatever the query names; a forecast reads its history's columns: all of them.
  for (const t of st.index.tables) {
    const r = st.resolved.get(t.node);
    if (r?.kind !== 'model') continue;
    try {
      const desc = (await st.env.models.predictor(st.env.models.ready(r.ref))).description;
      if (desc.timeseries) return null;
      for (const c of [...desc.inputs, desc.target]) names.add(c.toLowerCase());
    } catch {
      // Not ready, or no model: planning the join says so; every column meanwhile.
      return null;
    }
  }
  let all = false;
  for (const sel of st.index.selects) {
    for (const e of sel.exprs) {
      const n = e.node;
      if (n.class === 'STAR') {
        const rel = String(n.relation_name ?? '').toLowerCase();
        if (!rel || rel === alias) all = true;
      } else if (n.class === 'COLUMN_REF') {
        const parts = n.column_names as string[];
        if (parts.length === 1 && parts[0].toLowerCase() === alias) all = true;
        names.add(parts[parts.length - 1].toLowerCase());
      }
    }
    forEachJoin(sel.node.from_table as JNode, (j) => {
      if (j.ref_type === 'NATURAL') all = true;
      for (const u of (j.using_columns as string[]) ?? []) names.add(u.toLowerCase());
    });
  }
  return all ? null : names;
}

function forEachJoin(ref: JNode | null | undefined, fn: (j: JNode) => void): void {
  if (!ref || ref.type !== 'JOIN') return;
  fn(ref);
  forEachJoin(ref.left as JNode, fn);
  forEachJoin(ref.right as JNode, fn);
}

function hasOuterJoin(ref: JNode | null | undefined): boolean {
  let outer = false;
  forEachJoin(ref, (j) => {
    if (j.join_type !== 'INNER') outer = true;
  });
  return outer;
}

/**
 * Plans the fetch of a PostgreSQL table into a TEMP table: the named columns, the pushable
 * conditions (the step falls back to the unfiltered rows when PostgreSQL refuses a condition).
 */
export async function fetchRemote(
  st: PlanState,
  t: TableRefInfo,
  r: Extract<Resolved, { kind: 'remote' }>,
): Promise<string> {
  const integ = st.env.integrations.postgres(r.db);
  const timeoutMs = st.env.integrations.defaults.timeoutMs;
  const relation = r.name.map(pgName).join('.');
  const alias = (t.alias || r.name[r.name.length - 1]).toLowerCase();
  const aliasText = t.alias ? ` AS ${pgName(t.alias)}` : '';
  const cols = await integ.columns(`SELECT * FROM ${relation}`, timeoutMs);
  const named = await namedColumns(st, alias);
  const keep = named ? cols.filter((c) => named.has(c.name.toLowerCase())) : cols;
  const kept = keep.length > 0 ? keep : cols.slice(0, 1);
  const base = `SELECT ${kept.map((c) => pgIdent(c.name)).join(', ')} FROM ${relation}${aliasText}`;
  const conds: string[] = [];
  const sel = t.select;
  if (sel && !hasOuterJoin(sel.node.from_table as JNode)) {
    for (const c of conjuncts(sel.node.where_clause as JNode, sel.node, 'where_clause')) {
      if (pushable(c.node, alias)) conds.push(await renderExpr(st, c.node));
    }
  }
  const into = st.tempName('remote');
  await st.addStep(
    {
      kind: 'fetch',
      db: r.db,
      source: `${r.db}.${r.name.join('.')}`,
      sql: conds.length === 0 ? base : `${base} WHERE ${conds.join(' AND ')}`,
      ...(conds.length > 0 ? { unfiltered: base } : {}),
      into,
    },
    { columns: remoteTempColumns(kept) },
  );
  return into;
}

/** Plans the fetch of a native PostgreSQL query's rows into a TEMP table. */
export async function fetchNative(st: PlanState, db: string, n: NativeQuery): Promise<string> {
  const integ = st.env.integrations.postgres(db);
  const cols = await integ.columns(n.sql, st.env.integrations.defaults.timeoutMs);
  const into = st.tempName('native');
  await st.addStep(
    { kind: 'fetch', db, source: `native query on ${db}`, sql: n.sql, into },
    { columns: remoteTempColumns(cols) },
  );
  return into;
}
