/**
 * Beside anything that ranks models (Compare's "Better", a leaderboard): which of them have
 * scores that cannot be taken at face value, and why. A model that leans on a leak or reads an
 * identifier scores well on its own training data and says nothing about new rows.
 */
import type { ModelWarning } from '../../../../contract';
import { suspectReasons } from './warning-text';

export interface RankedModel {
  /** How the ranking names the model ("home_rentals v2"). */
  name: string;
  warnings: readonly ModelWarning[];
}

export function RankingCaveat({ models }: { models: readonly RankedModel[] }) {
  const suspect = models
    .map((m) => ({ name: m.name, reasons: suspectReasons(m.warnings) }))
    .filter((m) => m.reasons.length > 0);
  if (suspect.length === 0) return null;
  return (
    <div className="m-note warn m-ranking-caveat" role="note" aria-label="Scores to read with care">
      <strong>
        <span aria-hidden>⚠ </span>
        {suspect.length === 1 ? 'A score to read with care' : 'Scores to read with care'}
      </strong>
      <ul>
        {suspect.map((m) => (
          <li key={m.name}>
            <strong>{m.name}</strong>: {m.reasons.join('; ')}. A better score from it is suspect: it
            need not predict new rows better.
          </li>
        ))}
      </ul>
    </div>
  );
}
