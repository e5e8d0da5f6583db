/** The Describe tab's interval coverage table: each band's promised share beside the share it held. */
import type { DescribeTimeseries } from '../../../../contract';
import { formatPercent } from '../shared';

type Coverage = NonNullable<DescribeTimeseries['coverage']>;

/** One cell: the share of actual values inside the band, and how far it is from the promise. */
interface CoverageCell {
  /** '57%' */
  held: string;
  /** Signed, in percentage points against the promise, in words: '+7 pts', '−8 pts', '±0 pts'. */
  gap: string;
}

/** One row: all steps pooled, or one forecast step. */
interface CoverageRow {
  label: string;
  cells: CoverageCell[];
}

interface CoverageTable {
  /** Column headers, one per level in increasing order: '50% band'. */
  levels: string[];
  /** 'All steps' first, then one row per forecast step when the description has them. */
  rows: CoverageRow[];
}

// Whole percents, and the gap from the whole percent shown, so the two never disagree.
function cell(held: number, level: number): CoverageCell {
  const heldPoints = Math.round(held * 100);
  const points = Math.round((heldPoints - level * 100) * 10) / 10;
  const sign = points > 0 ? '+' : points < 0 ? '−' : '±';
  return { held: `${heldPoints}%`, gap: `${sign}${Math.abs(points)} pts` };
}

/**
 * The coverage per level (columns) and per forecast step (rows), or null when the description has
 * none (MindsDB, models trained before it). Steps are shown only when every level has the same
 * number of them.
 */
export function intervalCoverageTable(coverage: Coverage | undefined): CoverageTable | null {
  if (!coverage || coverage.length === 0) return null;
  const byLevel = [...coverage].sort((a, b) => a.level - b.level);
  const stepCount = byLevel[0].steps?.length ?? 0;
  const perStep = stepCount > 0 && byLevel.every((c) => c.steps?.length === stepCount);
  const rows: CoverageRow[] = [
    { label: 'All steps', cells: byLevel.map((c) => cell(c.coverage, c.level)) },
  ];
  if (perStep) {
    for (let k = 0; k < stepCount; k++) {
      rows.push({
        label: `Step ${k + 1}`,
        cells: byLevel.map((c) => cell(c.steps![k], c.level)),
      });
    }
  }
  return { levels: byLevel.map((c) => `${formatPercent(c.level)} band`), rows };
}
