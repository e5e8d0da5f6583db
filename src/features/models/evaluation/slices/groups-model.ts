/**
 * Metrics per group as the page's table: the columns that apply to the task (classifiers: rates
 * and the selection ratio the four-fifths rule judges; regression: MAE and bias), with each ratio
 * below 4/5 marked unless its group is too small to judge.
 */
import type { GroupsView } from '../../../../../contract';

const pct = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : `${(v * 100).toFixed(1)}%`;
const num = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : v.toLocaleString('en-US', { maximumFractionDigits: 3 });

const FOUR_FIFTHS = 0.8;

export interface GroupsTable {
  head: string[];
  rows: { label: string; where: string; cells: string[]; flagged: boolean; small: string | null }[];
}

export function groupsTable(v: GroupsView): GroupsTable {
  const regression = v.task === 'regression' || v.groups.some((g) => g.mae !== undefined);
  if (regression) {
    return {
      head: [
        'Group',
        'Rows',
        'Mean absolute error',
        'Bias (predicted − actual)',
        'MAE / best group',
      ],
      rows: v.groups.map((g) => ({
        label: g.label,
        where: g.where,
        small: g.small,
        flagged: false,
        cells: [g.label, g.rows.toLocaleString('en-US'), num(g.mae), num(g.bias), num(g.mae_ratio)],
      })),
    };
  }
  return {
    head: [
      'Group',
      'Rows',
      'Accuracy',
      'Found (true-positive rate)',
      'False alarms (false-positive rate)',
      'Flagged (selection rate)',
      'Selection ratio',
    ],
    rows: v.groups.map((g) => {
      const flagged =
        !g.small && g.selection_ratio !== null && g.selection_ratio !== undefined
          ? g.selection_ratio < FOUR_FIFTHS
          : false;
      return {
        label: g.label,
        where: g.where,
        small: g.small,
        flagged,
        cells: [
          g.label,
          g.rows.toLocaleString('en-US'),
          pct(g.accuracy),
          pct(g.tpr),
          pct(g.fpr),
          pct(g.selection_rate),
          `${pct(g.selection_ratio)}${flagged ? ' (below 4/5)' : ''}`,
        ],
      };
    }),
  };
}

/** One sentence on the four-fifths rule for this column. */
export function fourFifthsSentence(v: GroupsView): string {
  const f = v.four_fifths;
  if (!f.applies)
    return 'The four-fifths rule compares how often groups are flagged: it applies to classifiers.';
  if (f.min_ratio === null) return 'No two groups are large enough to compare.';
  if (f.flagged.length === 0)
    return `Every group large enough to judge is flagged at least 4/5 as often as the most-flagged one (lowest ratio ${pct(f.min_ratio)}).`;
  return `${f.flagged.map((g) => `'${g}'`).join(', ')} ${f.flagged.length === 1 ? 'is' : 'are'} flagged less than 4/5 as often as the most-flagged group (lowest ratio ${pct(f.min_ratio)}): check whether that is fair before using the model on people.`;
}
