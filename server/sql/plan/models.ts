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
import { inputColumns, predictionColumns } from '../../models/predict';
import { quoteIdent } from '../../engine/quote';
import { ERROR_CODES } from '../../errors';
import { applyEdits } from '../syntax/source';
import type { JNode, SelectInfo } from '../syntax/tree';
import { planForecastJoin, singleRowForecastError } from './forecast';
import { aggregatesIn } from './model-inputs';
import {
  aliasOf,
  chain,
  containsModel,
  modelInfo,
  refusal,
  type Item,
  type ModelInfo,
} from './model-refs';
import { batch, single } from './model-relations';
import { paramsOf, type PlanState } from './state';

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
