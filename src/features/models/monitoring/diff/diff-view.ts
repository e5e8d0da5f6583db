/**
 * What the version diff shows, from a DiffReport (contract/monitoring.ts): which versions it can
 * be compared with, where the rows came from, each changed row in words (before → after, the
 * change, the inputs whose contributions moved) and the inputs that count more or less. Pure, so
 * every figure the view draws is tested here.
 */
import type { DiffReport, DiffRow } from '../../../../../contract';
import type { ModelVersion } from '../../api';

/** Complete versions other than the shown one, newest first, and the one to start with (the previous). */
export function againstChoices(
  versions: readonly ModelVersion[],
  shown: number,
): { choices: number[]; initial: number | undefined } {
  const choices = versions
    .filter((v) => v.status === 'complete' && v.version !== shown)
    .map((v) => v.version)
    .sort((a, b) => b - a);
  return { choices, initial: choices.find((v) => v < shown) ?? choices[0] };
}

const count = (n: number) => n.toLocaleString('en-US');

/** A number for a table: three significant digits below 1,000, whole above. */
export function fmt(v: number): string {
  if (!Number.isFinite(v)) return '—';
  const abs = Math.abs(v);
  if (abs >= 1000 || abs === 0) return Math.round(v).toLocaleString('en-US');
  return Number(v.toPrecision(3)).toLocaleString('en-US', { maximumFractionDigits: 10 });
}

/** A signed change with a true minus sign: "+120", "−0.0412". */
export function signed(v: number): string {
  if (!Number.isFinite(v)) return '—';
  const t = fmt(Math.abs(v));
  return t === '0' ? '0' : `${v < 0 ? '−' : '+'}${t}`;
}

/** Where the rows came from and how many changed, in one line. */
export function sourceText(r: DiffReport): string {
  const where =
    r.source.kind === 'query'
      ? `${count(r.rows.compared)} rows of the query`
      : r.source.kind === 'held-out'
        ? `${count(r.rows.compared)} held-out rows kept with v${r.after.version}`
        : `${count(r.rows.compared)} rows of v${r.after.version}'s training sample`;
  const what =
    r.task === 'regression' ? `changed by more than ${fmt(r.threshold ?? 0)}` : 'changed class';
  const share =
    r.rows.compared > 0 ? ` (${((100 * r.rows.changed) / r.rows.compared).toFixed(1)}%)` : '';
  return `${sideName(r.before, r)} against ${sideName(r.after, r)} on ${where}: ${count(r.rows.changed)}${share} ${what}.`;
}

/** `v2`, or `other_model.2` for another model. */
function sideName(s: DiffReport['before'], r: Pick<DiffReport, 'after'>): string {
  return s.model === r.after.model ? `v${s.version}` : `${s.model}.${s.version}`;
}

const label = (v: DiffRow['before']) =>
  v === null ? 'missing' : typeof v === 'number' ? fmt(v) : String(v);

export interface DiffTableRow {
  row: number;
  before: string;
  after: string;
  /** Regression: the signed change; classifiers: the probability change in percentage points. */
  change: string;
  flipped: boolean;
  /** The inputs whose contributions moved most, signed: "sqft +210, location −45". */
  moved: string;
  /** The row's inputs, the first few: "sqft 917, location great, …". */
  inputs: string;
}

export function diffTableRows(r: DiffReport, maxInputs = 4): DiffTableRow[] {
  const regression = r.task === 'regression';
  return r.changed_rows.map((x) => {
    const entries = Object.entries(x.inputs);
    const shown = entries
      .slice(0, maxInputs)
      .map(
        ([k, v]) => `${k} ${v === null ? 'missing' : typeof v === 'number' ? fmt(v) : String(v)}`,
      );
    return {
      row: x.row,
      before: label(x.before),
      after: label(x.after),
      change: regression ? signed(x.change) : `${signed(x.change * 100)} pp`,
      flipped: !!x.flipped,
      moved: x.moved
        .slice(0, 3)
        .map((m) => `${m.column} ${signed(m.change)}`)
        .join(', '),
      inputs: shown.join(', ') + (entries.length > maxInputs ? ', …' : ''),
    };
  });
}

/** Bars of the "what counts more" chart: each input's mean |contribution| before and after. */
export function weightBars(
  r: DiffReport,
  max = 8,
): { column: string; before: number; after: number }[] {
  return [...r.moved_inputs]
    .sort(
      (a, b) =>
        Math.abs(b.weight_after - b.weight_before) - Math.abs(a.weight_after - a.weight_before) ||
        a.column.localeCompare(b.column),
    )
    .slice(0, max)
    .map((m) => ({ column: m.column, before: m.weight_before, after: m.weight_after }));
}
