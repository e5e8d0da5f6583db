/**
 * The evaluation tab's sections: which apply to this model (the summary says, with the reason
 * when not), the one to open first, and the column the group view opens on.
 */
import type { EvaluationSummary } from '../../../../contract';

export type EvalSection =
  'leaderboard' | 'threshold' | 'calibration' | 'intervals' | 'slices' | 'groups';

const EVAL_SECTIONS: { id: EvalSection; label: string }[] = [
  { id: 'leaderboard', label: 'Leaderboard' },
  { id: 'threshold', label: 'Threshold & cost' },
  { id: 'calibration', label: 'Calibration' },
  { id: 'intervals', label: 'Interval audit' },
  { id: 'slices', label: 'Where it is wrong' },
  { id: 'groups', label: 'For whom' },
];

/** Every section, each with whether it applies (a section that does not says why). */
export function evalSections(s: EvaluationSummary) {
  return EVAL_SECTIONS.map((x) => ({
    ...x,
    applies: s.views[x.id].applies,
    reason: s.views[x.id].reason,
  }));
}

/**
 * The section to show: the one asked for (one that does not apply says why in its place, so
 * arrow keys walk every section), else the first that applies.
 */
export function chosenSection(s: EvaluationSummary, asked: EvalSection | null): EvalSection {
  if (asked) return asked;
  return EVAL_SECTIONS.find((x) => s.views[x.id].applies)?.id ?? 'leaderboard';
}

/**
 * The column a group view opens on: a category input of the model (gender, geography), else any
 * category column. Columns the model set aside are often identifiers (a surname): one group each.
 */
export function defaultGroupColumn(s: EvaluationSummary): string {
  const cats = s.columns.filter((c) => c.kind === 'category');
  return (cats.find((c) => c.in_model) ?? cats[0])?.name ?? '';
}
