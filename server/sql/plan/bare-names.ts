/**
 * Bare column names in a SELECT that joins a model, resolved as MindsDB's executor resolves them
 * (mindsdb/api/executor/sql_query/steps/subselect_step.py, QueryStepCall): the joined result has
 * the data's columns first and the model's last (a model written first is joined last all the
 * same: plan_join.py swaps it), and a bare name is looked up by name in that list, the last
 * column of that name winning. The model's output carries its input columns (the data's values)
 * and its prediction columns, so:
 *
 * - a name that is a prediction column (`rental_price` when the model predicts it) is the
 *   model's prediction, even when the data has a column of that name (its truth);
 * - any other name found in several data items is the last data item's column;
 * - a name found once is left to DuckDB, as is a name of the select list's own aliases (MindsDB
 *   reads those first) and a column of a JOIN ... USING (DuckDB merges those).
 *
 * Only names DuckDB would otherwise refuse as ambiguous are rewritten, qualified in the text and
 * the tree; an unaliased select item keeps the name as written.
 */
import { quoteIdent } from '../../engine/quote';
import type { JNode, SelectInfo } from '../syntax/tree';
import { aliasOf, lower, type Item, type ModelInfo } from './model-refs';
import { fromItems } from './order';
import type { PlanState } from './state';

export function resolveBareNames(
  st: PlanState,
  sel: SelectInfo,
  items: Item[],
  infos: ReadonlyMap<Item, ModelInfo>,
  data: ReadonlyMap<Item, string[]>,
): void {
  const aliases = new Set(
    (sel.node.select_list as JNode[]).map((x) => lower(String(x.alias ?? ''))).filter((x) => x),
  );
  const merged = new Set<string>();
  const joins: JNode[] = [];
  fromItems(sel.node.from_table as JNode, () => undefined, joins);
  for (const j of joins) {
    for (const u of (j.using_columns as string[] | undefined) ?? []) merged.add(lower(u));
    if (j.ref_type === 'NATURAL') return;
  }
  for (const e of sel.exprs) {
    const n = e.node;
    if (n.class !== 'COLUMN_REF' || st.latest.has(n)) continue;
    const names = n.column_names as string[];
    if (names.length !== 1) continue;
    const name = lower(names[0]);
    if ((e.clause !== 'select' && aliases.has(name)) || merged.has(name)) continue;
    let model: { item: Item; column: string } | null = null;
    const found: { item: Item; column: string }[] = [];
    for (const it of items) {
      const info = infos.get(it);
      const column = info
        ? info.outputs.find((o) => lower(o.name) === name)?.name
        : data.get(it)?.find((c) => lower(c) === name);
      if (column === undefined) continue;
      if (info) model = { item: it, column };
      else found.push({ item: it, column });
    }
    if (found.length + (model ? 1 : 0) < 2) continue;
    const pick = model ?? found[found.length - 1];
    const span = st.exprSpan(n);
    if (!span) continue;
    const alias = aliasOf(pick.item);
    const named = e.selectItem && !n.alias ? ` AS ${quoteIdent(names[0])}` : '';
    st.edit(span.start, span.end, `${quoteIdent(alias)}.${quoteIdent(pick.column)}${named}`);
    n.column_names = [alias, pick.column];
    if (named) n.alias = names[0];
  }
}
