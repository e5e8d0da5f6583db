/**
 * One prediction answered without the engine. `SELECT <model columns> | * FROM model [AS m]
 * WHERE <equalities> [LIMIT n]` (the form MindsDB documents for a single prediction) is the
 * predicted row itself, projected: the planner plans it as any query (its predict step, its final
 * SQL, EXPLAIN), and the executor builds the row from the step's values instead of running the
 * final SQL, when each selected value is one DuckDB would answer unchanged (a number in a DOUBLE
 * column, a string in a VARCHAR one, ...); otherwise the SQL runs. The final statement's prepare
 * and execute were about 4 of the form's 9.4 ms in the server (load 5.5, docs/benchmarks.md).
 */
import type { JsonValue } from '../../engine/values';
import type { JNode } from '../syntax/tree';
import { literalValue, valueParam, type PlanState } from './state';
import type { RowAnswer } from './steps';

/** Types whose values DuckDB answers as the step gave them (others: the SQL runs). */
const PLAIN_TYPES = new Set(['DOUBLE', 'BIGINT', 'VARCHAR', 'BOOLEAN']);

/** A string DuckDB would store otherwise (its UTF-8 has no lone surrogates): the SQL answers. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const empty = (x: unknown) => x === null || x === undefined || (Array.isArray(x) && !x.length);

/**
 * The row answer of the statement's query, when it is a single prediction's plain projection:
 * its only step the prediction, no CTE, grouping, ordering, DISTINCT or offset, a select list of
 * the relation's columns (bare, qualified by the FROM item's name, or a plain `*`) with distinct
 * names. Null otherwise (the final SQL answers).
 */
export function rowAnswer(st: PlanState): RowAnswer | null {
  const root = st.root;
  const rel = st.singleRelations.get(root);
  if (!rel || st.steps.length !== 1 || st.starExcludes.size > 0 || st.exported.has(root)) {
    return null;
  }
  if (root.type !== 'SELECT_NODE' || !empty((root.cte_map as JNode | undefined)?.map)) return null;
  if (
    !empty(root.group_expressions) ||
    !empty(root.group_sets) ||
    !empty(root.having) ||
    !empty(root.qualify) ||
    !empty(root.sample) ||
    (root.aggregate_handling !== undefined && root.aggregate_handling !== 'STANDARD_HANDLING')
  ) {
    return null;
  }
  for (const m of (root.modifiers as JNode[] | undefined) ?? []) {
    if (m.type !== 'LIMIT_MODIFIER' || !empty(m.offset)) return null;
    const limit = m.limit ? literalValue(m.limit as JNode) : null;
    if (!limit || typeof limit.value !== 'number' || !(limit.value >= 1)) return null;
  }
  const alias = rel.alias.toLowerCase();
  const byName = new Map(rel.columns.map((c) => [c.name.toLowerCase(), c]));
  const columns: RowAnswer['columns'] = [];
  for (const e of (root.select_list as JNode[] | undefined) ?? []) {
    if (e.class === 'STAR') {
      const relation = String(e.relation_name ?? '');
      if (
        (relation !== '' && relation.toLowerCase() !== alias) ||
        !empty(e.exclude_list) ||
        !empty(e.replace_list) ||
        !empty(e.rename_list) ||
        e.columns === true ||
        !empty(e.expr) ||
        (e.alias !== undefined && e.alias !== '')
      ) {
        return null;
      }
      columns.push(...rel.columns);
      continue;
    }
    if (e.class !== 'COLUMN_REF') return null;
    const names = e.column_names as string[] | undefined;
    if (!names || names.length < 1 || names.length > 2) return null;
    if (names.length === 2 && names[0].toLowerCase() !== alias) return null;
    const c = byName.get(names[names.length - 1].toLowerCase());
    if (!c) return null;
    // DuckDB names a column read bare by the relation's own name (`SELECT Y` answers `y`).
    columns.push({ ...c, name: typeof e.alias === 'string' && e.alias !== '' ? e.alias : c.name });
  }
  const seen = new Set<string>();
  for (const c of columns) {
    if (!PLAIN_TYPES.has(c.type) || seen.has(c.name.toLowerCase())) return null;
    seen.add(c.name.toLowerCase());
  }
  return columns.length > 0 ? { into: rel.into, columns } : null;
}

/**
 * The answer's row from the step's values (in `params`), each as DuckDB answers it after its
 * CAST: null when a value is not one that CAST leaves as it is (the final SQL then answers).
 */
export function answerRow(
  a: RowAnswer,
  params: Record<string, unknown> | undefined,
): JsonValue[] | null {
  const row: JsonValue[] = [];
  for (const c of a.columns) {
    if ('constant' in c.source) {
      row.push(c.source.constant);
      continue;
    }
    const v = params?.[valueParam(a.into, c.source.value)];
    if (v === null) row.push(null);
    else if (c.type === 'DOUBLE' && typeof v === 'number' && Number.isFinite(v)) row.push(v);
    else if (c.type === 'BIGINT' && Number.isSafeInteger(v)) row.push(v as number);
    else if (c.type === 'BOOLEAN' && typeof v === 'boolean') row.push(v);
    else if (c.type === 'VARCHAR' && typeof v === 'string' && !LONE_SURROGATE.test(v)) row.push(v);
    else return null;
  }
  return row;
}
