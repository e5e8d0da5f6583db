/**
 * The input rows of a model joined with data: which data column or WHERE value feeds each model
 * input (MindsDB's JOIN ... ON d.col = m.input and WHERE m.input = <value>, then data columns of
 * the input's name), what of the query can run on the data side first, and the distinct input
 * rows, computed by DuckDB into a TEMP table.
 */
import { conjuncts, forEachExpr, trueNode, type JNode, type SelectInfo } from '../syntax/tree';
import { aliasOf, clone, lower, type Item, type ModelInfo } from './model-refs';
import type { InputSource } from './steps';
import { PlanState, type KeyPart, columnRef, literalValue, selectNode } from './state';

interface Source {
  /** The model column it feeds. */
  column: string;
  /** A data column (alias, column), or a value given in WHERE. */
  from: { ref: string[] } | { value: unknown };
}

/** A model input read from a data column (matched back to the data rows by its key column). */
type KeyedSource = Source & { from: { ref: string[] } };

/** What a batch prediction reads. */
export interface ModelInputs {
  /** Inputs read from data columns; the i-th is key column `keyName(i)` of `inName`. */
  keyed: KeyedSource[];
  keyName: (i: number) => string;
  /** The TEMP table of distinct input rows (null: no input comes from the data, or `rows`). */
  inName: string | null;
  /**
   * Positional (PlanState.positional): every data row is an input row, numbered by the data
   * side's order key, this column of `relation` (no distinct rows, no TEMP table of them).
   */
  rows: { column: string; key: KeyPart } | null;
  /** The SQL of the distinct input rows' relation (null: no input comes from the data). */
  relation: string | null;
  /** Where each input column comes from, for the predict step. */
  sources: InputSource[];
}

/**
 * The inputs of the model at `items[k]` from the data on the other side of `join` (the items
 * before it, or the item after it when the model comes first). Conditions that map data onto
 * inputs become TRUE in the query: the prediction has applied them.
 */
export async function modelInputs(
  st: PlanState,
  sel: SelectInfo,
  items: Item[],
  k: number,
  join: JNode,
  done: Map<Item, string[]>,
  data: ReadonlyMap<Item, string[]>,
  key: readonly KeyPart[],
  info: ModelInfo,
): Promise<ModelInputs> {
  const mAlias = lower(aliasOf(items[k]));
  const modelFirst = k === 0;
  const dataItems = modelFirst ? [items[1]] : items.slice(0, k);
  const dataSide = modelFirst ? items[1].node : (items[k].join!.left as JNode);

  // Columns of each data alias (earlier models: their prediction columns).
  const dataCols = dataItems.map((d) => ({
    alias: aliasOf(d),
    columns: done.get(d) ?? data.get(d) ?? [],
  }));
  const findData = (col: string): string[] | null => {
    for (const d of dataCols) {
      const c = d.columns.find((x) => lower(x) === lower(col));
      if (c !== undefined) return [d.alias, c];
    }
    return null;
  };

  // MindsDB's JOIN ... ON d.question = m.input, and WHERE m.input = <value>.
  const sources = new Map<string, Source>();
  const neutralize = (c: { node: JNode; holder: JNode | unknown[]; key: string | number }) => {
    const span = st.exprSpan(c.node);
    if (!span) return false;
    st.edit(span.start, span.end, 'TRUE');
    (c.holder as Record<string | number, unknown>)[c.key] = trueNode();
    return true;
  };
  const inputs = new Map(info.desc.inputs.map((c) => [lower(c), c]));
  const target = info.desc.target;
  for (const c of conjuncts(join.condition as JNode, join, 'condition')) {
    const n = c.node;
    if (n.type !== 'COMPARE_EQUAL') continue;
    const [l, r] = [n.left as JNode, n.right as JNode];
    if (l.class !== 'COLUMN_REF' || r.class !== 'COLUMN_REF') continue;
    const ln = l.column_names as string[];
    const rn = r.column_names as string[];
    const mine = (x: string[]) => x.length === 2 && lower(x[0]) === mAlias;
    const [m, d] =
      mine(ln) && !mine(rn) ? [ln, rn] : mine(rn) && !mine(ln) ? [rn, ln] : [null, null];
    if (!m || !d) continue;
    const col = inputs.get(lower(m[1])) ?? (lower(m[1]) === lower(target) ? target : null);
    if (!col) continue;
    if (neutralize(c)) sources.set(lower(col), { column: col, from: { ref: d } });
  }
  for (const c of conjuncts(sel.node.where_clause as JNode, sel.node, 'where_clause')) {
    const n = c.node;
    if (n.type !== 'COMPARE_EQUAL') continue;
    let [col, val] = [n.left as JNode, n.right as JNode];
    if (col.class !== 'COLUMN_REF') [col, val] = [val, col];
    const names = col.column_names as string[] | undefined;
    if (col.class !== 'COLUMN_REF' || !names || names.length !== 2 || lower(names[0]) !== mAlias)
      continue;
    const input = inputs.get(lower(names[1]));
    if (!input) continue;
    let value: unknown;
    if (val.class === 'PARAMETER') value = st.ctx.params?.[String(val.identifier)];
    else {
      const lit = literalValue(val);
      if (!lit) continue;
      value = lit.value;
    }
    if (neutralize(c)) sources.set(lower(input), { column: input, from: { value } });
  }
  for (const col of [...info.desc.inputs, target]) {
    if (sources.has(lower(col))) continue;
    const ref = findData(col);
    if (ref) sources.set(lower(col), { column: col, from: { ref } });
  }
  const keyed = [...sources.values()].filter((s): s is KeyedSource => 'ref' in s.from);
  const constants = [...sources.values()].filter(
    (s): s is Source & { from: { value: unknown } } => 'value' in s.from,
  );

  // The model's input rows: distinct inputs of the data side, with what can be pushed down.
  // A model written first is joined after its data all the same (MindsDB swaps them).
  const pushed = await pushdown(st, sel, items, k, dataCols, info, key);
  const keySuffix = `${st.ctx.seq.n + 1}`;
  const keyName = (i: number) => `__mdb_k${i}_${keySuffix}`;
  let relation: string | null = null;
  let inName: string | null = null;
  const rows =
    st.positional && !modelFirst && key.length === 1 && keyed.length > 0
      ? { column: `__mdb_r_${keySuffix}`, key: key[0] }
      : null;
  if (keyed.length > 0) {
    const selectList = keyed.map((s, i) => columnRef(s.from.ref, keyName(i)));
    if (rows) selectList.push(columnRef([rows.key.alias, rows.key.column], rows.column));
    const inner = selectNode({
      selectList,
      from: clone(dataSide),
      where: pushed.where,
      modifiers: pushed.modifiers,
    });
    relation = await st.render(inner, sel.scope.ctes);
  }
  if (relation !== null) {
    // Positional, the placeholder only binds the relation (errors at planning, as otherwise).
    const name = st.tempName('in');
    await st.placeholder(
      name,
      { query: `SELECT DISTINCT * FROM (${relation}) AS __mdb_q` },
      `computing the input rows of model '${info.ref.name}'`,
    );
    if (!rows) inName = name;
  }
  return {
    keyed,
    keyName,
    inName,
    rows,
    relation,
    sources: [
      ...keyed.map((s, i) => ({ column: s.column, key: keyName(i) })),
      ...constants.map((s) => ({ column: s.column, value: s.from.value })),
    ],
  };
}

/** Aggregate function names (DuckDB's catalog), read once. */
let aggregates: Promise<Set<string>> | null = null;
function aggregateNames(st: PlanState): Promise<Set<string>> {
  aggregates ??= st.ctx.session
    .query(
      `SELECT DISTINCT lower(function_name) FROM duckdb_functions() WHERE function_type = 'aggregate'`,
      {
        maxRows: Number.MAX_SAFE_INTEGER,
        internal: true,
      },
    )
    .then((r) => new Set(r.rows.map((x) => String(x[0]))))
    .catch((err: unknown) => {
      aggregates = null;
      throw err;
    });
  return aggregates;
}

/** Whether the select list or ORDER BY of a SELECT call an aggregate or window function. */
export async function aggregatesIn(st: PlanState, sel: SelectInfo): Promise<boolean> {
  const aggs = await aggregateNames(st);
  const order = (sel.node.modifiers as JNode[]).find((m) => m.type === 'ORDER_MODIFIER');
  let found = false;
  forEachExpr([sel.node.select_list, order ?? null], (x) => {
    if (
      x.class === 'WINDOW' ||
      (x.class === 'FUNCTION' && aggs.has(lower(String(x.function_name))))
    ) {
      found = true;
    }
  });
  return found;
}

/**
 * What of the SELECT can run on the data side before predicting: its WHERE conditions that name
 * only data columns, and then ORDER BY / LIMIT when the whole WHERE went down, nothing groups,
 * aggregates or de-duplicates, only models follow in FROM, and the order names only data columns.
 * Predictions are for those rows only; the query itself still applies everything to them.
 */
async function pushdown(
  st: PlanState,
  sel: SelectInfo,
  items: Item[],
  k: number,
  dataCols: { alias: string; columns: string[] }[],
  info: ModelInfo,
  key: readonly KeyPart[],
): Promise<{ where: JNode | null; modifiers: JNode[] }> {
  const aliases = new Set(dataCols.map((d) => lower(d.alias)));
  const dataColumns = new Set(dataCols.flatMap((d) => d.columns.map(lower)));
  const predictions = new Set<string>(info.outputs.map((o) => lower(o.name)));
  for (const it of items) {
    if (st.resolved.get(it.node)?.kind === 'model' && it !== items[k]) {
      predictions.add(lower(aliasOf(it)));
    }
  }
  const outputs = new Set(
    (sel.node.select_list as JNode[]).map((x) => lower(String(x.alias ?? ''))).filter((x) => x),
  );
  const dataOnly = (n: JNode): boolean => {
    let ok = true;
    forEachExpr(n, (x) => {
      if (x.class === 'SUBQUERY' || x.class === 'WINDOW' || x.class === 'PARAMETER') ok = false;
      if (x.class === 'COLUMN_REF') {
        const names = x.column_names as string[];
        if (names.length === 2) ok &&= aliases.has(lower(names[0]));
        else if (names.length === 1) {
          const c = lower(names[0]);
          ok &&= dataColumns.has(c) && !predictions.has(c) && !outputs.has(c);
        } else ok = false;
      }
    });
    return ok;
  };
  const all = conjuncts(sel.node.where_clause as JNode, sel.node, 'where_clause').filter(
    (c) => literalValue(c.node)?.value !== true,
  );
  const down = all.filter((c) => dataOnly(c.node));
  const where =
    down.length === 0
      ? null
      : down.length === 1
        ? clone(down[0].node)
        : {
            class: 'CONJUNCTION',
            type: 'CONJUNCTION_AND',
            alias: '',
            query_location: 0,
            children: down.map((c) => clone(c.node)),
          };

  const modifiers: JNode[] = [];
  const mods = sel.node.modifiers as JNode[];
  const limit = mods.find((m) => m.type === 'LIMIT_MODIFIER');
  const order = mods.find((m) => m.type === 'ORDER_MODIFIER');
  const onlyModelsAfter = items
    .slice(k === 0 ? 2 : k + 1)
    .every((it) => st.resolved.get(it.node)?.kind === 'model');
  const grouped =
    (sel.node.group_expressions as unknown[]).length > 0 ||
    !!sel.node.having ||
    !!sel.node.qualify ||
    mods.some((m) => m.type === 'DISTINCT_MODIFIER');
  if (limit && down.length === all.length && onlyModelsAfter && !grouped) {
    const aggregated = await aggregatesIn(st, sel);
    const orderOk =
      !order || ((order.orders as JNode[]) ?? []).every((o) => dataOnly(o.expression as JNode));
    if (!aggregated && orderOk) {
      // The rows the LIMIT keeps are the first in the data's order (ties of an ORDER BY too),
      // as the query itself will keep them (plan/order.ts).
      const by = order ? clone(order) : { type: 'ORDER_MODIFIER', orders: [] };
      for (const p of key) {
        (by.orders as JNode[]).push({
          type: 'ORDER_DEFAULT',
          null_order: 'ORDER_DEFAULT',
          expression: columnRef([p.alias, p.column]),
        });
      }
      if ((by.orders as JNode[]).length > 0) modifiers.push(by);
      modifiers.push(clone(limit));
    }
  }
  return { where, modifiers };
}
