/**
 * Which result columns a model produced (issue 27: a grid opens a prediction's explanation): the
 * SQL response's optional `column_origins`, one entry per result column, null for the columns no
 * model produced. An origin names the model version and its output column, and where the row's
 * model inputs are (`inputs`: input -> result column carrying it; `values`: an input given one
 * value for every row), so a client can ask the model to explain that row.
 *
 * Decided on the statement's top SELECT as the user wrote it, or on the one subquery it reads
 * (`SELECT ... FROM (SELECT ... JOIN model) AS s`): `m.col`, `col`, aliases, `m.*`, `*`, the data
 * side's columns by name. The planner records the relations it writes a model's predictions in
 * as (`recordModelRelation`) and the data relations beside them (`recordDataRelation`); a
 * statement whose columns cannot be told apart gets no origins. `resolveOrigins` checks the
 * names it expects against the result's before it trusts them.
 */
import type { ColumnOrigin } from '../../../contract/sql';
import type { JNode, SelectInfo } from '../syntax/tree';

export type { ColumnOrigin };

/** A relation of the FROM chain carrying a model's predictions. */
interface ModelRelation {
  kind: 'model';
  sel: SelectInfo;
  alias: string;
  /** Position of the relation in its FROM chain. */
  index: number;
  model: { project: string; model: string; version: number };
  /** The columns `alias.*` gives, in order. */
  star: string[];
  /** Which of them are the model's outputs (lower case), and which is the predicted value. */
  outputs: Set<string>;
  predicted: string;
  /** Inputs read from data columns (`[alias, column]`), or given one value. */
  inputs: { input: string; ref: string[] }[];
  values: Record<string, unknown>;
}

/** A data relation of a model join: its alias, position and columns. */
interface DataRelation {
  kind: 'data';
  sel: SelectInfo;
  alias: string;
  index: number;
  star: string[];
}

type Relation = ModelRelation | DataRelation;

/** Where one output column of a SELECT comes from. */
type Source = { rel: ModelRelation; column: string } | { data: string; column: string } | null;

interface Column {
  /** Its name in the result (null: an expression DuckDB names itself). */
  name: string | null;
  source: Source;
}

/** The statement's origin plan: the top SELECT's columns, once planned. */
export type OriginPlan = Column[];

/** The planner's state as this module reads it (state.ts imports steps.ts, which imports this). */
interface Planning {
  readonly index: { readonly selects: readonly SelectInfo[] };
}

const relations = new WeakMap<Planning, Relation[]>();
const lower = (s: string) => s.toLowerCase();

function record(st: Planning, r: Relation): void {
  const list = relations.get(st) ?? [];
  if (list.some((x) => x.sel === r.sel && lower(x.alias) === lower(r.alias))) return;
  list.push(r);
  relations.set(st, list);
}

/** Called by the planner when it writes a model's predictions in as a relation. */
export function recordModelRelation(st: Planning, r: Omit<ModelRelation, 'kind'>): void {
  record(st, { kind: 'model', ...r });
}

/** Called by the planner for the data relations of a model join (their columns known). */
export function recordDataRelation(st: Planning, r: Omit<DataRelation, 'kind'>): void {
  record(st, { kind: 'data', ...r });
}

/** The columns `rel.*` gives, with their sources. */
function starOf(rel: Relation): Column[] {
  return rel.star.map((c) => ({
    name: c,
    source:
      rel.kind === 'model'
        ? rel.outputs.has(lower(c))
          ? { rel, column: c }
          : null
        : { data: rel.alias, column: c },
  }));
}

const isPlainStar = (n: JNode) =>
  !(n.exclude_list as unknown[] | undefined)?.length &&
  !(n.replace_list as unknown[] | undefined)?.length &&
  !(n.rename_list as unknown[] | undefined)?.length &&
  !n.expr &&
  !n.columns;

/** A FROM relation read by alias: a recorded one, or a subquery's columns. */
interface Named {
  alias: string;
  index: number;
  columns: Column[];
}

/** The columns of SELECT `sel`, or null when they cannot be told apart. */
function columnsOf(st: Planning, sel: SelectInfo, depth: number): Column[] | null {
  if (sel.node.type !== 'SELECT_NODE') return null;
  const from = relationsOf(st, sel, depth);
  if (!from || from.length === 0) return null;
  const list = (sel.node.select_list as JNode[] | undefined) ?? [];
  const out: Column[] = [];
  for (const n of list) {
    const alias = typeof n.alias === 'string' && n.alias !== '' ? n.alias : null;
    if (n.class === 'STAR') {
      if (!isPlainStar(n)) return null;
      const rel = typeof n.relation_name === 'string' ? lower(n.relation_name) : '';
      const picked = rel ? from.filter((r) => lower(r.alias) === rel) : from;
      if (rel && picked.length !== 1) return null;
      out.push(...picked.flatMap((r) => r.columns));
      continue;
    }
    if (n.class !== 'COLUMN_REF') {
      out.push({ name: alias, source: null });
      continue;
    }
    const names = ((n.column_names as string[] | undefined) ?? []).map(String);
    const col = lower(names[names.length - 1] ?? '');
    const scope =
      names.length >= 2
        ? from.filter((r) => lower(r.alias) === lower(names[names.length - 2]))
        : from;
    const hits = scope.flatMap((r) => r.columns.filter((c) => c.name && lower(c.name) === col));
    out.push({
      name: alias ?? names[names.length - 1] ?? null,
      source: hits.length === 1 ? hits[0].source : null,
    });
  }
  return out;
}

/**
 * The relations of `sel`'s FROM in order: those the planner recorded (a model join), or the one
 * subquery it reads. Null when some relation's columns are unknown.
 */
function relationsOf(st: Planning, sel: SelectInfo, depth: number): Named[] | null {
  const mine = (relations.get(st) ?? []).filter((r) => r.sel === sel);
  if (mine.length > 0) {
    const sorted = [...mine].sort((a, b) => a.index - b.index);
    // Every relation of the chain is known: positions 0..n-1 without a gap.
    if (sorted.some((r, i) => r.index !== i)) return null;
    return sorted.map((r) => ({ alias: r.alias, index: r.index, columns: starOf(r) }));
  }
  const ref = sel.node.from_table as JNode | undefined;
  if (depth > 0 || !ref || ref.type !== 'SUBQUERY') return null;
  const inner = ((ref.subquery as JNode | undefined)?.node as JNode | undefined) ?? null;
  const innerSel = inner ? st.index.selects.find((s) => s.node === inner) : undefined;
  if (!innerSel) return null;
  const columns = columnsOf(st, innerSel, depth + 1);
  if (!columns) return null;
  const alias = typeof ref.alias === 'string' ? ref.alias : '';
  // Outside the subquery its columns are its own: a data column keeps its source for the inputs.
  return [{ alias, index: 0, columns }];
}

/** The origin plan of the statement's top SELECT, or null when no model column can reach it. */
export function originPlan(st: Planning): OriginPlan | null {
  if (!relations.get(st)?.some((r) => r.kind === 'model')) return null;
  const top = st.index.selects.filter((s) => s.depth === 0);
  if (top.length !== 1) return null;
  const cols = columnsOf(st, top[0], 0);
  return cols && cols.some((c) => c.source && 'rel' in c.source) ? cols : null;
}

/**
 * The origin of each result column, or null when the plan does not line up with the result's
 * columns (their count or names differ: the plan read something it did not foresee).
 */
export function resolveOrigins(
  plan: OriginPlan | null | undefined,
  names: readonly string[],
): (ColumnOrigin | null)[] | null {
  if (!plan || plan.length !== names.length) return null;
  if (plan.some((c, i) => c.name !== null && lower(c.name) !== lower(names[i]))) return null;
  const out = plan.map((c): ColumnOrigin | null => {
    const s = c.source;
    if (!s || !('rel' in s)) return null;
    const rel = s.rel;
    const inputs: Record<string, number> = {};
    for (const { input, ref } of rel.inputs) {
      const [alias, column] = ref.length >= 2 ? ref.slice(-2) : ['', ref[0]];
      const at = plan.findIndex(
        (x) =>
          x.source &&
          'data' in x.source &&
          lower(x.source.column) === lower(column) &&
          (alias === '' || lower(x.source.data) === lower(alias)),
      );
      if (at >= 0) inputs[input] = at;
    }
    return {
      project: rel.model.project,
      model: rel.model.model,
      version: rel.model.version,
      column: s.column,
      predicted: lower(s.column) === lower(rel.predicted),
      inputs,
      ...(Object.keys(rel.values).length ? { values: rel.values } : {}),
    };
  });
  return out.some((o) => o !== null) ? out : null;
}
