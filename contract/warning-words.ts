/**
 * A model warning's kind in words, one vocabulary for every place a person reads it: the model
 * page, Compare, the model card. Kinds added later get a readable form of their name.
 */
const WARNING_TITLES: Record<string, string> = {
  dominant_input: 'One input does nearly all the work',
  identifier_like: 'An identifier is used as an input',
  too_few_rows: 'Few rows to learn from',
  rare_class: 'A rare class',
  mostly_missing: 'Mostly missing input',
  weak_model: 'Barely better than guessing',
  narrow_intervals: 'Intervals may be too narrow',
};

export function warningTitle(kind: string): string {
  const known = WARNING_TITLES[kind];
  if (known) return known;
  const words = kind.replace(/_/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : 'Warning';
}
