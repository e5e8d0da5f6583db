/**
 * Model references in one SELECT's FROM: the FROM list as a chain of items, each item's alias,
 * the model behind a reference, and the refusal of a model where it cannot be read.
 */
import { predictionColumns } from '../../models/predict/columns';
import type { ModelRef } from '../../models/registry';
import type { ModelDescription } from '../../automl/index';
import { ERROR_CODES } from '../../errors';
import type { JNode, SelectInfo, TableRefInfo } from '../syntax/tree';
import type { Resolved } from './names';
import type { PlanState } from './state';

type ModelResolved = Extract<Resolved, { kind: 'model' }>;

export interface Item {
  node: JNode;
  /** The object holding `node` in the tree, and its key there. */
  holder: JNode;
  key: string;
  /** The JOIN this item is joined by (the first item: the JOIN that joins the second). */
  join: JNode | null;
  table: TableRefInfo | null;
}

/** The FROM list as a left-deep chain of items. */
export function chain(ref: JNode, holder: JNode, key: string, sel: SelectInfo): Item[] {
  if (ref.type === 'JOIN') {
    const left = chain(ref.left as JNode, ref, 'left', sel);
    if (left.length === 1) left[0].join = ref;
    const right = ref.right as JNode;
    return [
      ...left,
      { node: right, holder: ref, key: 'right', join: ref, table: tableOf(right, sel) },
    ];
  }
  return [{ node: ref, holder, key, join: null, table: tableOf(ref, sel) }];
}

const tableOf = (n: JNode, sel: SelectInfo) => sel.tables.find((t) => t.node === n) ?? null;

export function aliasOf(item: Item): string {
  const n = item.node;
  if (n.alias) return String(n.alias);
  if (n.type === 'BASE_TABLE') return String(n.table_name);
  if (n.type === 'TABLE_FUNCTION') return String((n.function as JNode)?.function_name ?? 'unnamed');
  return 'unnamed_subquery';
}

export function containsModel(st: PlanState, n: JNode): boolean {
  if (n.type === 'JOIN')
    return containsModel(st, n.left as JNode) || containsModel(st, n.right as JNode);
  return st.resolved.get(n)?.kind === 'model';
}

export function refusal(st: PlanState, it: Item, message: string) {
  const at = st.loc(it.node);
  return st.src.error(
    ERROR_CODES.BAD_INPUT,
    message,
    at === undefined ? undefined : st.rw.toSource(at),
  );
}

export interface ModelInfo {
  ref: ModelRef;
  desc: ModelDescription;
  /** What the prediction columns are named after: `PREDICT target AS name`, else the target. */
  base: string;
  /** Prediction columns (name, type). */
  outputs: {
    name: string;
    type: 'VARCHAR' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMP' | 'JSON';
  }[];
}

export async function modelInfo(st: PlanState, item: Item): Promise<ModelInfo> {
  const ref = (st.resolved.get(item.node) as ModelResolved).ref;
  const record = st.env.models.ready(ref);
  const desc = (await st.env.models.predictor(record)).description;
  return {
    ref,
    desc,
    base: record.targetAlias || desc.target,
    outputs: predictionColumns(desc, record.targetAlias),
  };
}

export const lower = (s: string) => s.toLowerCase();

export const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
