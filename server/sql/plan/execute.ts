/**
 * The executor of a plan's steps (steps.ts): each step fills the TEMP table the planner created
 * empty for it, in the order they were planned (a step reads only what steps before it filled).
 * The final SQL then runs where the service runs it (service.ts), or into a table (`runInto`).
 */
import { quoteIdent } from '../../engine/quote';
import { loadTempTable } from '../../engine/scratch';
import type { JsonValue } from '../../engine/values';
import { ERROR_CODES, ServiceError } from '../../errors';
import { loadRemoteIntoTemp } from '../../integrations/load';
import { inputColumns } from '../../models/predict/columns';
import type { ExecContext, SqlEnv, SqlResult } from '../types';
import { runForecast } from './forecast';
import { answerRow } from './row-answer';
import { dropTemp, readColumns, stepColumns, stepQuery } from './run-sql';
import { paramsOf, transpose, valueParam } from './state';
import type { PlannedQuery, PredictStep, Step } from './steps';
import { systemRows } from './system';

/** Runs the steps of a plan, in order. */
export async function runSteps(
  env: SqlEnv,
  ctx: ExecContext,
  steps: readonly Step[],
): Promise<void> {
  for (const s of steps) {
    ctx.signal?.throwIfAborted();
    await runStep(env, ctx, s);
  }
}

async function runStep(env: SqlEnv, ctx: ExecContext, s: Step): Promise<void> {
  switch (s.kind) {
    case 'fetch': {
      const integ = env.integrations.postgres(s.db);
      const o = { timeoutMs: env.integrations.defaults.timeoutMs, signal: ctx.signal };
      await dropTemp(ctx, s.into);
      try {
        await loadRemoteIntoTemp(ctx.session, integ, s.sql, s.into, o);
      } catch (err) {
        // A condition PostgreSQL reads differently: fetch unfiltered; DuckDB filters anyway.
        if (!s.unfiltered || (err instanceof ServiceError && err.code === ERROR_CODES.TIMEOUT)) {
          throw err;
        }
        await dropTemp(ctx, s.into);
        await loadRemoteIntoTemp(ctx.session, integ, s.unfiltered, s.into, o);
      }
      return;
    }
    case 'system': {
      const rows = systemRows(env, s.table, s.project);
      await dropTemp(ctx, s.into);
      await loadTempTable(
        ctx.session,
        s.into,
        rows.columns,
        transpose(rows.rows, rows.columns.length),
        rows.rows.length,
      );
      return;
    }
    case 'subplan':
      await runInto(env, ctx, s.into, s.plan);
      return;
    case 'predict':
      await predict(env, ctx, s);
      return;
    case 'forecast':
      await runForecast(env, ctx, s);
      return;
    case 'forecast-row': {
      const columns = Object.fromEntries(Object.entries(s.row).map(([k, v]) => [k, [v]]));
      const fc = await env.models.forecast(s.model, columns, 1);
      await dropTemp(ctx, s.into);
      await loadTempTable(ctx.session, s.into, fc.columns, fc.values, fc.n);
      return;
    }
  }
}

/**
 * Runs a planned query into the request's TEMP table `name` (errors point into the query): its
 * steps, then its SQL in DuckDB, or in PostgreSQL with the rows loaded here.
 */
export async function runInto(
  env: SqlEnv,
  ctx: ExecContext,
  name: string,
  q: PlannedQuery,
): Promise<void> {
  await runSteps(env, ctx, q.steps);
  await dropTemp(ctx, name);
  if (q.target.kind === 'remote') {
    await loadRemoteIntoTemp(ctx.session, env.integrations.postgres(q.target.db), q.sql, name, {
      timeoutMs: env.integrations.defaults.timeoutMs,
      signal: ctx.signal,
    });
    return;
  }
  const prefix = `CREATE TEMP TABLE ${quoteIdent(name)} AS `;
  await ctx.session.query(prefix + q.sql, {
    db: q.target.db,
    signal: ctx.signal,
    params: paramsOf(q.sql, ctx.params),
    sourceOffset: (o) => q.src.offset + q.rw.toSource(Math.max(0, o - prefix.length)),
    script: q.src.script,
  });
}

/**
 * The answer of a planned single prediction's plain projection, built from its predict step's
 * values (plan/row-answer.ts) once the steps ran; null when the final SQL must answer.
 */
export function rowResult(q: PlannedQuery, ctx: ExecContext): SqlResult | null {
  const row = q.row ? answerRow(q.row, ctx.params) : null;
  if (!q.row || !row) return null;
  return {
    type: 'table',
    column_names: q.row.columns.map((c) => c.name),
    data: [row],
    column_types: q.row.columns.map((c) => c.type),
  };
}

/** Predict model M on the distinct input rows of relation R (or one row of values). */
async function predict(env: SqlEnv, ctx: ExecContext, s: PredictStep): Promise<void> {
  let n = 1;
  const columns: Record<string, readonly unknown[]> = {};
  let positions: JsonValue[] | null = null;
  if (s.rows && s.relation) {
    // Every row in the relation's order, read from DuckDB's vectors; predictions are attached
    // to the data rows by position (no distinct rows to sort, store and match back).
    const r = await stepColumns(
      ctx,
      s.db,
      `SELECT * FROM (${s.relation}) AS __mdb_q`,
      `computing the input rows of model '${s.label}'`,
    );
    n = r.n;
    positions = r.values[r.columns.indexOf(s.rows)];
    for (const src of s.sources) {
      if ('key' in src) columns[src.column] = r.values[r.columns.indexOf(src.key)];
    }
  } else if (s.inputs && s.relation) {
    await dropTemp(ctx, s.inputs);
    await stepQuery(
      ctx,
      s.db,
      // Sorted: the predictor is several times faster on rows whose equal values are adjacent
      // (100k rows: 1.3 s sorted, 14 s in hash order), and the match to the data needs no order.
      `CREATE TEMP TABLE ${quoteIdent(s.inputs)} AS SELECT DISTINCT * FROM (${s.relation}) AS __mdb_q ORDER BY ALL`,
      `computing the input rows of model '${s.label}'`,
    );
    const r = await readColumns(
      ctx,
      `SELECT * FROM temp.main.${quoteIdent(s.inputs)} ORDER BY rowid`,
    );
    n = r.n;
    for (const src of s.sources) {
      if ('key' in src) columns[src.column] = r.values[r.columns.indexOf(src.key)];
    }
  }
  for (const src of s.sources)
    if ('value' in src) columns[src.column] = new Array(n).fill(src.value);
  if (s.single) {
    const p = await env.models.predictColumns(s.model, columns, 1, { explain: s.explain });
    const ins = inputColumns(p.description);
    const values: JsonValue[] = [
      ...ins.map((c) => p.inputs[c.name][0] as JsonValue),
      ...p.values.map((v) => v[0]),
    ];
    // The planned relation reads these as parameters (PlanState.valuesName): no engine work.
    const params = (ctx.params ??= {});
    values.forEach((v, i) => {
      params[valueParam(s.into, i)] =
        typeof v === 'number' && !Number.isFinite(v)
          ? null
          : v !== null && typeof v === 'object'
            ? JSON.stringify(v)
            : v;
    });
    return;
  }
  const p = await env.models.predictColumns(s.model, columns, n, {
    unknownColumns: 'ignore',
    explain: s.explain,
    unread: s.unread,
    signal: ctx.signal,
  });
  await dropTemp(ctx, s.into);
  if (s.rows && positions) {
    await loadTempTable(
      ctx.session,
      s.into,
      [...p.columns, { name: s.rows, type: 'BIGINT' }],
      [...p.values, positions],
      n,
    );
    return;
  }
  await loadTempTable(ctx.session, s.into, p.columns, p.values, n);
}
