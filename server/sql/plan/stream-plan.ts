/**
 * Which saved queries score in batches (plan/stream.ts runs them): `SELECT <row expressions>
 * FROM data JOIN model [ON ...] [WHERE ...]` over one PostgreSQL table or native query, or one
 * table of the instance's DuckDB databases. Each output row then depends on its own data row
 * only, so running the query on consecutive chunks of the data, in the data's order, and
 * concatenating the answers gives the rows, values and order of running it once. Anything that
 * looks across rows (GROUP BY, aggregates, windows, DISTINCT, ORDER BY, LIMIT, subqueries, CTEs,
 * more tables, time-series models, which read each series' history) is planned as before.
 */
import type { NativeQuery } from '../syntax/dialect';
import type { JNode, TableRefInfo } from '../syntax/tree';
import { aggregatesIn } from './model-inputs';
import { clone } from './model-refs';
import { selectNode, starNode, type PlanState } from './state';
import type { StreamSource } from './steps';

/** Node classes that look across rows or run a query of their own. */
const ACROSS_ROWS = new Set(['WINDOW', 'SUBQUERY']);

function hasAcrossRows(v: unknown): boolean {
  if (!v || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.some(hasAcrossRows);
  const n = v as JNode;
  if (typeof n.class === 'string' && ACROSS_ROWS.has(n.class)) return true;
  return Object.values(n).some(hasAcrossRows);
}

/** The data table of a query that may score in batches, or null (planned as usual). */
export async function streamable(
  st: PlanState,
  natives: readonly NativeQuery[],
): Promise<TableRefInfo | null> {
  const root = st.root;
  if (root.type !== 'SELECT_NODE') return null;
  if (st.index.selects.length !== 1 || st.index.tables.length !== 2) return null;
  const ctes = ((root.cte_map as JNode | undefined)?.map as unknown[] | undefined) ?? [];
  if (ctes.length > 0 || (root.modifiers as unknown[]).length > 0) return null;
  if (
    (root.group_expressions as unknown[]).length > 0 ||
    ((root.group_sets as unknown[] | undefined) ?? []).length > 0 ||
    root.having ||
    root.qualify ||
    root.sample ||
    root.aggregate_handling !== 'STANDARD_HANDLING'
  ) {
    return null;
  }
  const from = root.from_table as JNode;
  if (from.type !== 'JOIN' || from.ref_type !== 'REGULAR') return null;
  const [a, b] = st.index.tables;
  const ra = st.resolved.get(a.node);
  const rb = st.resolved.get(b.node);
  const modelFirst = ra?.kind === 'model';
  const model = modelFirst ? ra : rb;
  const data = modelFirst ? b : a;
  const rd = modelFirst ? rb : ra;
  if (model?.kind !== 'model' || !rd) return null;
  // The model's rows are the data's: an outer join may keep every data row, not the model's.
  if (from.join_type !== 'INNER' && !(from.join_type === 'LEFT' && !modelFirst)) return null;
  if (from.left !== (modelFirst ? a.node : data.node)) return null;
  const dataOk =
    rd.kind === 'remote' ||
    rd.kind === 'local' ||
    (rd.kind === 'native' && st.env.integrations.isRemote(natives[rd.index].db));
  if (!dataOk) return null;
  if (hasAcrossRows([root.select_list, root.where_clause, from.condition])) return null;
  if (await aggregatesIn(st, st.index.selects[0])) return null;
  const desc = (await st.env.models.predictor(st.env.models.ready(model.ref))).description;
  if (desc.timeseries) return null;
  return data;
}

/**
 * A DuckDB table read by rowid ranges into a TEMP table (created empty here), or null when the
 * reference is no base table (a view, a table function: planned as usual).
 */
export async function tableStream(
  st: PlanState,
  t: TableRefInfo,
  db: string,
): Promise<Extract<StreamSource, { kind: 'table' }> | null> {
  const sql = await st.render(
    selectNode({ selectList: [starNode()], from: clone(t.node) }),
    t.scope.ctes,
  );
  const engineDb = st.engineDb(db);
  if (!sql.startsWith('SELECT * FROM ')) return null;
  try {
    await st.ctx.session.query(`${sql} WHERE rowid < 0`, {
      db: engineDb,
      signal: st.ctx.signal,
    });
  } catch {
    return null;
  }
  const into = st.tempName('scan');
  await st.placeholder(
    into,
    { query: sql, db: engineDb },
    `reading the columns of ${t.parts.join('.')}`,
  );
  return { kind: 'table', sql, db: engineDb, into, source: t.parts.join('.') };
}
