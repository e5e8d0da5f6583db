/**
 * The error-slice tree as rows (indented by depth, for a table a screen reader can follow) and a
 * user's WHERE checked before it is sent to be judged on the held-out rows.
 */
import type { SliceNode, SlicesView } from '../../../../../contract';

export interface SliceTreeRow {
  where: string;
  /** The condition this node adds to its parent's (the root: all rows). */
  condition: string;
  depth: number;
  rows: number;
  error: number | null;
  share: number;
}

/** Depth-first, children with the higher error first. */
export function sliceTreeRows(root: SliceNode): SliceTreeRow[] {
  const out: SliceTreeRow[] = [];
  const walk = (n: SliceNode, parent: string | null, depth: number) => {
    out.push({
      where: n.where,
      condition: parent === null ? 'all rows' : lastCondition(n.where, parent),
      depth,
      rows: n.rows,
      error: n.error,
      share: n.share,
    });
    const kids = [...(n.children ?? [])].sort((a, b) => (b.error ?? -1) - (a.error ?? -1));
    for (const k of kids) walk(k, n.where, depth + 1);
  };
  walk(root, null, 0);
  return out;
}

/** A child's WHERE is its parent's with `AND <condition>` added; the condition alone. */
function lastCondition(where: string, parent: string): string {
  const prefix = `${parent} AND `;
  return parent && where.startsWith(prefix) ? where.slice(prefix.length) : where;
}

/** How an error of this view reads: a rate as a percentage, a mean absolute error as a number. */
export function errorText(metric: SlicesView['metric'], v: number | null): string {
  if (v === null) return '—';
  return metric === 'error_rate'
    ? `${(v * 100).toFixed(1)}%`
    : v.toLocaleString('en-US', { maximumFractionDigits: 3 });
}

const MAX_WHERE = 4000;

/** Why a typed WHERE cannot be judged (null: it can be sent). */
export function whereProblem(text: string): string | null {
  const t = text.trim();
  if (!t) return "Write a condition, e.g. age > 50 AND geography = 'Germany'.";
  if (t.length > MAX_WHERE) return `A condition has at most ${MAX_WHERE} characters.`;
  if (/^where\b/i.test(t)) return 'Leave out the word WHERE: write only the condition.';
  return null;
}
