/**
 * The evaluation tab's sections: which apply to this model (the summary says, with the reason
 * when not), the one to open first, and arrow-key movement along the section tablist.
 */
import type { EvaluationSummary } from '../../../../contract';

export type EvalSection =
  'leaderboard' | 'threshold' | 'calibration' | 'intervals' | 'slices' | 'groups';

export const EVAL_SECTIONS: { id: EvalSection; label: string }[] = [
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

/** The section to show: the one asked for if it applies, else the first that does. */
export function chosenSection(s: EvaluationSummary, asked: EvalSection | null): EvalSection {
  if (asked && s.views[asked].applies) return asked;
  return EVAL_SECTIONS.find((x) => s.views[x.id].applies)?.id ?? 'leaderboard';
}

/** Arrow keys, Home and End move along the tablist (wrapping); other keys: null. */
export function nextSection(
  ids: EvalSection[],
  current: EvalSection,
  key: string,
): EvalSection | null {
  const i = ids.indexOf(current);
  if (key === 'ArrowRight' || key === 'ArrowDown') return ids[(i + 1) % ids.length];
  if (key === 'ArrowLeft' || key === 'ArrowUp') return ids[(i - 1 + ids.length) % ids.length];
  if (key === 'Home') return ids[0];
  if (key === 'End') return ids[ids.length - 1];
  return null;
}

/**
 * The column a group view opens on: a category input of the model (gender, geography), else any
 * category column. Columns the model set aside are often identifiers (a surname): one group each.
 */
export function defaultGroupColumn(s: EvaluationSummary): string {
  const cats = s.columns.filter((c) => c.kind === 'category');
  return (cats.find((c) => c.in_model) ?? cats[0])?.name ?? '';
}
