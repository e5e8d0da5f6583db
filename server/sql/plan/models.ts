/**
 * Model references in a query, wherever they are (the top query, a subquery, a CTE, either side
 * of a UNION, several models, chained models). For each SELECT that reads a model, inner SELECTs
 * first:
 *
 * - `FROM model WHERE a = 1 AND b = 'x'` (the model alone): one prediction from the equalities;
 *   the model becomes a one-row TEMP table (inputs, predictions, service columns).
 * - `FROM data JOIN model [ON data.col = model.input]` (a batch): the model's input rows are
 *   computed by DuckDB from the data side (its own WHERE conditions, and ORDER BY / LIMIT when
 *   nothing after the join could change which rows come out, pushed down), one row per distinct
 *   input, predicted in one columnar call and loaded into TEMP tables; the model reference becomes
 *   a subquery matching each data row to its prediction (`IS NOT DISTINCT FROM` on the inputs,
 *   which DuckDB turns into a hash join). `model.*` is the prediction columns, as before.
 *   `ON d.question = m.input` maps a data column onto a model input (MindsDB's JOIN ... ON);
 *   `WHERE m.input = 5` gives an input the same value on every row (MindsDB's row values).
 * - `FROM model JOIN data`: the same, with the match in the join condition.
 */
import { inputColumns, predictionColumns } from '../../models/predict';
import type { ModelRef } from '../../models/registry';
import type { ModelDescription } from '../../automl/index';
import { quoteIdent } from '../../engine/quote';
import type { JsonValue } from '../../engine/values';
import { ERROR_CODES } from '../../errors';
import { applyEdits } from '../syntax/source';
import {
  conjuncts,
  forEachExpr,
  parseQuery,
  trueNode,
  type JNode,
  type SelectInfo,
  type TableRefInfo,
} from '../syntax/tree';
import { planForecastJoin, singleRowForecastError } from './forecast';
import { readsExplainColumn } from './explain-use';
import type { Resolved } from './names';
import { transpose } from '../../engine/scratch';
import {
  PlanState,
  columnRef,
  limitModifier,
  literalValue,
  paramsOf,
  selectNode,
  starNode,
  type Span,
} from './state';

type ModelResolved = Extract<Resolved, { kind: 'model' }>;

interface Item {
  node: JNode;
  /** The object holding `node` in the tree, and its key there. */
  holder: JNode;
  key: string;
  /** The JOIN this item is joined by (the first item: the JOIN that joins the second). */
  join: JNode | null;
  table: TableRefInfo | null;
}

export async function planModels(st: PlanState): Promise<void> {
  st.validate = () => validate(st);
  for (const sel of st.index.selects) {
    const models = sel.tables.filter((t) => st.resolved.get(t.node)?.kind === 'model');
    if (models.length > 0) await planSelect(st, sel);
  }
  for (const l of st.latest) {
    if (st.latestUsed.has(l)) continue;
    const at = st.loc(l);
    throw st.src.error(
      ERROR_CODES.BAD_INPUT,
      'LATEST (the latest time of each group) belongs in the WHERE clause of a query joining a time-series model, compared with its ORDER BY column: WHERE t.<time column> > LATEST',
      at === undefined ? undefined : st.rw.toSource(at),
    );
  }
  for (const t of st.index.tables) {
    if (st.resolved.get(t.node)?.kind === 'model' && !t.select) {
      const at = st.loc(t.node);
      throw st.src.error(
        ERROR_CODES.BAD_INPUT,
        'A model can only be read in the FROM clause of a SELECT',
        at === undefined ? undefined : st.rw.toSource(at),
      );
    }
  }
}

/**
 * EXPLAINs the query with the models not yet predicted standing in as empty relations of their
 * columns: a mistake in what the user wrote (an unknown table or column) is then reported by
 * DuckDB at its line and column instead of inside a generated query.
 */
async function validate(st: PlanState): Promise<void> {
  const edits = [...st.edits];
  for (const t of st.index.tables) {
    const r = st.resolved.get(t.node);
    if (r?.kind !== 'model' || st.replacedModels.has(t.node)) continue;
    const at = st.loc(t.node);
    const span = at === undefined ? null : st.nameSpan(at);
    if (!span) return;
    const desc = (await st.env.models.predictor(st.env.models.ready(r.ref))).description;
    const cols = [...inputColumns(desc), ...predictionColumns(desc)];
    const empty = `(SELECT ${cols.map((c) => `CAST(NULL AS ${c.type === 'JSON' ? 'VARCHAR' : c.type}) AS ${quoteIdent(c.name)}`).join(', ')} WHERE FALSE)`;
    edits.push({
      start: span.start,
      end: span.end,
      text: t.alias ? empty : `${empty} AS ${quoteIdent(t.parts[t.parts.length - 1])}`,
    });
  }
  const text = applyEdits(st.rw, edits);
  await st.ctx.session.query(`EXPLAIN ${text.text}`, {
    db: st.engineDb(st.db),
    signal: st.ctx.signal,
    params: paramsOf(text.text, st.ctx.params),
    sourceOffset: (o) => st.src.offset + text.toSource(Math.max(0, o - 'EXPLAIN '.length)),
    script: st.src.script,
  });
}

/** The FROM list as a left-deep chain of items. */
function chain(ref: JNode, holder: JNode, key: string, sel: SelectInfo): Item[] {
  if (ref.type === 'JOIN') {
    const left = chain(ref.left as JNode, ref, 'left', sel);
    if (left.length === 1) left[0].join = ref;
    const right = ref.right as JNode;
    return [
      ...left,
      { node: right, holder: ref, key: 'right', join: ref, table: tableOf(right, sel) },
    ];
  }
  return [{ node: ref, holder, key, join: null, table: tableOf(ref, sel) }];
}

const tableOf = (n: JNode, sel: SelectInfo) => sel.tables.find((t) => t.node === n) ?? null;

function aliasOf(item: Item): string {
  const n = item.node;
  if (n.alias) return String(n.alias);
  if (n.type === 'BASE_TABLE') return String(n.table_name);
  if (n.type === 'TABLE_FUNCTION') return String((n.function as JNode)?.function_name ?? 'unnamed');
  return 'unnamed_subquery';
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

async function planSelect(st: PlanState, sel: SelectInfo): Promise<void> {
  const items = chain(sel.node.from_table as JNode, sel.node, 'from_table', sel);
  const isModel = (it: Item) => it.table && st.resolved.get(it.node)?.kind === 'model';
  for (const it of items) {
    if (it.node.type === 'JOIN' && containsModel(st, it.node)) {
      throw refusal(
        st,
        it,
        'A model inside a parenthesised join is not supported; join the model at the top level of FROM',
      );
    }
  }
  for (const it of items) {
    if (!isModel(it)) continue;
    const info = await modelInfo(st, it);
    if (info.desc.timeseries) return timeseries(st, sel, items, it, info);
  }
  if (items.length === 1) return single(st, sel, items[0]);
  const done = new Map<Item, string[]>();
  for (let k = 0; k < items.length; k++) {
    const it = items[k];
    if (!isModel(it)) continue;
    if (k === 0) {
      if (isModel(items[1]))
        throw refusal(
          st,
          it,
          'Two models joined with each other need a data table first: FROM data JOIN model1 JOIN model2',
        );
      await batch(st, sel, items, 0, 1, done);
    } else {
      await batch(st, sel, items, k, k, done);
    }
  }
}

/** A time-series model: alone in FROM (one history row in WHERE) or joined with its data. */
async function timeseries(
  st: PlanState,
  sel: SelectInfo,
  items: Item[],
  item: Item,
  info: ModelInfo,
): Promise<void> {
  const ts = info.desc.timeseries!;
  const label = `${info.ref.project}.${info.ref.name}`;
  if (items.length === 1) {
    if (ts.window > 1) {
      const at = st.loc(item.node);
      const err = singleRowForecastError(label, ts);
      throw st.src.error(err.code, err.message, at === undefined ? undefined : st.rw.toSource(at));
    }
    return single(st, sel, item);
  }
  const other = items.filter((it) => it !== item);
  if (items.length > 2 || other.some((it) => st.resolved.get(it.node)?.kind === 'model')) {
    throw refusal(
      st,
      item,
      `Time-series model '${label}' forecasts from one data table: FROM <data> AS t JOIN ${label} AS m (join other tables in an outer query)`,
    );
  }
  const modelFirst = items[0] === item;
  await planForecastJoin(st, {
    sel,
    model: { node: item.node, alias: aliasOf(item), ref: info.ref, desc: info.desc },
    data: { node: other[0].node, alias: aliasOf(other[0]) },
    join: items[1].join!,
    modelFirst,
    aggregated: await aggregatesIn(st, sel),
  });
}

/** Whether the select list or ORDER BY of a SELECT call an aggregate or window function. */
async function aggregatesIn(st: PlanState, sel: SelectInfo): Promise<boolean> {
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

function containsModel(st: PlanState, n: JNode): boolean {
  if (n.type === 'JOIN')
    return containsModel(st, n.left as JNode) || containsModel(st, n.right as JNode);
  return st.resolved.get(n)?.kind === 'model';
}

function refusal(st: PlanState, it: Item, message: string) {
  const at = st.loc(it.node);
  return st.src.error(
    ERROR_CODES.BAD_INPUT,
    message,
    at === undefined ? undefined : st.rw.toSource(at),
  );
}

interface ModelInfo {
  ref: ModelRef;
  desc: ModelDescription;
  /** Prediction columns (name, type). */
  outputs: {
    name: string;
    type: 'VARCHAR' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMP' | 'JSON';
  }[];
}

async function modelInfo(st: PlanState, item: Item): Promise<ModelInfo> {
  const ref = (st.resolved.get(item.node) as ModelResolved).ref;
  const record = st.env.models.ready(ref);
  const desc = (await st.env.models.predictor(record)).description;
  return { ref, desc, outputs: predictionColumns(desc) };
}

const lower = (s: string) => s.toLowerCase();

/** The span of a table reference's name (not its alias). */
function nameSpanOf(st: PlanState, item: Item): Span {
  const at = st.loc(item.node);
  const span = at === undefined ? null : st.nameSpan(at);
  if (!span) throw new Error('no position for a model reference');
  return span;
}

/** Replaces a model reference by a relation (text and tree). */
async function replaceModel(
  st: PlanState,
  item: Item,
  relationSql: string,
  alias: string,
): Promise<void> {
  const span = nameSpanOf(st, item);
  st.edit(
    span.start,
    span.end,
    item.node.alias ? relationSql : `${relationSql} AS ${quoteIdent(alias)}`,
  );
  const parsed = await parseQuery(
    st.ctx.session,
    `SELECT * FROM ${relationSql} AS ${quoteIdent(alias)}`,
  );
  if (!parsed.ok) throw new Error(`cannot parse a generated relation: ${parsed.message}`);
  const node = parsed.node.from_table as JNode;
  st.replacedModels.add(item.node);
  item.holder[item.key] = node;
  st.resolved.set(node, { kind: 'local' });
  item.node = node;
}

/** One prediction from `WHERE a = 1 AND b = 'x'`. */
async function single(st: PlanState, sel: SelectInfo, item: Item): Promise<void> {
  const info = await modelInfo(st, item);
  const alias = lower(aliasOf(item));
  const row: Record<string, unknown> = {};
  const where = sel.node.where_clause as JNode | null;
  const bad = (n: JNode) => {
    const at = st.loc(n) ?? st.loc(n.left as JNode);
    return st.src.error(
      ERROR_CODES.BAD_INPUT,
      "The WHERE clause of a prediction must be equalities joined by AND, e.g. WHERE sqft = 823 AND location = 'good'",
      at === undefined ? undefined : st.rw.toSource(at),
    );
  };
  for (const c of conjuncts(where, sel.node, 'where_clause')) {
    const n = c.node;
    if (n.type !== 'COMPARE_EQUAL') throw bad(n);
    let col = n.left as JNode;
    let val = n.right as JNode;
    if (col.class !== 'COLUMN_REF') [col, val] = [val, col];
    const names = col.column_names as string[] | undefined;
    if (
      col.class !== 'COLUMN_REF' ||
      !names ||
      names.length > 2 ||
      (names.length === 2 && lower(names[0]) !== alias)
    ) {
      throw bad(n);
    }
    let value: unknown;
    if (val.class === 'PARAMETER') {
      const name = String(val.identifier);
      if (!st.ctx.params || !(name in st.ctx.params)) {
        throw st.src.error(ERROR_CODES.BAD_INPUT, `Parameter ':${name}' has no value in params`);
      }
      value = st.ctx.params[name];
    } else {
      const lit = literalValue(val);
      if (!lit) throw bad(n);
      value = lit.value;
    }
    row[names[names.length - 1]] = value;
    const span = st.exprSpan(n);
    if (!span) throw bad(n);
    st.edit(span.start, span.end, 'TRUE');
    (c.holder as Record<string | number, unknown>)[c.key] = trueNode();
  }
  if (info.desc.timeseries) {
    // WINDOW 1: the one row is the history; the answer is the forecast after it.
    const fc = await st.env.models.forecast(
      info.ref,
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, [v]])),
      1,
    );
    const name = await st.loadTemp('one', fc.columns, fc.values, fc.n);
    await replaceModel(st, item, PlanState.tempSql(name), aliasOf(item));
    return;
  }
  const p = await st.env.models.predictColumns(
    info.ref,
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, [v]])),
    1,
    { explain: explainWanted(st, sel, item, info, null) },
  );
  const ins = inputColumns(p.description);
  const columns = [
    ...ins,
    ...p.columns,
    { name: '__service_row_id', type: 'BIGINT' as const },
    { name: 'select_data_query', type: 'VARCHAR' as const },
    { name: 'when_data', type: 'VARCHAR' as const },
  ];
  const values: JsonValue[][] = [
    ...ins.map((c) => [p.inputs[c.name][0] as JsonValue]),
    ...p.values.map((v) => [v[0]]),
    [0],
    [null],
    [null],
  ];
  const name = await st.loadTemp('one', columns, values, 1);
  await replaceModel(st, item, PlanState.tempSql(name), aliasOf(item));
}

interface Source {
  /** The model column it feeds. */
  column: string;
  /** A data column (alias, column), or a value given in WHERE. */
  from: { ref: string[] } | { value: unknown };
}

/**
 * Predictions for the model at `items[k]` from the data on the other side of its join (the items
 * before it, or the item after it when the model comes first).
 */
async function batch(
  st: PlanState,
  sel: SelectInfo,
  items: Item[],
  k: number,
  joinIndex: number,
  done: Map<Item, string[]>,
): Promise<void> {
  const item = items[k];
  const info = await modelInfo(st, item);
  const modelAlias = aliasOf(item);
  const mAlias = lower(modelAlias);
  const modelFirst = k === 0;
  const dataItems = modelFirst ? [items[1]] : items.slice(0, k);
  const dataSide = modelFirst ? items[1].node : (items[k].join!.left as JNode);
  const join = items[joinIndex].join!;

  // Columns of each data alias (earlier models: their prediction columns).
  const dataCols: { alias: string; columns: string[] }[] = [];
  for (const d of dataItems) {
    const alias = aliasOf(d);
    const prior = done.get(d);
    if (prior) {
      dataCols.push({ alias, columns: prior });
      continue;
    }
    const sql = await st.render(
      selectNode({
        selectList: [starNode(alias)],
        from: clone(dataSide),
        modifiers: [limitModifier(0)],
      }),
      sel.scope.ctes,
    );
    const r = await st.runGenerated(
      sql,
      `reading the columns of '${alias}' for model '${info.ref.name}'`,
      { params: paramsOf(sql, st.ctx.params) },
    );
    dataCols.push({ alias, columns: r.columns });
  }
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
  const keyed = [...sources.values()].filter(
    (s): s is Source & { from: { ref: string[] } } => 'ref' in s.from,
  );
  const constants = [...sources.values()].filter(
    (s): s is Source & { from: { value: unknown } } => 'value' in s.from,
  );

  // The model's input rows: distinct inputs of the data side, with what can be pushed down.
  const pushed = modelFirst
    ? { where: null, modifiers: [] }
    : await pushdown(st, sel, items, k, dataCols, info);
  const keySuffix = `${st.ctx.seq.n + 1}`;
  const keyName = (i: number) => `__mdb_k${i}_${keySuffix}`;
  let n = 1;
  let keyColumns: JsonValue[][] = [];
  let inName: string | null = null;
  if (keyed.length > 0) {
    const inner = selectNode({
      selectList: keyed.map((s, i) => columnRef(s.from.ref, keyName(i))),
      from: clone(dataSide),
      where: pushed.where,
      modifiers: pushed.modifiers,
    });
    const innerSql = await st.render(inner, sel.scope.ctes);
    inName = st.tempName('in');
    await st.runGenerated(
      // Sorted: the predictor is several times faster on rows whose equal values are adjacent
      // (100k rows: 1.3 s sorted, 14 s in hash order), and the match below does not need order.
      `CREATE TEMP TABLE ${quoteIdent(inName)} AS SELECT DISTINCT * FROM (${innerSql}) AS __mdb_q ORDER BY ALL`,
      `computing the input rows of model '${info.ref.name}'`,
      { params: paramsOf(innerSql, st.ctx.params) },
    );
    const r = await st.run(`SELECT * FROM ${PlanState.tempSql(inName)} ORDER BY rowid`);
    n = r.rows.length;
    keyColumns = transpose(r.rows, keyed.length);
  }
  const columns: Record<string, readonly unknown[]> = {};
  keyed.forEach((s, i) => (columns[s.column] = keyColumns[i]));
  for (const s of constants) columns[s.column] = new Array(n).fill(s.from.value);
  const p = await st.env.models.predictColumns(info.ref, columns, n, {
    unknownColumns: 'ignore',
    explain: explainWanted(st, sel, item, info, join),
  });
  const pv = await st.loadTemp('pv', p.columns, p.values, n);
  done.set(
    item,
    p.columns.map((c) => c.name),
  );

  const pvSql = PlanState.tempSql(pv);
  if (!modelFirst) {
    const match = keyed
      .map(
        (s, i) =>
          `__mdb_i.${quoteIdent(keyName(i))} IS NOT DISTINCT FROM ${s.from.ref.map(quoteIdent).join('.')}`,
      )
      .join(' AND ');
    const relation = inName
      ? `(SELECT __mdb_v.* FROM ${PlanState.tempSql(inName)} AS __mdb_i JOIN ${pvSql} AS __mdb_v ON __mdb_i.rowid = __mdb_v.rowid WHERE ${match})`
      : `(SELECT __mdb_v.* FROM ${pvSql} AS __mdb_v)`;
    await replaceModel(st, item, relation, modelAlias);
    return;
  }
  // The model comes first: its relation carries the inputs, matched in the join condition.
  const keysSelect = inName
    ? `, ${keyed.map((_, i) => `__mdb_i.${quoteIdent(keyName(i))}`).join(', ')}`
    : '';
  const relation = inName
    ? `(SELECT __mdb_v.*${keysSelect} FROM ${PlanState.tempSql(inName)} AS __mdb_i JOIN ${pvSql} AS __mdb_v ON __mdb_i.rowid = __mdb_v.rowid)`
    : `(SELECT __mdb_v.* FROM ${pvSql} AS __mdb_v)`;
  const match = keyed
    .map(
      (s, i) =>
        `${quoteIdent(modelAlias)}.${quoteIdent(keyName(i))} IS NOT DISTINCT FROM ${s.from.ref.map(quoteIdent).join('.')}`,
    )
    .join(' AND ');
  if (match) {
    const cond = join.condition as JNode;
    const span = literalValue(cond)?.value === true ? st.exprSpan(cond) : null;
    if (!span)
      throw refusal(
        st,
        item,
        'A model before the data it predicts from takes no ON condition (or only column mappings): FROM model JOIN data',
      );
    st.edit(span.start, span.end, `(${match})`);
    hideKeys(
      st,
      sel,
      modelAlias,
      keyed.map((_, i) => keyName(i)),
    );
  }
  await replaceModel(st, item, relation, modelAlias);
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** Whether the query may read this model's `_explain` (then it carries the contributions). */
const explainWanted = (
  st: PlanState,
  sel: SelectInfo,
  item: Item,
  info: ModelInfo,
  join: JNode | null,
) => readsExplainColumn(st.index, sel, aliasOf(item), `${info.desc.target}_explain`, join);

/** Keeps the match columns of a model-first relation out of `*` and `model.*`. */
function hideKeys(st: PlanState, sel: SelectInfo, alias: string, keys: string[]): void {
  for (const e of sel.exprs) {
    const n = e.node;
    if (n.class !== 'STAR' || !e.selectItem) continue;
    const rel = String(n.relation_name ?? '');
    if (rel && lower(rel) !== lower(alias)) continue;
    st.excludeFromStar(
      n,
      rel ? keys.map(quoteIdent) : keys.map((k) => `${quoteIdent(alias)}.${quoteIdent(k)}`),
      'SELECT * EXCLUDE (...) over a model that comes first in FROM is not supported; put the data table first',
    );
  }
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
    .slice(k + 1)
    .every((it) => st.resolved.get(it.node)?.kind === 'model');
  const grouped =
    (sel.node.group_expressions as unknown[]).length > 0 ||
    !!sel.node.having ||
    !!sel.node.qualify ||
    mods.some((m) => m.type === 'DISTINCT_MODIFIER');
  if (limit && down.length === all.length && onlyModelsAfter && !grouped) {
    const aggs = await aggregateNames(st);
    let aggregated = false;
    forEachExpr([sel.node.select_list, order ?? null], (x) => {
      if (
        x.class === 'WINDOW' ||
        (x.class === 'FUNCTION' && aggs.has(lower(String(x.function_name))))
      ) {
        aggregated = true;
      }
    });
    const orderOk =
      !order || ((order.orders as JNode[]) ?? []).every((o) => dataOnly(o.expression as JNode));
    if (!aggregated && orderOk) {
      if (order) modifiers.push(clone(order));
      modifiers.push(clone(limit));
    }
  }
  return { where, modifiers };
}
