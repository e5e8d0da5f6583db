/**
 * DuckDB's own parse tree of a query (`json_serialize_sql`), and the walk the planner reads it
 * with: every table reference at any depth (FROM lists, joins, subqueries in FROM and in
 * expressions, CTE bodies, both sides of set operations), the CTE names visible at each reference
 * (a CTE shadows any table of the same name), and the SELECT node that owns each reference, in
 * post-order so inner queries come before the queries that read them. `json_deserialize_sql`
 * turns (edited) trees back into SQL for the planner's own auxiliary queries.
 *
 * Offsets: DuckDB reports byte offsets into the UTF-8 text; everything here is converted to
 * JavaScript string offsets.
 */
import type { EngineSession } from '../../engine/session';

export type JNode = { [k: string]: unknown };

/** Big integers survive JSON.parse/JSON.stringify as marked strings (no silent rounding). */
const BIG = /([:[,]\s*)(-?\d{16,})(?=\s*[,}\]])/g;
export const BIG_MARK = '\u0000bignum:';

/** "No position": DuckDB's UINT64_MAX, kept exact through JSON. */
export const NO_LOCATION = `${BIG_MARK}18446744073709551615`;

function parseJson(text: string): JNode {
  return JSON.parse(text.replace(BIG, '$1"\\u0000bignum:$2"')) as JNode;
}

function stringifyJson(v: unknown): string {
  return JSON.stringify(v).replace(/"\\u0000bignum:(-?\d+)"/g, '$1');
}

/** Maps DuckDB's UTF-8 byte offsets in `text` to string offsets. */
function byteOffsets(text: string): (byte: number) => number {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return (b) => b;
  const map: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!;
    const bytes = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    for (let k = 0; k < bytes; k++) map.push(i);
    if (cp >= 0x10000) i++;
  }
  return (b) => (b < map.length ? map[b] : text.length);
}

export type ParseOutcome =
  | { ok: true; tree: JNode; node: JNode; offsets: (byte: number) => number }
  | { ok: false; kind: 'not-select' | 'parser' | 'other'; message: string; position?: number };

/**
 * DuckDB's trees of recently parsed texts (parsing is context-free, so a text always gives the
 * same tree): clients repeat their statements (polling a training's status, dashboards), and the
 * parse is a round trip to the engine. Kept as JSON text, since planning edits trees.
 */
const trees = new Map<string, string>();
const TREE_CACHE = { entries: 512, maxText: 8192 };

async function serialized(session: EngineSession, sql: string): Promise<string> {
  const hit = trees.get(sql);
  if (hit !== undefined) {
    trees.delete(sql);
    trees.set(sql, hit);
    return hit;
  }
  const r = await session.query('SELECT json_serialize_sql($sql::VARCHAR)', {
    params: { sql },
    internal: true,
    maxRows: 1,
  });
  const json = String(r.rows[0][0]);
  if (sql.length <= TREE_CACHE.maxText) {
    trees.set(sql, json);
    if (trees.size > TREE_CACHE.entries) trees.delete(trees.keys().next().value!);
  }
  return json;
}

/** Parses one query with DuckDB's parser. */
export async function parseQuery(session: EngineSession, sql: string): Promise<ParseOutcome> {
  const tree = parseJson(await serialized(session, sql));
  const offsets = byteOffsets(sql);
  if (tree.error) {
    const type = String(tree.error_type ?? '');
    const pos = tree.position === undefined ? undefined : offsets(Number(tree.position));
    return {
      ok: false,
      kind:
        type === 'parser'
          ? 'parser'
          : /only select/i.test(String(tree.error_message))
            ? 'not-select'
            : 'other',
      message: String(tree.error_message ?? 'cannot parse the statement'),
      position: pos,
    };
  }
  const statements = tree.statements as JNode[];
  return { ok: true, tree, node: statements[0].node as JNode, offsets };
}

/** SQL text of a query node (with the CTEs given), through DuckDB's own renderer. */
export async function renderQuery(session: EngineSession, node: JNode): Promise<string> {
  const tree = { error: false, statements: [{ node, named_param_map: [] }] };
  const r = await session.query('SELECT json_deserialize_sql($tree::JSON)', {
    params: { tree: stringifyJson(tree) },
    internal: true,
    maxRows: 1,
  });
  return String(r.rows[0][0]);
}

/** A query location as a byte offset, or undefined when DuckDB kept none. */
export function byteLocation(n: JNode | null | undefined): number | undefined {
  const v = n?.query_location;
  return typeof v === 'number' && v < 2 ** 53 ? v : undefined;
}

const QUERY_NODES = new Set([
  'SELECT_NODE',
  'SET_OPERATION_NODE',
  'RECURSIVE_CTE_NODE',
  'CTE_NODE',
  'BOUND_SUBQUERY_NODE',
]);

/** One CTE definition as DuckDB keeps it in a `cte_map`. */
export interface CteEntry {
  key: string;
  value: JNode;
}

export interface Scope {
  /** Lower-cased CTE names visible here. */
  names: ReadonlySet<string>;
  /** The CTE definitions visible here, outermost first. */
  ctes: readonly CteEntry[];
}

export interface SelectInfo {
  node: JNode;
  /** CTEs visible inside this SELECT (its own included). */
  scope: Scope;
  /** Base-table references of its FROM clause (not those inside subqueries). */
  tables: TableRefInfo[];
  /** Expressions (any depth, not inside subqueries) grouped by clause. */
  exprs: ExprInfo[];
  /** Nesting depth (0 for the statement's top query). */
  depth: number;
}

export interface TableRefInfo {
  node: JNode;
  /** The object and key holding `node` (to replace it in the tree). */
  holder: JNode | unknown[];
  key: string | number;
  /** Catalog, schema and table as written (empty parts dropped). */
  parts: string[];
  alias: string;
  /** Byte offset of the reference's first token. */
  location: number | undefined;
  scope: Scope;
  select: SelectInfo | null;
}

type Clause =
  'select' | 'from' | 'where' | 'group' | 'having' | 'qualify' | 'order' | 'limit' | 'other';

interface ExprInfo {
  node: JNode;
  holder: JNode | unknown[];
  key: string | number;
  clause: Clause;
  /** True for a top-level item of the select list. */
  selectItem: boolean;
}

export interface QueryIndex {
  /** SELECT nodes, inner before outer. */
  selects: SelectInfo[];
  tables: TableRefInfo[];
}

function extendScope(scope: Scope, entries: CteEntry[]): Scope {
  if (entries.length === 0) return scope;
  const names = new Set(scope.names);
  for (const e of entries) names.add(e.key.toLowerCase());
  return { names, ctes: [...scope.ctes, ...entries] };
}

const cteEntries = (node: JNode): CteEntry[] =>
  (((node.cte_map as JNode | undefined)?.map as CteEntry[] | undefined) ?? []).filter(
    (e) => e && typeof e.key === 'string',
  );

/** Indexes a parsed query: its SELECT nodes and every base-table reference, with scopes. */
export function indexQuery(root: JNode, outer: Scope = { names: new Set(), ctes: [] }): QueryIndex {
  const out: QueryIndex = { selects: [], tables: [] };

  const queryNode = (node: JNode, scope: Scope, depth: number) => {
    const entries = cteEntries(node);
    entries.forEach((e, i) => {
      const body = (e.value.query as JNode | undefined)?.node as JNode | undefined;
      if (!body) return;
      const own = body.type === 'RECURSIVE_CTE_NODE' ? [e] : [];
      queryNode(body, extendScope(scope, [...entries.slice(0, i), ...own]), depth + 1);
    });
    const inner = extendScope(scope, entries);
    if (node.type === 'SELECT_NODE') {
      const sel: SelectInfo = { node, scope: inner, tables: [], exprs: [], depth };
      tableRef(node.from_table as JNode, node, 'from_table', inner, sel, depth);
      const clauses: [string, Clause][] = [
        ['select_list', 'select'],
        ['where_clause', 'where'],
        ['group_expressions', 'group'],
        ['having', 'having'],
        ['qualify', 'qualify'],
        ['modifiers', 'order'],
      ];
      for (const [k, clause] of clauses) {
        const v = node[k];
        if (Array.isArray(v)) {
          v.forEach((item, i) => {
            if (k === 'modifiers') modifier(item as JNode, inner, sel, depth);
            else expr(item, v, i, clause, inner, sel, depth, k === 'select_list');
          });
        } else if (v && typeof v === 'object') expr(v, node, k, clause, inner, sel, depth, false);
      }
      out.selects.push(sel);
      return;
    }
    // Set operations, recursive CTEs and anything else: every query node below, same scope.
    generic(node, inner, null, depth, 'other');
  };

  const modifier = (m: JNode, scope: Scope, sel: SelectInfo, depth: number) => {
    const clause: Clause =
      m.type === 'LIMIT_MODIFIER' || m.type === 'LIMIT_PERCENT_MODIFIER'
        ? 'limit'
        : m.type === 'ORDER_MODIFIER'
          ? 'order'
          : 'other';
    for (const [k, v] of Object.entries(m)) {
      if (k === 'type') continue;
      if (Array.isArray(v)) v.forEach((x, i) => expr(x, v, i, clause, scope, sel, depth, false));
      else if (v && typeof v === 'object') expr(v, m, k, clause, scope, sel, depth, false);
    }
  };

  const expr = (
    v: unknown,
    holder: JNode | unknown[],
    key: string | number,
    clause: Clause,
    scope: Scope,
    sel: SelectInfo | null,
    depth: number,
    selectItem: boolean,
  ) => {
    if (!v || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      v.forEach((x, i) => expr(x, v, i, clause, scope, sel, depth, false));
      return;
    }
    const n = v as JNode;
    if (typeof n.class === 'string') {
      sel?.exprs.push({ node: n, holder, key, clause, selectItem });
      if (n.class === 'SUBQUERY') {
        const q = (n.subquery as JNode | undefined)?.node as JNode | undefined;
        if (q) queryNode(q, scope, depth + 1);
        if (n.child) expr(n.child, n, 'child', clause, scope, sel, depth, false);
        return;
      }
      for (const [k, x] of Object.entries(n)) {
        if (x && typeof x === 'object') expr(x, n, k, clause, scope, sel, depth, false);
      }
      return;
    }
    if (typeof n.type === 'string' && QUERY_NODES.has(n.type)) {
      queryNode(n, scope, depth + 1);
      return;
    }
    if ((n.node as JNode | undefined)?.type && QUERY_NODES.has((n.node as JNode).type as string)) {
      queryNode(n.node as JNode, scope, depth + 1);
      return;
    }
    for (const [k, x] of Object.entries(n)) expr(x, n, k, clause, scope, sel, depth, false);
  };

  const tableRef = (
    ref: JNode | null | undefined,
    holder: JNode | unknown[],
    key: string | number,
    scope: Scope,
    sel: SelectInfo | null,
    depth: number,
  ) => {
    if (!ref || typeof ref !== 'object') return;
    switch (ref.type) {
      case 'BASE_TABLE': {
        const parts = [ref.catalog_name, ref.schema_name, ref.table_name]
          .map((p) => String(p ?? ''))
          .filter((p) => p !== '');
        const info: TableRefInfo = {
          node: ref,
          holder,
          key,
          parts,
          alias: String(ref.alias ?? ''),
          location: byteLocation(ref),
          scope,
          select: sel,
        };
        out.tables.push(info);
        sel?.tables.push(info);
        return;
      }
      case 'JOIN':
        tableRef(ref.left as JNode, ref, 'left', scope, sel, depth);
        tableRef(ref.right as JNode, ref, 'right', scope, sel, depth);
        if (ref.condition) expr(ref.condition, ref, 'condition', 'from', scope, sel, depth, false);
        return;
      case 'SUBQUERY': {
        const q = (ref.subquery as JNode | undefined)?.node as JNode | undefined;
        if (q) queryNode(q, scope, depth + 1);
        return;
      }
      default:
        generic(ref, scope, sel, depth, 'from');
    }
  };

  /** Anything else (table functions, VALUES, PIVOT, SHOW, set operations): look inside. */
  const generic = (
    v: unknown,
    scope: Scope,
    sel: SelectInfo | null,
    depth: number,
    clause: Clause,
  ) => {
    if (!v || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) generic(x, scope, sel, depth, clause);
      return;
    }
    const n = v as JNode;
    for (const [k, x] of Object.entries(n)) {
      // CTE bodies were visited with their own scopes.
      if (!x || typeof x !== 'object' || k === 'cte_map') continue;
      const c = x as JNode;
      if (!Array.isArray(x) && typeof c.type === 'string' && QUERY_NODES.has(c.type)) {
        queryNode(c, scope, depth + 1);
      } else if (!Array.isArray(x) && typeof c.class === 'string') {
        expr(c, n, k, clause, scope, sel, depth, false);
      } else if (
        !Array.isArray(x) &&
        typeof c.type === 'string' &&
        'alias' in c &&
        'query_location' in c
      ) {
        tableRef(c, n, k, scope, sel, depth);
      } else generic(x, scope, sel, depth, clause);
    }
  };

  queryNode(root, outer, 0);
  return out;
}

/** Visits every expression node under `v` (not descending into subqueries). */
export function forEachExpr(v: unknown, fn: (n: JNode) => void): void {
  if (!v || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    for (const x of v) forEachExpr(x, fn);
    return;
  }
  const n = v as JNode;
  if (typeof n.class === 'string') {
    fn(n);
    if (n.class === 'SUBQUERY') return;
  }
  for (const x of Object.values(n)) if (x && typeof x === 'object') forEachExpr(x, fn);
}

/** Splits an AND tree into its conjuncts (with their holders, for replacement). */
export function conjuncts(
  n: JNode | null | undefined,
  holder: JNode | unknown[],
  key: string | number,
): { node: JNode; holder: JNode | unknown[]; key: string | number }[] {
  if (!n) return [];
  if (n.type === 'CONJUNCTION_AND' && Array.isArray(n.children)) {
    return (n.children as JNode[]).flatMap((c, i) => conjuncts(c, n.children as unknown[], i));
  }
  return [{ node: n, holder, key }];
}

/** A constant TRUE expression node. */
export function trueNode(): JNode {
  return {
    class: 'CONSTANT',
    type: 'VALUE_CONSTANT',
    alias: '',
    query_location: NO_LOCATION,
    value: { type: { id: 'BOOLEAN', type_info: null }, is_null: false, value: true },
  };
}
