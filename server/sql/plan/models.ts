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
 * - `FROM model JOIN data`: the same, with the match in the join condition. *
 * Here: the walk over the SELECTs and the choice per model; model-refs.ts finds the references,
 * model-inputs.ts computes a batch's input rows, model-relations.ts writes the predictions in.
 */
import { inputColumns, predictionColumns } from '../../models/predict/columns';
import { quoteIdent } from '../../engine/quote';
import { ERROR_CODES } from '../../errors';
import { applyEdits } from '../syntax/source';
import type { JNode, SelectInfo } from '../syntax/tree';
import { planForecastJoin, singleRowForecastError } from './forecast';
import { resolveBareNames } from './bare-names';
import { aggregatesIn } from './model-inputs';
import {
  aliasOf,
  chain,
  clone,
  containsModel,
  modelInfo,
  refusal,
  type Item,
  type ModelInfo,
} from './model-refs';
import { batch, single } from './model-relations';
import { keepsOrder, orderQuery, positionItem, queryPlaces } from './order';
import {
  limitModifier,
  paramsOf,
  selectNode,
  starNode,
  type KeyPart,
  type PlanState,
} from './state';

export async function planModels(st: PlanState, exportRoot = false): Promise<void> {
  st.validate = () => validate(st);
  const byNode = new Map(st.index.selects.map((s) => [s.node, s]));
  const anyModel = st.index.tables.some((t) => st.resolved.get(t.node)?.kind === 'model');
  await checkLatest(st);
  // Inner queries first, each given its order right after its models are planned: a query that
  // reads it as data takes the key it exports.
  const orderless = new Set<JNode>();
  for (const place of anyModel ? queryPlaces(st, st.root) : []) {
    const sel = byNode.get(place.node);
    if (sel) {
      const models = sel.tables.filter((t) => st.resolved.get(t.node)?.kind === 'model');
      if (models.length > 0) await planSelect(st, sel);
      if (!keepsOrder(sel.node, await aggregatesIn(st, sel))) orderless.add(sel.node);
    }
    orderQuery(st, place, sel, orderless, exportRoot);
  }
  st.writeStarExcludes();
  for (const l of st.latest) if (!st.latestUsed.has(l)) throw misplacedLatest(st, l);
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

function misplacedLatest(st: PlanState, l: JNode) {
  const at = st.loc(l);
  return st.src.error(
    ERROR_CODES.BAD_INPUT,
    'LATEST (the latest time of each group) belongs in the WHERE clause of a query joining a time-series model, compared with its ORDER BY column: WHERE t.<time column> > LATEST',
    at === undefined ? undefined : st.rw.toSource(at),
  );
}

/** LATEST in a SELECT that joins no time-series model is refused before anything is predicted. */
async function checkLatest(st: PlanState): Promise<void> {
  if (st.latest.size === 0) return;
  for (const sel of st.index.selects) {
    const mine = sel.exprs.filter((e) => st.latest.has(e.node));
    if (mine.length === 0) continue;
    let timeseries = false;
    for (const t of sel.tables) {
      const r = st.resolved.get(t.node);
      if (r?.kind !== 'model') continue;
      const desc = (await st.env.models.predictor(st.env.models.ready(r.ref))).description;
      if (desc.timeseries) timeseries = true;
    }
    if (!timeseries) throw misplacedLatest(st, mine[0].node);
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
    const record = st.env.models.ready(r.ref);
    const desc = (await st.env.models.predictor(record)).description;
    const cols = [...inputColumns(desc), ...predictionColumns(desc, record.targetAlias)];
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
  const infos = new Map<Item, ModelInfo>();
  for (const it of items) {
    if (!isModel(it)) continue;
    const info = await modelInfo(st, it);
    if (info.desc.timeseries) return timeseries(st, sel, items, it, info);
    infos.set(it, info);
  }
  if (items.length === 1) return single(st, sel, items[0]);
  if (infos.has(items[0]) && infos.has(items[1])) {
    throw refusal(
      st,
      items[0],
      'Two models joined with each other need a data table first: FROM data JOIN model1 JOIN model2',
    );
  }
  // The data side's rows carry their positions (the order the answer keeps: plan/order.ts).
  const key: KeyPart[] = [];
  for (const it of items) {
    if (infos.has(it)) continue;
    const k = positionItem(st, sel, it.holder, it.key);
    it.node = it.holder[it.key] as JNode;
    if (k) key.push(...k);
  }
  const data = await dataColumns(st, sel, items, infos, key);
  resolveBareNames(st, sel, items, infos, data);
  const done = new Map<Item, string[]>();
  for (let k = 0; k < items.length; k++) {
    if (!infos.has(items[k])) continue;
    await batch(st, sel, items, k, k === 0 ? 1 : k, done, data, key);
  }
  if (key.length) st.keys.set(sel.node, key);
}

/** The columns of each data item of a model join (its planner columns left out). */
async function dataColumns(
  st: PlanState,
  sel: SelectInfo,
  items: Item[],
  infos: Map<Item, ModelInfo>,
  key: KeyPart[],
): Promise<Map<Item, string[]>> {
  const out = new Map<Item, string[]>();
  const model = infos.values().next().value!;
  for (const it of items) {
    if (infos.has(it)) continue;
    const alias = aliasOf(it);
    const sql = await st.render(
      selectNode({
        selectList: [starNode(alias)],
        from: clone(it.node),
        modifiers: [limitModifier(0)],
      }),
      sel.scope.ctes,
    );
    const r = await st.runGenerated(
      sql,
      `reading the columns of '${alias}' for model '${model.ref.name}'`,
      { params: paramsOf(sql, st.ctx.params) },
    );
    const hidden = new Set(key.filter((k) => k.alias === alias).map((k) => k.column));
    out.set(
      it,
      r.columns.filter((c) => !hidden.has(c)),
    );
  }
  return out;
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
    model: {
      node: item.node,
      alias: aliasOf(item),
      ref: info.ref,
      desc: info.desc,
      base: info.base,
    },
    data: { node: other[0].node, alias: aliasOf(other[0]) },
    join: items[1].join!,
    modelFirst,
  });
}
