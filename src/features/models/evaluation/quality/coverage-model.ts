/**
 * Calibration and interval audit as the page shows them: reliability points against the
 * diagonal, and per cell of held-out rows whether the promised interval coverage holds, judged
 * with the sampling error of that many rows (a decile of 40 rows at 85 % when 90 % was promised is
 * noise; a decile of 4,000 is not).
 */
import type { z } from 'zod';
import type { CalibrationView, CoverageCell } from '../../../../../contract';

type Calibration = z.infer<typeof CalibrationView>;
type Cell = z.infer<typeof CoverageCell>;

export function calibrationPoints(v: Calibration) {
  return v.bins.filter((b) => b.rows > 0).map((b) => ({ x: b.predicted, y: b.observed }));
}

export type CoverageVerdict = 'holds' | 'below' | 'above' | 'too few rows';

/** Under this many rows a cell's coverage says little either way. */
const MIN_ROWS = 20;

/**
 * Whether a cell keeps the promise `level`: within two standard errors of a binomial with that
 * many rows, else below (the intervals are too narrow there) or above (wider than needed).
 */
export function coverageVerdict(
  c: Pick<Cell, 'rows' | 'coverage'>,
  level: number,
): CoverageVerdict {
  if (c.coverage === null || c.rows < MIN_ROWS) return 'too few rows';
  const se = Math.sqrt((level * (1 - level)) / c.rows);
  if (c.coverage < level - 2 * se) return 'below';
  if (c.coverage > level + 2 * se) return 'above';
  return 'holds';
}

export const VERDICT_WORDS: Record<CoverageVerdict, string> = {
  holds: 'keeps the promise',
  below: 'below the promise',
  above: 'wider than needed',
  'too few rows': 'too few rows to judge',
};

/** The cells that break the promise, worst first (what the presenter points at). */
export function brokenPromises(cells: Cell[], level: number): Cell[] {
  return cells
    .filter((c) => coverageVerdict(c, level) === 'below')
    .sort((a, b) => (a.coverage ?? 0) - (b.coverage ?? 0));
}
