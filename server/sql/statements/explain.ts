/**
 * `EXPLAIN <query>`: how the instance will run a query, without running it. One row per step of
 * its plan (fetch from an integration, load an instance table, run a view's own plan, predict a
 * model on the distinct input rows of a relation, forecast), then the final SQL and where it runs,
 * then the plan DuckDB (or PostgreSQL, for a query that runs there whole) makes of that SQL. The
 * steps' tables exist empty while planning, so DuckDB's plan is the one the final SQL gets, with
 * no rows yet behind it. `EXPLAIN ANALYZE <query>` runs the steps, then DuckDB's EXPLAIN ANALYZE.
 * Anything else after EXPLAIN is DuckDB's own EXPLAIN.
 */
import type { JsonValue } from '../../engine/values';
import { runSteps } from '../plan/execute';
import { NotAQuery, planQuery } from '../plan/query';
import { paramsOf } from '../plan/state';
import { describeStep, type PlannedQuery, type Step } from '../plan/steps';
import type { StatementEnv } from '../types';
import type { StatementInput, StatementOutput } from './output';

export const EXPLAIN_COLUMNS = ['step', 'action', 'detail'];

/** The plan of `EXPLAIN [ANALYZE] <query>`, or null when what follows is not a query. */
export async function explainQuery(
  env: StatementEnv,
  x: StatementInput,
): Promise<StatementOutput | null> {
  const sig = x.tokens.sig;
  const analyze = sig[1]?.word === 'ANALYZE';
  const first = sig[analyze ? 2 : 1];
  if (!first) return null;
  let planned: PlannedQuery;
  try {
    planned = await planQuery(
      env,
      { text: x.src.text.slice(first.start), start: first.start },
      x.src,
      x.ctx,
    );
  } catch (err) {
    if (err instanceof NotAQuery) return null;
    throw err;
  }
  const rows: JsonValue[][] = [];
  let n = 0;
  const add = (steps: readonly Step[], prefix: string) => {
    for (const s of steps) {
      const { action, detail } = describeStep(s);
      const at = `${prefix}${++n}`;
      rows.push([at, action, detail]);
      if (s.kind === 'subplan') {
        const outer = n;
        n = 0;
        add(s.plan.steps, `${at}.`);
        n = outer;
      }
    }
  };
  add(planned.steps, '');
  const where = planned.target.kind === 'remote' ? planned.target.db : 'DuckDB';
  rows.push([String(++n), `final SQL in ${where}`, planned.sql]);
  if (analyze) await runSteps(env, x.ctx, planned.steps);
  rows.push([String(++n), `${where} plan`, await finalPlan(env, x, planned, analyze)]);
  return {
    kind: 'result',
    result: {
      type: 'table',
      column_names: EXPLAIN_COLUMNS,
      column_types: ['VARCHAR', 'VARCHAR', 'VARCHAR'],
      data: rows,
    },
  };
}

/** DuckDB's (or PostgreSQL's) plan of the final SQL, as the text their EXPLAIN prints. */
async function finalPlan(
  env: StatementEnv,
  x: StatementInput,
  q: PlannedQuery,
  analyze: boolean,
): Promise<string> {
  const prefix = analyze ? 'EXPLAIN ANALYZE ' : 'EXPLAIN ';
  if (q.target.kind === 'remote') {
    const r = await env.integrations.query(q.target.db, prefix + q.sql, {
      values: q.target.values.length ? q.target.values : undefined,
      signal: x.ctx.signal,
    });
    return r.rows.map((row) => String(row[0])).join('\n');
  }
  const r = await x.ctx.session.query(prefix + q.sql, {
    db: q.target.db,
    params: paramsOf(q.sql, x.ctx.params),
    signal: x.ctx.signal,
    sourceOffset: (o) => q.src.offset + q.rw.toSource(Math.max(0, o - prefix.length)),
    script: q.src.script,
    maxRows: Number.MAX_SAFE_INTEGER,
  });
  return r.rows.map((row) => String(row[row.length - 1])).join('\n');
}
