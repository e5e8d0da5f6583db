/**
 * The relations a model reference becomes: one prediction from a WHERE of equalities, or a
 * batch's predictions matched to the data rows (`IS NOT DISTINCT FROM` on the inputs), loaded
 * into TEMP tables and written in place of the reference, in the text and in the tree.
 */
import { isForecaster } from '../../automl/index';
import { assertKnownColumns } from '../../models/predict/casting';
import { inputColumns } from '../../models/predict/columns';
import { forecastColumns } from '../../models/predict/forecast';
import { quoteIdent } from '../../engine/quote';
import { ERROR_CODES } from '../../errors';
import { conjuncts, parseQuery, trueNode, type JNode, type SelectInfo } from '../syntax/tree';
import { recordDataRelation, recordModelRelation } from './column-origins';
import { readsExplainColumn } from './explain-use';
import { modelInputs } from './model-inputs';
import { hideFromStars } from './order';
import { aliasOf, lower, modelInfo, refusal, type Item, type ModelInfo } from './model-refs';
import { PlanState, literalValue, tempType, valueParam, type KeyPart, type Span } from './state';
import { SERVICE_COLUMNS } from './steps';

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
  const written = st.itemSpans.get(item.node);
  if (written) st.itemSpans.set(node, written);
  item.holder[item.key] = node;
  st.resolved.set(node, { kind: 'local' });
  item.node = node;
}

/** One prediction from `WHERE a = 1 AND b = 'x'`. */
export async function single(st: PlanState, sel: SelectInfo, item: Item): Promise<void> {
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
  const label = `${info.ref.project}.${info.ref.name}`;
  const record = st.env.models.ready(info.ref);
  if (info.desc.timeseries) {
    // WINDOW 1: the one row is the history; the answer is the forecast after it.
    const into = st.tempName('one');
    const predictor = await st.env.models.predictor(record);
    if (!isForecaster(predictor)) throw new Error(`model ${label} has no forecaster`);
    await st.addStep(
      { kind: 'forecast-row', model: info.ref, label, row, into },
      { columns: forecastColumns(record, predictor) },
    );
    await replaceModel(st, item, PlanState.tempSql(into), aliasOf(item));
    return;
  }
  assertKnownColumns(label, info.desc, Object.keys(row));
  const columns = [...inputColumns(info.desc), ...info.outputs];
  // No TEMP table: the row is a relation of typed parameters the step gives values (creating,
  // filling and dropping a table were three of the form's five engine round trips).
  const into = st.valuesName('one', columns.length);
  st.steps.push({
    kind: 'predict',
    model: info.ref,
    label,
    relation: null,
    inputs: null,
    sources: Object.entries(row).map(([column, value]) => ({ column, value })),
    explain: explainWanted(st, sel, item, info, null),
    db: undefined,
    single: true,
    outputs: info.outputs,
    into,
  });
  recordModelRelation(st, {
    ...originOf(st, sel, item, info, 0),
    star: [...columns, ...SERVICE_COLUMNS].map((c) => c.name),
    inputs: [],
    values: row,
  });
  st.singleRelations.set(sel.node, {
    into,
    alias: aliasOf(item),
    columns: [
      ...columns.map((c, i) => ({ name: c.name, type: tempType(c.type), source: { value: i } })),
      ...SERVICE_COLUMNS.map((c) => ({
        name: c.name,
        type: c.type,
        source: { constant: c.type === 'BIGINT' ? 0 : null },
      })),
    ],
  });
  await replaceModel(st, item, singleRowRelation(into, columns), aliasOf(item));
}

/**
 * One predicted row as a relation: each input and output column a typed parameter
 * (`$<into>_<i>`, given by the step), then MindsDB's service columns.
 */
function singleRowRelation(into: string, columns: readonly { name: string; type: string }[]) {
  const cells = columns.map(
    (c, i) => `CAST($${valueParam(into, i)} AS ${tempType(c.type)}) AS ${quoteIdent(c.name)}`,
  );
  const service = SERVICE_COLUMNS.map(
    (c) => `CAST(${c.type === 'BIGINT' ? '0' : 'NULL'} AS ${c.type}) AS ${quoteIdent(c.name)}`,
  );
  return `(SELECT ${[...cells, ...service].join(', ')})`;
}

/** What column-origins.ts is told of every model relation (issue 27: the grid's "why"). */
function originOf(st: PlanState, sel: SelectInfo, item: Item, info: ModelInfo, index: number) {
  const r = st.env.models.ready(info.ref);
  return {
    sel,
    alias: aliasOf(item),
    index,
    model: { project: r.project, model: r.name, version: r.version },
    outputs: new Set(info.outputs.map((c) => lower(c.name))),
    predicted: info.base,
  };
}

/**
 * Predictions for the model at `items[k]` from the data on the other side of its join (the items
 * before it, or the item after it when the model comes first).
 */
export async function batch(
  st: PlanState,
  sel: SelectInfo,
  items: Item[],
  k: number,
  joinIndex: number,
  done: Map<Item, string[]>,
  data: ReadonlyMap<Item, string[]>,
  key: readonly KeyPart[],
): Promise<void> {
  const item = items[k];
  const info = await modelInfo(st, item);
  const modelAlias = aliasOf(item);
  const modelFirst = k === 0;
  const join = items[joinIndex].join!;
  const inputs = await modelInputs(st, sel, items, k, join, done, data, key, info);
  const pv = st.tempName('pv');
  const rows = inputs.rows;
  await st.addStep(
    {
      kind: 'predict',
      model: info.ref,
      label: `${info.ref.project}.${info.ref.name}`,
      relation: inputs.relation,
      inputs: inputs.inName,
      ...(rows ? { rows: rows.column } : {}),
      sources: inputs.sources,
      explain: explainWanted(st, sel, item, info, join),
      unread: unreadOutputs(st, sel, item, info, join),
      db: st.engineDb(st.db),
      single: false,
      outputs: info.outputs,
      into: pv,
    },
    { columns: rows ? [...info.outputs, { name: rows.column, type: 'BIGINT' }] : info.outputs },
  );
  const { keyed, keyName, inName } = inputs;
  recordModelRelation(st, {
    ...originOf(st, sel, item, info, k),
    star: info.outputs.map((c) => c.name),
    // The target is matched too (a model predicting its own column keeps it): not an input.
    inputs: keyed
      .filter((s) => info.desc.inputs.includes(s.column))
      .map((s) => ({ input: s.column, ref: s.from.ref })),
    values: Object.fromEntries(
      inputs.sources.flatMap((s) => ('value' in s ? [[s.column, s.value]] : [])),
    ),
  });
  items.forEach((it, index) => {
    const star = data.get(it);
    if (star) recordDataRelation(st, { sel, alias: aliasOf(it), index, star });
  });
  readInputsFromData(st, sel, modelAlias, keyed, info.outputs);
  done.set(
    item,
    info.outputs.map((c) => c.name),
  );

  const pvSql = PlanState.tempSql(pv);
  if (rows) {
    // Each data row's predictions, found by its position (one number, not every input).
    const r = quoteIdent(rows.column);
    const relation = `(SELECT __mdb_v.* EXCLUDE (${r}) FROM ${pvSql} AS __mdb_v WHERE __mdb_v.${r} = ${quoteIdent(rows.key.alias)}.${quoteIdent(rows.key.column)})`;
    await replaceModel(st, item, relation, modelAlias);
    return;
  }
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

/**
 * `m.<input>`: MindsDB's model output carries the input columns as the model read them, so a
 * query may name them through the model's alias. They are the data columns mapped onto the
 * inputs, and the reference is written as that data column (a column the model also predicts,
 * the target, keeps its prediction). `m.*` stays the prediction columns: the data side's `*`
 * has the inputs already.
 */
function readInputsFromData(
  st: PlanState,
  sel: SelectInfo,
  alias: string,
  keyed: readonly { column: string; from: { ref: string[] } }[],
  predicted: readonly { name: string }[],
): void {
  const a = lower(alias);
  const outputs = new Set(predicted.map((c) => lower(c.name)));
  const byInput = new Map(
    keyed.filter((s) => !outputs.has(lower(s.column))).map((s) => [lower(s.column), s.from.ref]),
  );
  if (byInput.size === 0) return;
  for (const e of sel.exprs) {
    const n = e.node;
    if (n.class !== 'COLUMN_REF') continue;
    const names = (n.column_names as string[] | undefined) ?? [];
    if (names.length !== 2 || lower(names[0]) !== a) continue;
    const ref = byInput.get(lower(names[1]));
    const span = ref ? st.exprSpan(n) : null;
    if (!ref || !span) continue;
    // Unaliased in the select list, the column keeps the name the user wrote.
    const named = e.selectItem && !n.alias ? ` AS ${quoteIdent(names[1])}` : '';
    st.edit(span.start, span.end, `${ref.map(quoteIdent).join('.')}${named}`);
    n.column_names = [...ref];
  }
}

/** Whether the query may read this model's `_explain` (then it carries the contributions). */
const explainWanted = (
  st: PlanState,
  sel: SelectInfo,
  item: Item,
  info: ModelInfo,
  join: JNode | null,
) => readsExplainColumn(st.index, sel, aliasOf(item), `${info.base}_explain`, join);

/**
 * The model's service columns (`_confidence` ... `_explain`) the statement cannot read, decided
 * like `_explain`'s contributions: their values are left null instead of computed and loaded (a
 * scoring join reading only `m.y` spent half its prediction time building and loading them).
 */
const unreadOutputs = (
  st: PlanState,
  sel: SelectInfo,
  item: Item,
  info: ModelInfo,
  join: JNode | null,
) =>
  info.outputs
    .slice(1)
    .map((c) => c.name)
    .filter((c) => !readsExplainColumn(st.index, sel, aliasOf(item), c, join));

/** Keeps the match columns of a model-first relation out of `*` and `model.*`. */
function hideKeys(st: PlanState, sel: SelectInfo, alias: string, keys: string[]): void {
  hideFromStars(
    st,
    sel,
    keys.map((column) => ({ alias, column })),
  );
}
