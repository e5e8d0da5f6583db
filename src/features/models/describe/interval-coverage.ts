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
  /** What the figures were counted on, in words: out of fold, in sample, or not said (older models). */
  caption: string;
  /** Column headers, one per level in increasing order: '50% band'. */
  levels: string[];
  /** 'All steps' first, then one row per forecast step when the description has them. */
  rows: CoverageRow[];
}

// Whole percents, and the gap from the whole percent shown, so the two never disagree. A step
// the validation never reached has no figure (null): a dash, not 0%.
function cell(held: number | null, level: number): CoverageCell {
  if (held === null) return { held: '—', gap: 'none counted' };
  const heldPoints = Math.round(held * 100);
  const points = Math.round((heldPoints - level * 100) * 10) / 10;
  const sign = points > 0 ? '+' : points < 0 ? '−' : '±';
  return { held: `${heldPoints}%`, gap: `${sign}${Math.abs(points)} pts` };
}

const QUESTION = 'Intervals: does a 90% band hold 90% of actual values?';
const GAP = 'and its difference from the promise in percentage points.';

/** The caption: out of fold only when every level says so, in sample when any level says it is. */
function captionOf(coverage: Coverage): string {
  if (coverage.some((c) => c.outOfFold === false)) {
    return `${QUESTION} Each band's share, counted in sample: on the validation period its bands were fitted on (this model had no earlier period to hold out), so the figures flatter the bands; ${GAP}`;
  }
  if (coverage.every((c) => c.outOfFold === true)) {
    return `${QUESTION} Each band's share, counted on the latest validation period with bands fitted without it (data they did not see), ${GAP}`;
  }
  return `${QUESTION} Each band's share on validation, ${GAP}`;
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
  return {
    caption: captionOf(coverage),
    levels: byLevel.map((c) => `${formatPercent(c.level)} band`),
    rows,
  };
}
