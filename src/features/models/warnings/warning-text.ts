/**
 * Words for the warnings describe attaches to a model version (leaks, identifiers, few rows...),
 * and what they mean for anything that ranks models: a score that rests on a leak or an
 * identifier says nothing about new data, so "better" beside it is suspect.
 */
import type { ModelWarning } from '../../../../contract';

export { warningTitle } from '../../../../contract';

/**
 * Why a model's scores cannot be taken at face value, one phrase per reason ("its score leans on
 * 'initial_price', a likely leak"); empty when nothing makes them suspect. Warnings that speak of
 * uncertainty rather than of a flattering score (rare class, missing values, narrow intervals, a
 * weak model) are left to the model's own page.
 */
export function suspectReasons(warnings: readonly ModelWarning[]): string[] {
  const out: string[] = [];
  for (const w of warnings) {
    const col = w.column ? `'${w.column}'` : 'one input';
    if (w.kind === 'dominant_input') out.push(`its score leans on ${col}, a likely leak`);
    else if (w.kind === 'identifier_like') out.push(`it reads ${col}, an identifier`);
    else if (w.kind === 'too_few_rows') out.push('it learned from few rows');
  }
  return out;
}

/** The input a warning advises training without (a likely leak, an identifier), if any. */
export function droppableColumn(w: ModelWarning): string | null {
  return (w.kind === 'dominant_input' || w.kind === 'identifier_like') && w.column
    ? w.column
    : null;
}
