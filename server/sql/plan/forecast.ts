/**
 * Time-series models in a query: MindsDB's forecast forms, planned as its own planner does
 * (mindsdb/api/executor/planner/plan_join_ts.py) and answered with the rows its executor returns.
 *
 * `FROM data AS t JOIN p.m AS m` (or the model first) with, in WHERE, at most one condition on the
 * model's ORDER BY column:
 *
 * - `t.time > LATEST`: `HORIZON` forecast rows per group after its latest row (only the last rows
 *   of each group that a forecast reads are fetched);
 * - `t.time = LATEST`: each group's latest row, with the forecast the model made for it;
 * - `t.time > '2016-01-01'` (also `>=`, `<`, `<=`, BETWEEN, LATEST with those): the history rows
 *   the condition selects, each with its one-step forecast made from the rows before it (MindsDB's
 *   rows for known timestamps: `<target>_original` is the truth, `_anomaly` whether it fell
 *   outside the interval), and the forecast rows after each group's latest row it selects;
 * - `t.time = '2016-01-01'`: the forecast from the history up to that date;
 * - no condition on the time: every history row and the forecast after each group's latest row.
 *
 * LATEST is each group's latest row with a target: the forecast starts after it. Rows after it
 * with a NULL target are where the forecast goes: `> LATEST` forecasts from the rows up to it, and
 * in the forms with history rows the forecast row of such a row's time takes its place (one row
 * per group and time). MindsDB's LATEST is the latest row, NULL target or not.
 *
 * Other conditions on the data (`t.type = 'house'`) select the history first, as MindsDB does:
 * the groups forecast and the rows they are forecast from. The model's columns (`m.*`) are the
 * ORDER BY and GROUP BY columns and the prediction columns; the data's (`t.*`) are the row a
 * history row is, and NULL on forecast rows (MindsDB joins predictions to data by row). Without
 * an ORDER BY the rows come group by group (groups sorted by their values), in time order.
 *
 * How: the history goes into a TEMP table (`__mdb_row` numbers its rows, `__mdb_latest` is each
 * group's latest time), the registry forecasts from it, the answer goes into another TEMP table
 * (`__mdb_row`: the history row a row is, NULL for forecasts; `__mdb_origin`: the history row it
 * continues; `__mdb_seq`: the output order), and the FROM clause is rewritten to join the two by
 * row. The data conditions stay in WHERE, rewritten to read the origin row (`m.__mdb_o`, a struct
 * of it), which passed them: they hold for every row, forecast rows included.
 */
import type { ColumnarForecast } from '../../models/predict/forecast';
import type { ModelRef } from '../../models/registry';
import type { ModelDescription, TimeSeriesDescription } from '../../automl/index';
import { quoteIdent } from '../../engine/quote';
import type { JsonValue } from '../../engine/values';
import { ERROR_CODES, badInput } from '../../errors';
import { isOp } from '../syntax/tokens';
import { conjuncts, forEachExpr, parseQuery, type JNode, type SelectInfo } from '../syntax/tree';
import { isForecaster } from '../../automl/index';
import { loadTempTable } from '../../engine/scratch';
import { forecastColumns } from '../../models/predict/forecast';
import type { ExecContext, SqlEnv } from '../types';
import { hideFromStars } from './order';
import { dropTemp, stepQuery } from './run-sql';
import type { ForecastStep } from './steps';
import {
  PlanState,
  columnRef,
  limitModifier,
  literalValue,
  paramsOf,
  selectNode,
  starNode,
} from './state';

export interface ForecastJoin {
  sel: SelectInfo;
  model: { node: JNode; alias: string; ref: ModelRef; desc: ModelDescription; base: string };
  data: { node: JNode; alias: string };
  join: JNode;
  modelFirst: boolean;
}

const lower = (s: string) => s.toLowerCase();
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

const COMPARISONS: Record<string, { op: string; flipped: string }> = {
  COMPARE_GREATERTHAN: { op: '>', flipped: '<' },
  COMPARE_GREATERTHANOREQUALTO: { op: '>=', flipped: '<=' },
  COMPARE_LESSTHAN: { op: '<', flipped: '>' },
  COMPARE_LESSTHANOREQUALTO: { op: '<=', flipped: '>=' },
  COMPARE_EQUAL: { op: '=', flipped: '=' },
};

/** The condition on the ORDER BY column, as `column op value` (written either way round). */
interface TimeFilter {
  node: JNode;
  holder: JNode | unknown[];
  key: string | number;
  /** The operator with the column on the left; BETWEEN for `col BETWEEN a AND b`. */
  op: '>' | '>=' | '<' | '<=' | '=' | 'BETWEEN';
  /** The column reference and, for comparisons, the other side (a LATEST node or a value). */
  column: JNode;
  value: JNode | null;
  latest: boolean;
  /** The column is the right operand. */
  flipped: boolean;
}

const CLAUSE_ENDS = new Set([
  'WHERE',
  'GROUP',
  'HAVING',
  'QUALIFY',
  'WINDOW',
  'ORDER',
  'LIMIT',
  'OFFSET',
  'FETCH',
  'UNION',
  'EXCEPT',
  'INTERSECT',
]);

/** Forecasts for `FROM data JOIN model` (see the module comment). */
export async function planForecastJoin(st: PlanState, j: ForecastJoin): Promise<void> {
  const { sel, model, data } = j;
  const ts = model.desc.timeseries!;
  const mAlias = model.alias;
  const dAlias = data.alias;
  const label = `${model.ref.project}.${model.ref.name}`;
  const at = st.loc(j.join) ?? st.loc(model.node);
  const refuse = (message: string) =>
    st.src.error(ERROR_CODES.BAD_INPUT, message, at === undefined ? undefined : st.rw.toSource(at));

  const cond = j.join.condition as JNode | null;
  if (cond && literalValue(cond)?.value !== true) {
    throw refuse(
      `Time-series model '${label}' is joined to its data row by row: write FROM <data> AS t JOIN ${label} AS m without an ON condition (MindsDB ignores one)`,
    );
  }

  // The data's columns, and the model's columns in them.
  const colsSql = await st.render(
    selectNode({
      selectList: [starNode(dAlias)],
      from: clone(data.node),
      modifiers: [limitModifier(0)],
    }),
    sel.scope.ctes,
  );
  const dataColumns = (
    await st.runGenerated(colsSql, `reading the columns of '${dAlias}' for model '${label}'`, {
      params: paramsOf(colsSql, st.ctx.params),
    })
  ).columns;
  const need = (name: string, role: string) => {
    const c = dataColumns.find((x) => lower(x) === lower(name));
    if (c === undefined) {
      throw refuse(
        `The data joined with time-series model '${label}' has no column '${name}' (${role}); its columns are: ${dataColumns.join(', ')}`,
      );
    }
    return c;
  };
  const orderCol = need(ts.orderBy, 'its ORDER BY column');
  const groupCols = ts.groupBy.map((g) => need(g, 'one of its GROUP BY columns'));
  const targetCol = need(model.desc.target, 'the history of its PREDICT column');

  // WHERE: the time condition, and the conditions on the data alone.
  const where = conjuncts(sel.node.where_clause as JNode, sel.node, 'where_clause');
  const outputs = new Set(
    [ts.orderBy, ...ts.groupBy, model.base]
      .map(lower)
      .concat(
        ['confidence', 'min', 'max', 'anomaly', 'original', 'explain'].map(
          (s) => `${lower(model.base)}_${s}`,
        ),
      ),
  );
  const dataLower = new Set(dataColumns.map(lower));
  const isOrderRef = (n: JNode): boolean => {
    if (n.class !== 'COLUMN_REF') return false;
    const names = n.column_names as string[];
    if (lower(names[names.length - 1]) !== lower(ts.orderBy)) return false;
    return (
      names.length === 1 ||
      (names.length === 2 &&
        (lower(names[0]) === lower(dAlias) || lower(names[0]) === lower(mAlias)))
    );
  };
  const isValue = (n: JNode) =>
    st.latest.has(n) || n.class === 'PARAMETER' || literalValue(n) !== null;
  let filter: TimeFilter | null = null;
  const pushed: typeof where = [];
  for (const c of where) {
    const n = c.node;
    let f: TimeFilter | null = null;
    const cmp = COMPARISONS[String(n.type)];
    if (n.class === 'COMPARISON' && cmp) {
      const [l, r] = [n.left as JNode, n.right as JNode];
      if (isOrderRef(l) && isValue(r)) {
        f = {
          ...c,
          op: cmp.op as TimeFilter['op'],
          column: l,
          value: r,
          latest: st.latest.has(r),
          flipped: false,
        };
      } else if (isOrderRef(r) && isValue(l)) {
        f = {
          ...c,
          op: cmp.flipped as TimeFilter['op'],
          column: r,
          value: l,
          latest: st.latest.has(l),
          flipped: true,
        };
      }
    } else if (n.class === 'BETWEEN' && isOrderRef(n.input as JNode)) {
      f = {
        ...c,
        op: 'BETWEEN',
        column: n.input as JNode,
        value: null,
        latest: false,
        flipped: false,
      };
    }
    if (f) {
      if (filter) {
        throw refuse(
          `A forecast takes one condition on the ORDER BY column '${ts.orderBy}' (e.g. ${dAlias}.${ts.orderBy} > LATEST), not two`,
        );
      }
      filter = f;
      continue;
    }
    if (dataOnly(n, dAlias, dataLower, outputs)) pushed.push(c);
  }
  for (const b of [
    ...(filter?.node.class === 'BETWEEN' ? [filter.node.lower, filter.node.upper] : []),
  ] as JNode[]) {
    if (st.latest.has(b)) st.latestUsed.add(b);
  }
  if (filter?.latest) st.latestUsed.add(filter.value!);

  const mode = filter
    ? filter.latest
      ? filter.op === '>'
        ? 'after-latest'
        : filter.op === '=' || filter.op === '>='
          ? 'at-latest'
          : 'all'
      : filter.op === '='
        ? 'up-to-date'
        : 'all'
    : 'all';
  const withHistory = mode !== 'after-latest' && mode !== 'up-to-date';

  // The history: the data's rows that the data conditions select.
  const conds = pushed.map((c) => clone(c.node));
  if (mode === 'up-to-date') {
    conds.push({
      class: 'COMPARISON',
      type: 'COMPARE_LESSTHANOREQUALTO',
      alias: '',
      query_location: 0,
      left: columnRef([dAlias, orderCol]),
      right: clone(filter!.value!),
    });
  }
  const inner = await st.render(
    selectNode({
      selectList: [starNode(dAlias)],
      from: clone(data.node),
      where:
        conds.length === 0
          ? null
          : conds.length === 1
            ? conds[0]
            : {
                class: 'CONJUNCTION',
                type: 'CONJUNCTION_AND',
                alias: '',
                query_location: 0,
                children: conds,
              },
    }),
    sel.scope.ctes,
  );
  const q = quoteIdent;
  const partition = groupCols.length ? `PARTITION BY ${groupCols.map(q).join(', ')}` : '';
  // Enough rows for the intervals to recalibrate on outcomes after the training data, when the
  // data has them (models trained before that field read historyRows).
  const rows = ts.recalibrationRows ?? ts.historyRows;
  const keep = mode === 'after-latest' ? rows : mode === 'at-latest' ? rows + 1 : 0;
  const hist = st.tempName('ts_history');
  // LATEST is each group's latest row with a target. With LATEST in `>`/`=`, the history ends
  // there: a trailing NULL target is the first step forecast and HORIZON rows follow it. A NULL
  // target before it stays: the forecaster fills it in its place.
  const toLatest = mode === 'after-latest' || mode === 'at-latest';
  const latest = `max(CASE WHEN ${q(targetCol)} IS NOT NULL THEN ${q(orderCol)} END) OVER (${partition})`;
  const withLatest = `SELECT *, ${latest} AS __mdb_latest FROM (${inner}) AS __mdb_i WHERE ${q(orderCol)} IS NOT NULL`;
  const upTo = toLatest ? ` WHERE ${q(orderCol)} <= __mdb_latest` : '';
  const relation = `SELECT *, row_number() OVER (ORDER BY ${[...groupCols, orderCol].map(q).join(', ')}) - 1 AS __mdb_row FROM (${withLatest}) AS __mdb_q${upTo}${keep ? ` QUALIFY dense_rank() OVER (${partition} ORDER BY ${q(orderCol)} DESC) <= ${keep}` : ''}`;
  await st.placeholder(
    hist,
    { query: relation },
    `reading the history for time-series model '${label}'`,
  );
  const histSql = PlanState.tempSql(hist);

  // The answer, group by group: its history rows in time order, then its forecast; its ORDER BY
  // and GROUP BY columns typed like the data's (see runForecast).
  const record = st.env.models.ready(model.ref);
  const predictor = await st.env.models.predictor(record);
  if (!isForecaster(predictor)) throw new Error(`model ${label} has no forecaster`);
  const dataTypes = new Map(
    (await st.run(`DESCRIBE ${histSql}`)).rows.map((r) => [String(r[0]), String(r[1])]),
  );
  const fcColumns = forecastColumns(record, predictor);
  const typed = [orderCol, ...groupCols].map((c) => dataTypes.get(c));
  const answer = [
    ...fcColumns.map((c, i) => {
      const t = i <= groupCols.length ? typed[i] : undefined;
      return { name: c.name, type: t && t !== 'VARCHAR' ? t : String(c.type) };
    }),
    { name: '__mdb_row', type: 'BIGINT' },
    { name: '__mdb_origin', type: 'BIGINT' },
    { name: '__mdb_seq', type: 'BIGINT' },
  ];
  const pvName = st.tempName('ts_forecast');
  await st.addStep(
    {
      kind: 'forecast',
      model: model.ref,
      label,
      relation,
      history: hist,
      db: st.engineDb(st.db),
      withHistory,
      orderColumn: orderCol,
      groupColumns: groupCols,
      targetColumn: targetCol,
      window: ts.window,
      outputs: answer,
      into: pvName,
    },
    { columns: answer },
  );

  // FROM data JOIN model -> the history (plus one all-NULL row for forecasts) JOIN the answer.
  const dataRel = `(SELECT * EXCLUDE (__mdb_latest) FROM ${histSql} UNION ALL SELECT __mdb_n.* EXCLUDE (__mdb_latest) FROM (SELECT 1) AS __mdb_1 LEFT JOIN ${histSql} AS __mdb_n ON FALSE)`;
  const modelRel = `(SELECT __mdb_p.*, __mdb_oh AS __mdb_o FROM ${PlanState.tempSql(pvName)} AS __mdb_p JOIN ${histSql} AS __mdb_oh ON __mdb_oh.__mdb_row = __mdb_p.__mdb_origin)`;
  const match = `(${q(dAlias)}.__mdb_row IS NOT DISTINCT FROM ${q(mAlias)}.__mdb_row)`;
  const fromText = j.modelFirst
    ? `${modelRel} AS ${q(mAlias)} JOIN ${dataRel} AS ${q(dAlias)} ON ${match}`
    : `${dataRel} AS ${q(dAlias)} JOIN ${modelRel} AS ${q(mAlias)} ON ${match}`;
  const span = fromSpan(st, j.join, model.node);
  if (!span) throw refuse(`Cannot find the FROM clause of the query joining '${label}'`);
  st.edit(span.start, span.end, fromText);
  const parsed = await parseQuery(st.ctx.session, `SELECT * FROM ${fromText}`);
  if (!parsed.ok) throw new Error(`cannot parse a generated relation: ${parsed.message}`);
  sel.node.from_table = parsed.node.from_table;
  st.replacedModels.add(model.node);

  // WHERE: the time condition reads the answer's time (and each group's latest); the data
  // conditions read the origin row.
  const origin = (c: string) => `${q(mAlias)}.__mdb_o.${q(c)}`;
  if (filter) {
    renameColumn(st, filter.column, `${q(mAlias)}.${q(ts.orderBy)}`, [mAlias, ts.orderBy]);
    const latestNodes = [filter.value, filter.node.lower, filter.node.upper].filter(
      (x): x is JNode => !!x && st.latest.has(x as JNode),
    );
    for (const l of latestNodes) {
      renameColumn(st, l, origin('__mdb_latest'), [mAlias, '__mdb_o', '__mdb_latest']);
    }
    if (mode === 'up-to-date') {
      // `= date` forecasts from the rows up to the date: the answer's rows from it on (a row at
      // the date is history, so the forecast starts after it; where the date's target is NULL,
      // the date is the forecast's first step).
      const opAt = st.loc(filter.node);
      const tok = opAt === undefined ? undefined : st.tokens.sig[st.tokens.indexAt(opAt)];
      if (!tok || !isOp(tok, '='))
        throw refuse('Cannot rewrite the condition on the ORDER BY column');
      st.edit(tok.start, tok.end, filter.flipped ? '<=' : '>=');
      filter.node.type = filter.flipped
        ? 'COMPARE_LESSTHANOREQUALTO'
        : 'COMPARE_GREATERTHANOREQUALTO';
    }
  }
  for (const c of pushed) {
    forEachExpr(c.node, (x) => {
      if (x.class !== 'COLUMN_REF') return;
      const names = x.column_names as string[];
      const col = dataColumns.find((d) => lower(d) === lower(names[names.length - 1]))!;
      renameColumn(st, x, origin(col), [mAlias, '__mdb_o', col]);
    });
  }

  hideColumns(st, sel, dAlias, mAlias);
  resolveBareNames(st, sel, mAlias, dataLower, outputs, [
    filter?.node,
    ...pushed.map((c) => c.node),
  ]);
  // The answer's order: group by group, its history rows in time order, then its forecast
  // (plan/order.ts writes the ORDER BY where the query's rows keep it).
  st.keys.set(sel.node, [{ alias: mAlias, column: '__mdb_seq' }]);
}

/**
 * Bare names the data and the answer both have (the ORDER BY and GROUP BY columns, the target)
 * are the answer's, as in MindsDB (see plan/bare-names.ts): `SELECT saledate, MA FROM data JOIN
 * m` reads the forecast's dates and values. The time condition and the data conditions were
 * rewritten already.
 */
function resolveBareNames(
  st: PlanState,
  sel: SelectInfo,
  mAlias: string,
  data: ReadonlySet<string>,
  outputs: ReadonlySet<string>,
  handled: (JNode | undefined)[],
): void {
  const skip = new Set<JNode>();
  for (const h of handled) if (h) forEachExpr(h, (x) => skip.add(x));
  const aliases = new Set(
    (sel.node.select_list as JNode[]).map((x) => lower(String(x.alias ?? ''))).filter((x) => x),
  );
  for (const e of sel.exprs) {
    const n = e.node;
    if (n.class !== 'COLUMN_REF' || st.latest.has(n) || skip.has(n)) continue;
    const names = n.column_names as string[];
    if (names.length !== 1) continue;
    const name = lower(names[0]);
    if ((e.clause !== 'select' && aliases.has(name)) || !outputs.has(name) || !data.has(name)) {
      continue;
    }
    const named = e.selectItem && !n.alias ? ` AS ${quoteIdent(names[0])}` : '';
    renameColumn(st, n, `${quoteIdent(mAlias)}.${quoteIdent(names[0])}${named}`, [
      mAlias,
      names[0],
    ]);
  }
}

/**
 * Runs a forecast step: the history rows into their TEMP table, the forecast (and each history
 * row's one-step forecast when asked), and the answer, group by group (its history rows in time
 * order, then its forecast), into the step's table: ORDER BY and GROUP BY values go in as text
 * (numbers as numbers) and take the data's types where the values allow.
 */
export async function runForecast(env: SqlEnv, ctx: ExecContext, s: ForecastStep): Promise<void> {
  const q = quoteIdent;
  await dropTemp(ctx, s.history);
  await stepQuery(
    ctx,
    s.db,
    `CREATE TEMP TABLE ${q(s.history)} AS ${s.relation}`,
    `reading the history for time-series model '${s.label}'`,
  );
  const G = s.groupColumns.length;
  const read = await stepQuery(
    ctx,
    undefined,
    `SELECT ${[s.orderColumn, ...s.groupColumns, s.targetColumn].map(q).join(', ')}, __mdb_row FROM ${PlanState.tempSql(s.history)} ORDER BY __mdb_row`,
    `reading the history for time-series model '${s.label}'`,
  );
  const n = read.rows.length;
  const columns: Record<string, unknown[]> = {};
  [s.orderColumn, ...s.groupColumns, s.targetColumn].forEach(
    (c, i) => (columns[c] = read.rows.map((r) => r[i])),
  );
  const rowIds = read.rows.map((r) => r[G + 2]);
  const fc = await env.models.forecast(s.model, columns, n, { history: s.withHistory });
  notes(ctx, fc, s.label);
  fillShortHistory(fc, read.rows, G, s.window);

  const loadCols = [
    ...fc.columns.map((c, i) => (i === 0 || i > G ? c : { ...c, type: 'VARCHAR' as const })),
    { name: '__mdb_row', type: 'BIGINT' as const },
    { name: '__mdb_origin', type: 'BIGINT' as const },
    { name: '__mdb_seq', type: 'BIGINT' as const },
  ];
  const K = fc.columns.length;
  const pv: JsonValue[][] = loadCols.map(() => []);
  let seq = 0;
  const emit = (cells: JsonValue[], row: JsonValue, origin: JsonValue) => {
    cells.forEach((v, i) => pv[i].push(v));
    pv[K].push(row);
    pv[K + 1].push(origin);
    pv[K + 2].push(seq++);
  };
  const byGroup: number[][] = fc.groupRows.map(() => []);
  const orphans: number[] = [];
  if (fc.history) {
    // A row the forecaster dropped (no target before or after its group's known ones) stays
    // among its group's rows, in time order (the rows are read in group, time order).
    const keyOf = (i: number) => JSON.stringify(read.rows[i].slice(1, G + 1));
    const groupOf = new Map<string, number>();
    fc.history.group.forEach((g, i) => g >= 0 && groupOf.set(keyOf(i), g));
    fc.history.group.forEach((g, i) => {
      const at = g >= 0 ? g : groupOf.get(keyOf(i));
      (at === undefined ? orphans : byGroup[at]).push(i);
    });
  }
  const historyRow = (i: number) => {
    const h = fc.history!;
    return [
      read.rows[i][0],
      ...read.rows[i].slice(1, G + 1),
      ...h.values.map((col) => col[i]),
    ] as JsonValue[];
  };
  // A group's trailing rows without a target are where its forecast goes: the forecast row of
  // such a row's time takes its place (joined to it, so the data's columns read that row), one
  // row per group and time; the ones beyond HORIZON follow the forecast, with no value.
  const timeKey = (v: unknown) => (typeof v === 'number' ? `n${v}` : `s${String(v)}`);
  let f = 0;
  fc.groupRows.forEach((origin, g) => {
    const rows = byGroup[g];
    let end = rows.length;
    while (end > 0 && read.rows[rows[end - 1]][G + 1] === null) end--;
    const open = new Map<string, number[]>();
    for (const i of rows.slice(end)) {
      const k = timeKey(read.rows[i][0]);
      open.set(k, [...(open.get(k) ?? []), i]);
    }
    for (const i of rows.slice(0, end)) emit(historyRow(i), rowIds[i], rowIds[i]);
    for (; f < fc.n && fc.group[f] === g; f++) {
      const cells = fc.values.map((col) => col[f]);
      const k = timeKey(cells[0]);
      const at = open.get(k);
      open.delete(k);
      for (const i of at ?? [null]) emit(cells, i === null ? null : rowIds[i], rowIds[origin]);
    }
    for (const i of rows.slice(end))
      if (open.has(timeKey(read.rows[i][0]))) emit(historyRow(i), rowIds[i], rowIds[i]);
  });
  for (const i of orphans) emit(historyRow(i), rowIds[i], rowIds[i]);
  await dropTemp(ctx, s.into);
  await loadTempTable(ctx.session, s.into, loadCols, pv, seq);
  for (let i = 0; i <= G; i++) {
    const planned = s.outputs[i].type;
    if (planned === loadCols[i].type || planned === 'VARCHAR') continue;
    try {
      await ctx.session.query(
        `ALTER TABLE ${PlanState.tempSql(s.into)} ALTER COLUMN ${q(loadCols[i].name)} TYPE ${planned}`,
        { internal: true },
      );
    } catch {
      // A value the data's type cannot hold (a fractional step of an integer column): keep text.
    }
  }
}

/**
 * A history row with fewer than WINDOW rows before it in its group has no forecast of the
 * model's (a forecast reads WINDOW rows); MindsDB still answers a number there. Such a row gets
 * the naive forecast, the value of the row before it (`"method": "naive"` in `_explain`, no
 * interval); a group's first row has nothing before it and stays NULL. `rows` are the history
 * in (group, time) order: time, GROUP BY values, target.
 */
function fillShortHistory(
  fc: ColumnarForecast,
  rows: JsonValue[][],
  groups: number,
  window: number,
): void {
  const h = fc.history;
  if (!h) return;
  const [value, , , , , truth, explain] = h.values;
  let last = '';
  let p = 0;
  for (let i = 0; i < rows.length; i++) {
    const key = JSON.stringify(rows[i].slice(1, groups + 1));
    p = i > 0 && key === last ? p + 1 : 0;
    last = key;
    if (p === 0 || p >= window || value[i] !== null) continue;
    const before = rows[i - 1][groups + 1];
    const v = typeof before === 'number' ? before : Number(before);
    if (before === null || !Number.isFinite(v)) continue;
    value[i] = v;
    explain[i] = JSON.stringify({
      predicted_value: v,
      confidence: null,
      anomaly: null,
      truth: truth[i],
      confidence_lower_bound: null,
      confidence_upper_bound: null,
      horizon_step: 0,
      method: 'naive',
    });
  }
}

/** Notes (SHOW WARNINGS) for groups forecast by the pooled model and merged timestamps. */
function notes(ctx: ExecContext, fc: ColumnarForecast, label: string): void {
  if (fc.unseenGroups.length > 0) {
    const shown = fc.unseenGroups
      .slice(0, 5)
      .map((g) => `(${fc.groupBy.map((c, i) => `${c} = ${JSON.stringify(g[i])}`).join(', ')})`);
    ctx.warnings.push({
      level: 'Note',
      code: 1,
      message: `${fc.unseenGroups.length} group(s) were not in the training data of '${label}' and are forecast by its pooled model from their own rows: ${shown.join(', ')}${fc.unseenGroups.length > 5 ? ', ...' : ''}`,
    });
  }
  if (fc.duplicates > 0) {
    ctx.warnings.push({
      level: 'Note',
      code: 1,
      message: `${fc.duplicates} history row(s) share their group's timestamp with another row; '${label}' reads one value per timestamp, the mean of their targets`,
    });
  }
}

/** A conjunct that reads only the data's columns (and no subquery, window or parameter). */
function dataOnly(n: JNode, dAlias: string, data: Set<string>, outputs: Set<string>): boolean {
  let ok = true;
  forEachExpr(n, (x) => {
    if (x.class === 'SUBQUERY' || x.class === 'WINDOW') ok = false;
    if (x.class === 'COLUMN_REF') {
      const names = x.column_names as string[];
      if (names.length === 2) ok &&= lower(names[0]) === lower(dAlias) && data.has(lower(names[1]));
      else if (names.length === 1)
        ok &&= data.has(lower(names[0])) && !outputs.has(lower(names[0]));
      else ok = false;
    }
  });
  return ok;
}

/** Points a column reference elsewhere (text and tree). */
function renameColumn(st: PlanState, n: JNode, text: string, parts: string[]): void {
  const at = st.loc(n);
  const span = at === undefined ? null : st.nameSpan(at);
  if (!span) throw badInput('Cannot rewrite a column of the forecast query');
  st.edit(span.start, span.end, text);
  n.column_names = parts;
}

/**
 * The span of the FROM clause holding the JOIN (FROM excluded, up to the next clause), found from
 * the JOIN keyword or, where DuckDB kept no position for it (a branch of UNION), the model's name.
 */
function fromSpan(st: PlanState, join: JNode, model: JNode): { start: number; end: number } | null {
  const at = st.loc(join) ?? st.loc(model);
  if (at === undefined) return null;
  const sig = st.tokens.sig;
  const k = st.tokens.indexAt(at);
  if (k < 0) return null;
  let depth = 0;
  let from = -1;
  for (let i = k - 1; i >= 0; i--) {
    const t = sig[i];
    if (isOp(t, ')')) depth++;
    else if (isOp(t, '(')) {
      if (depth === 0) return null;
      depth--;
    } else if (depth === 0 && t.word === 'FROM') {
      from = i;
      break;
    }
  }
  if (from < 0) return null;
  let end = sig.length;
  depth = 0;
  for (let i = k; i < sig.length; i++) {
    const t = sig[i];
    if (isOp(t, '(')) depth++;
    else if (isOp(t, ')')) {
      if (depth === 0) {
        end = i;
        break;
      }
      depth--;
    } else if (depth === 0 && (isOp(t, ';') || CLAUSE_ENDS.has(t.word))) {
      end = i;
      break;
    }
  }
  return { start: sig[from + 1].start, end: sig[end - 1].end };
}

/** Keeps the join columns out of `*`, `t.*` and `m.*`. */
function hideColumns(st: PlanState, sel: SelectInfo, dAlias: string, mAlias: string): void {
  const modelHidden = ['__mdb_row', '__mdb_origin', '__mdb_seq', '__mdb_o'];
  hideFromStars(st, sel, [
    { alias: dAlias, column: '__mdb_row' },
    ...modelHidden.map((column) => ({ alias: mAlias, column })),
  ]);
}

/**
 * `SELECT ... FROM p.m WHERE t = ... AND g = ... AND y = ...`: one history row. A model that reads
 * more than one row per forecast (WINDOW > 1) cannot forecast from it; the error says how to.
 */
export function singleRowForecastError(
  label: string,
  ts: TimeSeriesDescription,
): ReturnType<typeof badInput> {
  const group = ts.groupBy.length ? `, GROUP BY ${ts.groupBy.join(', ')}` : '';
  return badInput(
    `Model '${label}' is a time-series model (ORDER BY ${ts.orderBy}${group}, WINDOW ${ts.window}, HORIZON ${ts.horizon}): it forecasts from the last ${ts.window} rows of each group, more than one row of WHERE values. Join it with its history: SELECT m.${ts.orderBy}, m.<target> FROM <data> AS t JOIN ${label} AS m WHERE t.${ts.orderBy} > LATEST`,
  );
}
