/**
 * Row order by construction. MindsDB answers a model JOIN in the data side's order (people zip
 * predictions with their own rows by position), so the data side's row position is carried
 * through every query that reads it, explicitly, instead of hoping DuckDB keeps an order its
 * hash joins do not keep:
 *
 * - a data item joined with a model gets a position: `row_number() OVER ()` over its own scan
 *   (what `SELECT * FROM data` returns, in that order), or the key an inner query exports;
 * - a SELECT whose rows follow a key (a model join, or one FROM item that exports a key) either
 *   ends with `ORDER BY key` (the statement's own query; after the user's ORDER BY, as the tie
 *   breaker), or exports the key as hidden columns to the query reading it (a FROM subquery, a
 *   CTE, a branch of UNION ALL), and orders by it before its own LIMIT;
 * - UNION ALL numbers its branches: rows come branch after branch, each in its key's order;
 * - `*` leaves the planner's columns out everywhere.
 *
 * Queries whose order is not the data's (GROUP BY, aggregates, DISTINCT, UNION/EXCEPT/INTERSECT
 * without ALL) keep no key, as in MindsDB, unless they say ORDER BY.
 */
import { quoteIdent } from '../../engine/quote';
import { isName, isOp, type Tok } from '../syntax/tokens';
import { NO_LOCATION, byteLocation, type JNode, type SelectInfo } from '../syntax/tree';
import { columnRef, selectNode, starNode, type KeyPart, type PlanState, type Span } from './state';

const QUERY_NODES = new Set(['SELECT_NODE', 'SET_OPERATION_NODE', 'RECURSIVE_CTE_NODE']);

/** Where a query node stands, and so what its order must do. */
type Role =
  | { kind: 'root' }
  /** A FROM subquery or a CTE body read in some FROM: exports its key. */
  | { kind: 'from' }
  /** A CTE body no FROM reads (only expressions do), or an expression subquery: nothing. */
  | { kind: 'none' }
  /** A branch of a set operation (the set operation decides). */
  | { kind: 'branch'; setop: JNode };

interface Place {
  node: JNode;
  role: Role;
}

/** The node a CTE name in FROM reads: the innermost visible definition of that name. */
function cteBody(st: PlanState, ref: JNode, scopeCtes: readonly { key: string; value: JNode }[]) {
  const name = String(ref.table_name ?? '').toLowerCase();
  for (let i = scopeCtes.length - 1; i >= 0; i--) {
    if (scopeCtes[i].key.toLowerCase() === name) {
      return ((scopeCtes[i].value.query as JNode | undefined)?.node as JNode | undefined) ?? null;
    }
  }
  return null;
}

/**
 * Every query node of the statement in post-order (inner before outer, CTE bodies before the
 * queries that read them), with its role.
 */
export function queryPlaces(st: PlanState, root: JNode): Place[] {
  const out: Place[] = [];
  const roles = new Map<JNode, Role>();
  // CTE bodies read by some FROM (a CTE reference resolves to the innermost visible definition).
  const readInFrom = new Set<JNode>();
  for (const t of st.index.tables) {
    if (st.resolved.get(t.node)?.kind !== 'cte' && !isCteName(t)) continue;
    const body = cteBody(st, t.node, t.scope.ctes);
    if (body) readInFrom.add(body);
  }

  const visit = (node: JNode, role: Role) => {
    for (const e of cteEntriesOf(node)) {
      const body = (e.value.query as JNode | undefined)?.node as JNode | undefined;
      if (body) visit(body, { kind: 'none' });
    }
    if (node.type === 'SELECT_NODE') {
      fromItems(node.from_table as JNode, (item) => {
        if (item.type === 'SUBQUERY') {
          const q = (item.subquery as JNode | undefined)?.node as JNode | undefined;
          if (q) visit(q, { kind: 'from' });
        } else nested(item);
      });
      for (const k of [
        'select_list',
        'where_clause',
        'group_expressions',
        'having',
        'qualify',
        'modifiers',
      ]) {
        nested(node[k]);
      }
      const joins: JNode[] = [];
      fromItems(node.from_table as JNode, () => undefined, joins);
      for (const j of joins) nested(j.condition);
    } else if (node.type === 'SET_OPERATION_NODE') {
      visit(node.left as JNode, { kind: 'branch', setop: node });
      visit(node.right as JNode, { kind: 'branch', setop: node });
      nested(node.modifiers);
    } else nested(node);
    roles.set(node, role);
    out.push({ node, role });
  };
  /** Query nodes inside expressions (and anything else): no order of theirs reaches a reader. */
  const nested = (v: unknown) => {
    if (!v || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) nested(x);
      return;
    }
    const n = v as JNode;
    if (typeof n.type === 'string' && QUERY_NODES.has(n.type) && !('class' in n)) {
      visit(n, { kind: 'none' });
      return;
    }
    for (const [k, x] of Object.entries(n)) if (k !== 'cte_map') nested(x);
  };
  visit(root, { kind: 'root' });
  // A CTE body that some FROM reads exports its key (decided after the walk, which met it first).
  for (const p of out)
    if (readInFrom.has(p.node) && p.role.kind === 'none') p.role = { kind: 'from' };
  return out;
}

const isCteName = (t: { scope: { names: ReadonlySet<string> }; parts: string[] }) =>
  t.parts.length === 1 && t.scope.names.has(t.parts[0].toLowerCase());

function cteEntriesOf(node: JNode): { key: string; value: JNode }[] {
  const map = (node.cte_map as JNode | undefined)?.map;
  return Array.isArray(map) ? (map as { key: string; value: JNode }[]) : [];
}

/** Visits the items of a FROM clause (through joins); collects the joins when asked. */
export function fromItems(
  ref: JNode | null | undefined,
  fn: (item: JNode) => void,
  joins?: JNode[],
) {
  if (!ref || typeof ref !== 'object') return;
  if (ref.type === 'JOIN') {
    joins?.push(ref);
    fromItems(ref.left as JNode, fn, joins);
    fromItems(ref.right as JNode, fn, joins);
    return;
  }
  if (ref.type === 'EMPTY') return;
  fn(ref);
}

// ---- where things are written -------------------------------------------------------------------

/** The smallest source location anywhere under `v` (byte offset), or undefined. */
function firstLocation(v: unknown): number | undefined {
  let min: number | undefined;
  const walk = (x: unknown) => {
    if (!x || typeof x !== 'object') return;
    if (Array.isArray(x)) {
      for (const y of x) walk(y);
      return;
    }
    const n = x as JNode;
    const b = byteLocation(n);
    if (b !== undefined && (min === undefined || b < min)) min = b;
    for (const y of Object.values(n)) if (y && typeof y === 'object') walk(y);
  };
  walk(v);
  return min;
}

/** Index of the `)` closing the `(` at `open`, or -1. */
function closing(sig: Tok[], open: number): number {
  let d = 0;
  for (let i = open; i < sig.length; i++) {
    if (isOp(sig[i], '(')) d++;
    else if (isOp(sig[i], ')') && --d === 0) return i;
  }
  return -1;
}

/**
 * Records where every FROM item of the statement is written (its name or parentheses through its
 * alias), read on the tree as DuckDB parsed it, before any rewrite replaces nodes.
 */
export function recordItemSpans(st: PlanState, root: JNode): void {
  const sig = st.tokens.sig;
  const withAlias = (item: JNode, last: number): Span | null => {
    let i = last + 1;
    const alias = String(item.alias ?? '');
    if (alias) {
      if (sig[i]?.word === 'AS') i++;
      if (!isName(sig[i]) || sig[i].value.toLowerCase() !== alias.toLowerCase()) return null;
      last = i;
      if (isOp(sig[i + 1], '(')) {
        const c = closing(sig, i + 1);
        if (c < 0) return null;
        last = c;
      }
    }
    return { start: -1, end: sig[last].end };
  };
  const spanOf = (item: JNode): Span | null => {
    if (item.type === 'BASE_TABLE' || item.type === 'TABLE_FUNCTION') {
      const at = st.loc(item);
      if (at === undefined) return null;
      const first = st.tokens.indexAt(at);
      if (first < 0) return null;
      let last = first;
      while (isOp(sig[last + 1], '.') && isName(sig[last + 2])) last += 2;
      if (item.type === 'TABLE_FUNCTION') {
        if (!isOp(sig[last + 1], '(')) return null;
        last = closing(sig, last + 1);
        if (last < 0) return null;
      }
      const s = withAlias(item, last);
      return s && { start: sig[first].start, end: s.end };
    }
    if (item.type === 'SUBQUERY') {
      const b = firstLocation(item.subquery);
      if (b === undefined) return null;
      let k = st.tokens.indexAt(st.offsets(b));
      // Back to the unmatched `(` that opens the subquery.
      let d = 0;
      for (k = k - 1; k >= 0; k--) {
        if (isOp(sig[k], ')')) d++;
        else if (isOp(sig[k], '(')) {
          if (d === 0) break;
          d--;
        }
      }
      if (k < 0) return null;
      const c = closing(sig, k);
      if (c < 0) return null;
      const s = withAlias(item, c);
      return s && { start: sig[k].start, end: s.end };
    }
    return null;
  };
  const walk = (v: unknown) => {
    if (!v || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    const n = v as JNode;
    if (n.type === 'SELECT_NODE') {
      fromItems(n.from_table as JNode, (item) => {
        const s = spanOf(item);
        if (s) st.itemSpans.set(item, s);
      });
    }
    for (const x of Object.values(n)) if (x && typeof x === 'object') walk(x);
  };
  walk(root);
}

/** The token index of a SELECT's `SELECT` keyword, found from an expression written in it. */
function selectKeyword(st: PlanState, sel: SelectInfo): number {
  const sig = st.tokens.sig;
  let at: number | undefined;
  for (const e of sel.exprs) {
    if (e.clause !== 'select') continue;
    at = st.loc(e.node);
    if (at !== undefined) break;
  }
  if (at === undefined) return -1;
  const k = st.tokens.indexAt(at);
  // Back over closed parentheses; `(`s we leave are the expression's own (or the query's).
  let d = 0;
  let min = 0;
  for (let i = k - 1; i >= 0; i--) {
    const t = sig[i];
    if (isOp(t, ')')) d++;
    else if (isOp(t, '(')) {
      d--;
      min = Math.min(min, d);
    } else if (d === min && t.word === 'SELECT') return i;
  }
  return -1;
}

/** Clause keywords of a SELECT, as token indexes (-1 when absent), and where it ends. */
interface SelectText {
  listEnd: number;
  order: number;
  limit: number;
  end: number;
}

function selectText(sig: Tok[], s: number): SelectText {
  const r: SelectText = { listEnd: -1, order: -1, limit: -1, end: sig.length };
  let d = 0;
  for (let i = s + 1; i < sig.length; i++) {
    const t = sig[i];
    if (isOp(t, '(')) {
      d++;
      continue;
    }
    if (isOp(t, ')')) {
      if (d === 0) {
        r.end = i;
        break;
      }
      d--;
      continue;
    }
    if (d > 0) continue;
    if (isOp(t, ';') || ['UNION', 'EXCEPT', 'INTERSECT'].includes(t.word)) {
      r.end = i;
      break;
    }
    const clause =
      ['FROM', 'WHERE', 'GROUP', 'HAVING', 'WINDOW', 'QUALIFY', 'LIMIT', 'OFFSET'].includes(
        t.word,
      ) ||
      (t.word === 'ORDER' && sig[i + 1]?.word === 'BY');
    if (clause && r.listEnd < 0) r.listEnd = i;
    if (t.word === 'ORDER' && sig[i + 1]?.word === 'BY' && r.order < 0) r.order = i;
    if ((t.word === 'LIMIT' || t.word === 'OFFSET') && r.limit < 0) r.limit = i;
  }
  if (r.listEnd < 0) r.listEnd = r.end;
  return r;
}

/**
 * Inserts `text` before token `i` (at its start, so it follows text others insert after the
 * token before it, such as a star's EXCLUDE), or at the end of the text.
 */
function insertBefore(st: PlanState, i: number, text: string): void {
  const sig = st.tokens.sig;
  if (i < sig.length) st.edit(sig[i].start, sig[i].start, `${text} `);
  else st.edit(sig[sig.length - 1].end, sig[sig.length - 1].end, ` ${text}`);
}

// ---- data positions -----------------------------------------------------------------------------

const keyText = (k: KeyPart) => `${quoteIdent(k.alias)}.${quoteIdent(k.column)}`;

/** The alias a FROM item is read by. */
function itemAlias(n: JNode): string {
  if (n.alias) return String(n.alias);
  if (n.type === 'BASE_TABLE') return String(n.table_name);
  if (n.type === 'TABLE_FUNCTION') return String((n.function as JNode)?.function_name ?? 'unnamed');
  return 'unnamed_subquery';
}

/** The key columns a FROM item exports (a subquery or a CTE that ordered itself), or null. */
function exportedKey(st: PlanState, sel: SelectInfo, item: JNode): KeyPart[] | null {
  let q: JNode | null = null;
  if (item.type === 'SUBQUERY') q = ((item.subquery as JNode | undefined)?.node as JNode) ?? null;
  else if (item.type === 'BASE_TABLE' && !item.schema_name && !item.catalog_name) {
    if (sel.scope.names.has(String(item.table_name).toLowerCase())) {
      q = cteBody(st, item, sel.scope.ctes);
    }
  }
  const cols = q ? st.exported.get(q) : undefined;
  if (!cols) return null;
  const alias = itemAlias(item);
  return cols.map((column) => ({ alias, column }));
}

/**
 * The position of a data item joined with a model: the key it exports, else its row number in
 * its own scan order, `(SELECT *, row_number() OVER () AS "__mdb_pos_N" FROM item) AS alias`
 * (in the text, by insertions around the item so positions inside stay the user's; and in the
 * tree). Null when the item's text cannot be found (then its rows keep no order).
 */
export function positionItem(
  st: PlanState,
  sel: SelectInfo,
  holder: JNode,
  key: string,
): KeyPart[] | null {
  const item = holder[key] as JNode;
  const own = exportedKey(st, sel, item);
  if (own) return own;
  const span = st.itemSpans.get(item);
  if (!span) return null;
  const alias = itemAlias(item);
  const column = `__mdb_pos_${++st.ctx.seq.n}`;
  st.edit(span.start, span.start, `(SELECT *, row_number() OVER () AS ${quoteIdent(column)} FROM `);
  st.edit(span.end, span.end, `) AS ${quoteIdent(alias)}`);
  const wrapped: JNode = {
    type: 'SUBQUERY',
    alias,
    sample: null,
    query_location: NO_LOCATION,
    subquery: {
      node: selectNode({ selectList: [starNode(), rowNumberNode(column)], from: item }),
      named_param_map: [],
    },
    column_name_alias: [],
  };
  holder[key] = wrapped;
  st.itemSpans.set(wrapped, span);
  st.resolved.set(wrapped, { kind: 'local' });
  hideFromStars(st, sel, [{ alias, column }]);
  return [{ alias, column }];
}

function rowNumberNode(alias: string): JNode {
  return {
    class: 'WINDOW',
    type: 'WINDOW_ROW_NUMBER',
    alias,
    query_location: NO_LOCATION,
    function_name: 'row_number',
    schema: '',
    catalog: '',
    children: [],
    partitions: [],
    orders: [],
    start: 'UNBOUNDED_PRECEDING',
    end: 'CURRENT_ROW_RANGE',
    start_expr: null,
    end_expr: null,
    offset_expr: null,
    default_expr: null,
    ignore_nulls: false,
    filter_expr: null,
    exclude_clause: 'NO_OTHER',
    distinct: false,
    arg_orders: [],
  };
}

/** Keeps planner columns of FROM items out of a SELECT's `*` and `alias.*`. */
export function hideFromStars(st: PlanState, sel: SelectInfo, cols: KeyPart[]): void {
  for (const e of sel.exprs) {
    const n = e.node;
    if (n.class !== 'STAR' || n.columns) continue;
    const rel = String(n.relation_name ?? '').toLowerCase();
    const mine = cols.filter((c) => rel === '' || rel === c.alias.toLowerCase());
    if (mine.length) st.excludeFromStar(n, mine);
  }
}

// ---- the pass -----------------------------------------------------------------------------------

/**
 * Whether a SELECT's rows keep the order of what it reads: no grouping, no DISTINCT, and no
 * aggregate in its select list or ORDER BY (`aggregated`, which needs DuckDB's function list).
 */
export function keepsOrder(sel: JNode, aggregated: boolean): boolean {
  const mods = (sel.modifiers as JNode[]) ?? [];
  return (
    !aggregated &&
    (sel.group_expressions as unknown[]).length === 0 &&
    !sel.having &&
    !mods.some((m) => m.type === 'DISTINCT_MODIFIER')
  );
}

/** The key a SELECT's rows follow, or null (none, or its rows keep no order: see keepsOrder). */
function keyOf(st: PlanState, sel: SelectInfo, orderless: ReadonlySet<JNode>): KeyPart[] | null {
  if (orderless.has(sel.node)) return null;
  return st.keys.get(sel.node) ?? inheritedKey(st, sel);
}

/** The key of a SELECT that reads no model: what its FROM items export, in FROM order. */
function inheritedKey(st: PlanState, sel: SelectInfo): KeyPart[] | null {
  const parts: KeyPart[] = [];
  fromItems(sel.node.from_table as JNode, (item) => {
    const k = exportedKey(st, sel, item);
    if (k) parts.push(...k);
  });
  return parts.length ? parts : null;
}

/**
 * Gives each query of the statement its order (see the module comment). Called for each query
 * node in post-order once its models are planned; `aggregated` says whether the SELECT's select
 * list or ORDER BY aggregates.
 */
export function orderQuery(
  st: PlanState,
  place: Place,
  sel: SelectInfo | undefined,
  orderless: ReadonlySet<JNode>,
  exportRoot: boolean,
): void {
  const { node, role } = place;
  if (node.type === 'SELECT_NODE' && sel) {
    // A set operation's branches carry its branch number whether or not they have a key.
    if (role.kind === 'branch') return;
    const key = keyOf(st, sel, orderless);
    if (!key) return;
    const mods = node.modifiers as JNode[];
    const ordered = mods.some((m) => m.type === 'ORDER_MODIFIER');
    const limited = mods.some(
      (m) => m.type === 'LIMIT_MODIFIER' || m.type === 'LIMIT_PERCENT_MODIFIER',
    );
    if (role.kind === 'root' && !exportRoot) {
      orderBy(st, sel, key, ordered);
      return;
    }
    if (role.kind === 'from' || (role.kind === 'root' && exportRoot)) {
      // Before its own LIMIT the rows are in the key's order, so LIMIT keeps the first ones.
      if (ordered || limited) orderBy(st, sel, key, ordered);
      // After its own ORDER BY the rows are in the user's order; readers keep theirs.
      if (ordered) return;
      exportKey(st, sel, key);
    }
    return;
  }
  if (node.type === 'SET_OPERATION_NODE') orderSetOperation(st, place, orderless);
}

/** `ORDER BY key` at the end of the SELECT (before LIMIT), or `, key` after the user's ORDER BY. */
function orderBy(st: PlanState, sel: SelectInfo, key: KeyPart[], ordered: boolean): void {
  const sig = st.tokens.sig;
  const s = selectKeyword(st, sel);
  if (s < 0) return;
  const t = selectText(sig, s);
  const text = key.map(keyText).join(', ');
  if (ordered) {
    if (t.order < 0 || sig[t.order + 2]?.word === 'ALL') return;
    insertBefore(st, t.limit > t.order ? t.limit : t.end, `, ${text}`);
    return;
  }
  insertBefore(st, t.limit >= 0 ? t.limit : t.end, `ORDER BY ${text}`);
}

/** Adds the key to the SELECT's output as `__mdb_key_N` columns (text and tree). */
function exportKey(st: PlanState, sel: SelectInfo, key: KeyPart[]): void {
  const sig = st.tokens.sig;
  const s = selectKeyword(st, sel);
  if (s < 0) return;
  const t = selectText(sig, s);
  const names = key.map(() => `__mdb_key_${++st.ctx.seq.n}`);
  const text = key.map((k, i) => `${keyText(k)} AS ${quoteIdent(names[i])}`).join(', ');
  insertBefore(st, t.listEnd, `, ${text}`);
  const list = sel.node.select_list as JNode[];
  key.forEach((k, i) => list.push(columnRef([k.alias, k.column], names[i])));
  st.exported.set(sel.node, names);
  hideInReaders(st, sel.node, names);
}

/** Readers of an exporting query keep its key columns out of their stars. */
function hideInReaders(st: PlanState, q: JNode, names: string[]): void {
  for (const reader of st.index.selects) {
    fromItems(reader.node.from_table as JNode, (item) => {
      let reads = false;
      if (item.type === 'SUBQUERY') reads = (item.subquery as JNode | undefined)?.node === q;
      else if (item.type === 'BASE_TABLE' && !item.schema_name && !item.catalog_name) {
        reads =
          reader.scope.names.has(String(item.table_name).toLowerCase()) &&
          cteBody(st, item, reader.scope.ctes) === q;
      }
      if (reads) {
        const alias = itemAlias(item);
        hideFromStars(
          st,
          reader,
          names.map((column) => ({ alias, column })),
        );
      }
    });
  }
}

/**
 * UNION ALL whose branches have keys: each branch adds its branch number and its key (NULL
 * without one) as the same two columns, so rows come branch after branch, each in its order.
 * At the statement's top, the caller wraps the statement to sort by them and drop them.
 */
function orderSetOperation(st: PlanState, place: Place, orderless: ReadonlySet<JNode>): void {
  const { node, role } = place;
  if (role.kind !== 'root' && role.kind !== 'from') return;
  if (!(node.setop_all === true) || !['UNION', 'UNION_BY_NAME'].includes(String(node.setop_type)))
    return;
  const mods = node.modifiers as JNode[];
  if (mods.some((m) => m.type === 'ORDER_MODIFIER')) return;
  // A LIMIT of the whole set operation: sorted first at the top (below); elsewhere left alone.
  const limit = mods.some(
    (m) => m.type === 'LIMIT_MODIFIER' || m.type === 'LIMIT_PERCENT_MODIFIER',
  );
  if (limit && role.kind !== 'root') return;
  const leaves: { node: JNode; keyed: boolean }[] = [];
  const flatten = (n: JNode, keyed: boolean) => {
    if (n.type === 'SET_OPERATION_NODE') {
      const all = n.setop_all === true && ['UNION', 'UNION_BY_NAME'].includes(String(n.setop_type));
      flatten(n.left as JNode, keyed && all);
      flatten(n.right as JNode, keyed && all);
    } else leaves.push({ node: n, keyed });
  };
  flatten(node.left as JNode, true);
  flatten(node.right as JNode, true);
  const byNode = new Map(st.index.selects.map((s) => [s.node, s]));
  const keys = leaves.map((l) => {
    const sel = byNode.get(l.node);
    return l.keyed && sel ? keyOf(st, sel, orderless) : null;
  });
  if (keys.every((k) => !k)) return;
  // Every branch is rewritten or none: a branch whose text cannot be found leaves the order alone.
  if (leaves.some((l) => !byNode.get(l.node) || selectKeyword(st, byNode.get(l.node)!) < 0)) return;
  const n = ++st.ctx.seq.n;
  const names = [`__mdb_branch_${n}`, `__mdb_key_${n}`];
  let branch = 0;
  leaves.forEach((l, i) => {
    const sel = byNode.get(l.node)!;
    const sig = st.tokens.sig;
    const t = selectText(sig, selectKeyword(st, sel));
    const k = keys[i];
    const mods = sel.node.modifiers as JNode[];
    if (
      k &&
      mods.some((m) => m.type === 'LIMIT_MODIFIER') &&
      !mods.some((m) => m.type === 'ORDER_MODIFIER')
    ) {
      orderBy(st, sel, k, false);
    }
    // Distinct set operations inside count as one branch (their rows keep no order of ours).
    if (l.keyed || i === 0 || leaves[i - 1].keyed) branch++;
    const keyExpr = k ? `[${k.map(keyText).join(', ')}]` : 'NULL';
    insertBefore(
      st,
      t.listEnd,
      `, ${branch} AS ${quoteIdent(names[0])}, ${keyExpr} AS ${quoteIdent(names[1])}`,
    );
    const list = sel.node.select_list as JNode[];
    list.push(constantNode(branch, names[0]), k ? listNode(k, names[1]) : nullNode(names[1]));
  });
  // At the top the statement is wrapped to sort by them and drop them (plan/query.ts); its own
  // LIMIT (the one written outside parentheses) then takes the first rows of that order.
  if (limit) {
    const sig = st.tokens.sig;
    let d = 0;
    let at = -1;
    sig.forEach((t, i) => {
      if (isOp(t, '(')) d++;
      else if (isOp(t, ')')) d--;
      else if (d === 0 && (t.word === 'LIMIT' || t.word === 'OFFSET') && at < 0) at = i;
    });
    if (at > 0) insertBefore(st, at, `ORDER BY ${names.map(quoteIdent).join(', ')}`);
  }
  st.exported.set(node, names);
  if (role.kind === 'from') hideInReaders(st, node, names);
}

function constantNode(v: number, alias: string): JNode {
  return {
    class: 'CONSTANT',
    type: 'VALUE_CONSTANT',
    alias,
    query_location: NO_LOCATION,
    value: { type: { id: 'INTEGER', type_info: null }, is_null: false, value: v },
  };
}

function nullNode(alias: string): JNode {
  return {
    class: 'CONSTANT',
    type: 'VALUE_CONSTANT',
    alias,
    query_location: NO_LOCATION,
    value: { type: { id: 'SQLNULL', type_info: null }, is_null: true },
  };
}

function listNode(key: KeyPart[], alias: string): JNode {
  return {
    class: 'FUNCTION',
    type: 'FUNCTION',
    alias,
    query_location: NO_LOCATION,
    function_name: 'list_value',
    schema: '',
    children: key.map((k) => columnRef([k.alias, k.column])),
    filter: null,
    order_bys: { type: 'ORDER_MODIFIER', orders: [] },
    distinct: false,
    is_operator: false,
    export_state: false,
    catalog: '',
  };
}
