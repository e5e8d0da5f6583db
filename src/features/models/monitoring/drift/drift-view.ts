/**
 * What the drift tab shows, from a DriftReport (contract/monitoring.ts): the verdict in words,
 * the inputs as sortable rows (drift x importance), each test as a sentence, the bars of the PSI
 * chart and of an input's overlaid histograms, and the RETRAIN statement of "Retrain on this
 * query". Pure, so every figure the tab draws is tested here.
 */
import type {
  DriftBin,
  DriftColumn,
  DriftLevel,
  DriftPredictions,
  DriftReport,
  DriftTest,
  DriftVerdict,
} from '../../../../../contract';
import { qualifiedName, quoteIdent } from '../../../../api/catalog-parse';

export type Tone = 'ok' | 'warn' | 'bad';

const VERDICTS: Record<DriftVerdict, { title: string; tone: Tone }> = {
  stable: { title: 'Stable: today’s data still looks like the training data', tone: 'ok' },
  watch: { title: 'Watch: some inputs moved, not enough to retrain yet', tone: 'warn' },
  retrain: { title: 'Retrain: today’s data has drifted from the training data', tone: 'bad' },
};

export const LEVEL_WORDS: Record<DriftLevel, string> = {
  stable: 'stable',
  moderate: 'moved',
  drifted: 'drifted',
};

const count = (n: number) => n.toLocaleString('en-US');
const pct = (x: number) => {
  const p = x * 100;
  return p > 0 && p < 1 ? '< 1%' : `${Math.round(p)}%`;
};

/** The verdict as a title, its tone, the report's own sentence, and what was compared with what. */
export function verdictText(r: DriftReport): {
  title: string;
  tone: Tone;
  sentence: string;
  compared: string;
} {
  const v = VERDICTS[r.summary.verdict];
  const reference =
    r.reference_source === 'kept'
      ? `${count(r.rows.reference)} training rows kept with v${r.version}`
      : `${count(r.rows.reference)} rows of the training query as it reads now`;
  const sampled =
    r.rows.current_sample < r.rows.current
      ? ` (${count(r.rows.current_sample)} sampled for the tests)`
      : '';
  return {
    ...v,
    sentence: r.summary.sentence,
    compared: `${count(r.rows.current)} rows of today’s data${sampled} against ${reference}`,
  };
}

/** A p-value as people read it: "< 0.001", "0.034", "0.52". */
export function formatP(p: number): string {
  if (!Number.isFinite(p)) return '—';
  if (p < 0.001) return '< 0.001';
  return p < 0.1 ? p.toFixed(3) : p.toFixed(2);
}

/** "KS D = 0.31, p < 0.001 (2,000 vs 1,000 rows)" / "χ² = 45.2, 3 df, p < 0.001 (…)". */
export function testText(t: DriftTest): string {
  const n = `(${count(t.n_reference)} training vs ${count(t.n_current)} today’s rows)`;
  if (t.name === 'ks') return `KS D = ${t.statistic.toFixed(3)}, p ${pOp(t.p_value)} ${n}`;
  const dof = t.dof !== undefined ? `, ${t.dof} df` : '';
  return `χ² = ${t.statistic.toFixed(1)}${dof}, p ${pOp(t.p_value)} ${n}`;
}

const pOp = (p: number) => (p < 0.001 ? '< 0.001' : `= ${formatP(p)}`);

export interface DriftRow {
  column: string;
  kind: 'number' | 'category';
  importance: number;
  psi: number;
  level: DriftLevel;
  pValue: number;
  /** PSI weighted by importance: what sorts the table by default (DataRobot's quadrant idea). */
  impact: number;
  test: string;
  /** What else is worth saying: never-seen values, values out of range, a missing column. */
  note: string;
}

/** What else an input's report says in words, or '' when nothing. */
export function columnNote(c: DriftColumn): string {
  if (!c.present) return 'not in today’s data (every row counts as missing)';
  const parts: string[] = [];
  const nc = c.new_categories;
  if (nc && nc.rows > 0) {
    const shown = nc.values.slice(0, 3).join(', ');
    const more = nc.distinct > 3 ? ` and ${count(nc.distinct - 3)} more` : '';
    parts.push(`${pct(nc.share)} of rows have values training never saw (${shown}${more})`);
  }
  const r = c.out_of_range;
  if (r && r.above > 0) parts.push(`${pct(r.above)} above the training maximum`);
  if (r && r.below > 0) parts.push(`${pct(r.below)} below the training minimum`);
  if (c.missing.current - c.missing.reference >= 0.05) {
    parts.push(
      `missing in ${pct(c.missing.current)} of rows (${pct(c.missing.reference)} in training)`,
    );
  }
  return parts.join('; ');
}

export function driftRows(r: DriftReport): DriftRow[] {
  return r.columns.map((c) => ({
    column: c.column,
    kind: c.kind,
    importance: c.importance,
    psi: c.psi,
    level: c.level,
    pValue: c.test.p_value,
    impact: c.psi * c.importance,
    test: testText(c.test),
    note: columnNote(c),
  }));
}

export type DriftSortKey = 'column' | 'importance' | 'psi' | 'pValue' | 'impact';
export type SortDirection = 'ascending' | 'descending';

/** Sorted by one key (ties by column name, so the order never depends on the server's). */
export function sortDriftRows(
  rows: readonly DriftRow[],
  key: DriftSortKey,
  direction: SortDirection,
): DriftRow[] {
  const sign = direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const d = key === 'column' ? a.column.localeCompare(b.column) : a[key] - b[key];
    return d !== 0 ? sign * d : a.column.localeCompare(b.column);
  });
}

/** The direction a column starts in when its header is first clicked. */
export const firstDirection = (key: DriftSortKey): SortDirection =>
  key === 'column' || key === 'pValue' ? 'ascending' : 'descending';

/** Bars of the PSI chart: every input, most drifted first. */
export function psiBars(r: DriftReport): { column: string; psi: number; level: DriftLevel }[] {
  return sortDriftRows(driftRows(r), 'psi', 'descending').map((x) => ({
    column: x.column,
    psi: x.psi,
    level: x.level,
  }));
}

export interface HistogramBar {
  label: string;
  /** Shares of rows, 0-1. */
  training: number;
  today: number;
  trainingRows: number;
  todayRows: number;
}

/** The overlaid histograms of an input (or of the predictions): bins empty on both sides left out. */
export function histogramBars(x: Pick<DriftColumn | DriftPredictions, 'bins'>): HistogramBar[] {
  return x.bins
    .filter((b: DriftBin) => b.reference > 0 || b.current > 0)
    .map((b) => ({
      label: b.label,
      training: b.reference_share,
      today: b.current_share,
      trainingRows: b.reference,
      todayRows: b.current,
    }));
}

/** The predictions' shift in words ("predictions moved: mean 2,710 → 3,180, PSI 0.34 (drifted)"). */
export function predictionsText(p: DriftPredictions | null): string {
  if (!p) return 'The predictions were not compared (the model could not score today’s sample).';
  const mean =
    p.mean && p.mean.reference !== null && p.mean.current !== null
      ? `mean ${fmtNum(p.mean.reference)} → ${fmtNum(p.mean.current)}, `
      : '';
  return `Predictions ${LEVEL_WORDS[p.level]}: ${mean}PSI ${p.psi.toFixed(2)}, ${testText(p.test)}`;
}

const fmtNum = (v: number) =>
  Math.abs(v) >= 100
    ? Math.round(v).toLocaleString('en-US')
    : Number(v.toPrecision(3)).toLocaleString('en-US');

/** "Retrain on this query": the statement the editor gets (MindsDB's RETRAIN ... FROM db (query)). */
export function retrainSql(project: string, model: string, query: string, db: string): string {
  const q = query.trim().replace(/;\s*$/, '');
  return `RETRAIN ${qualifiedName([project, model])}\nFROM ${quoteIdent(db)} (\n  ${q}\n);`;
}

/** The training query's table as `[schema.]table` (its last part apart), or null for other queries. */
export function trainingTable(selectDataQuery: string | null): {
  prefix: string;
  name: string;
} | null {
  const m = /\bFROM\s+((?:[A-Za-z_][\w]*\.){0,2}[A-Za-z_][\w]*)\s*;?\s*$/i.exec(
    selectDataQuery ?? '',
  );
  if (!m) return null;
  const parts = m[1].split('.');
  const name = parts.pop() as string;
  return { prefix: parts.length ? `${parts.join('.')}.` : '', name };
}

export interface SimilarTable {
  db: string;
  schema: string;
  name: string;
}

/**
 * Queries worth a button beside the query box: tables named like the training table with a
 * suffix (`home_rentals_this_month` beside `home_rentals`: a new batch of the same data), each
 * with the database it runs in.
 */
export function suggestedQueries(
  selectDataQuery: string | null,
  tables: readonly SimilarTable[],
): { table: string; query: string; db: string }[] {
  const t = trainingTable(selectDataQuery);
  if (!t) return [];
  const base = t.name.toLowerCase();
  return tables
    .filter((x) => x.name.toLowerCase() !== base && x.name.toLowerCase().startsWith(`${base}_`))
    .sort((a, b) => a.name.localeCompare(b.name) || a.db.localeCompare(b.db))
    .slice(0, 4)
    .map((x) => ({
      table: x.name,
      db: x.db,
      query: `SELECT * FROM ${qualifiedName([x.schema === 'main' ? undefined : x.schema, x.name])}`,
    }));
}
