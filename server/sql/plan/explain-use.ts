/**
 * Whether a query can read a model's `<target>_explain` column, decided on DuckDB's parse tree
 * before predicting: explanations (exact TreeSHAP) cost tens of times a prediction, so a big join
 * that reads only `m.rental_price` must not pay for them, while `m.*`, `*` and the column by name
 * get them. When in doubt (a regular-expression COLUMNS, a whole-row reference), it says yes: a
 * wrong "no" would show a reader an explanation without its contributions.
 */
import type { JNode, QueryIndex, SelectInfo } from '../syntax/tree';

const lower = (s: string) => s.toLowerCase();

/**
 * True when the statement may read the explain column of the model read as `alias` in `sel`:
 * - the column is named anywhere in the statement (any SELECT, any clause, qualified or not: an
 *   outer query may read it through a subquery or CTE that selected it);
 * - `sel` has a `*` or `alias.*` whose EXCLUDE does not name it, or a `COLUMNS(...)`;
 * - `sel` refers to the model's whole row by its alias (`to_json(m)`, `SELECT m`);
 * - the model is joined with NATURAL or USING (the column could take part in the match).
 */
export function readsExplainColumn(
  index: QueryIndex,
  sel: SelectInfo,
  alias: string,
  column: string,
  join: JNode | null,
): boolean {
  const a = lower(alias);
  const col = lower(column);
  for (const s of index.selects) {
    for (const e of s.exprs) {
      const n = e.node;
      if (n.class !== 'COLUMN_REF') continue;
      const names = (n.column_names as string[] | undefined) ?? [];
      if (names.length > 0 && lower(names[names.length - 1]) === col) return true;
    }
  }
  if (join && (join.ref_type === 'NATURAL' || ((join.using_columns as unknown[]) ?? []).length > 0))
    return true;
  for (const e of sel.exprs) {
    const n = e.node;
    if (n.class === 'COLUMN_REF') {
      const names = (n.column_names as string[] | undefined) ?? [];
      if (names.length === 1 && lower(names[0]) === a) return true;
      continue;
    }
    if (n.class !== 'STAR') continue;
    const rel = lower(String(n.relation_name ?? ''));
    if (rel !== '' && rel !== a) continue;
    if (n.columns === true) return true;
    const excluded = ((n.exclude_list as unknown[]) ?? []).some(
      (x) => typeof x === 'string' && lower(x) === col,
    );
    const qualified = ((n.qualified_exclude_list as JNode[]) ?? []).some(
      (q) =>
        lower(String(q.column ?? '')) === col &&
        (String(q.table ?? '') === '' || lower(String(q.table)) === a),
    );
    if (!excluded && !qualified) return true;
  }
  return false;
}
