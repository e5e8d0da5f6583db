/**
 * Drift of today's data against a version's training sample (issue 27): the service behind
 * POST .../drift and SQL `DESCRIBE m.drift FROM db (query)`. Bins are fitted on the training
 * sample (./bins.ts), today's data is counted where it lives (./data.ts), both samples are
 * predicted for the predictions' shift, and ./report.ts decides. The latest report of each
 * version is kept beside its artifact (`<version>.drift.json`) for the model card.
 */
import path from 'node:path';
import {
  DRIFT_DEFAULTS,
  type DriftColumn,
  type DriftReport,
  type DriftThresholds,
} from '../../../contract';
import { inputKinds, isForecaster, type CellValue, type Predictor } from '../../automl/index';
import { readJsonFile, writeFileAtomic } from '../../engine/atomic';
import { badInput } from '../../errors';
import type { ModelRef, ModelRegistry } from '../registry';
import type { ModelVersionRecord } from '../store';
import { binCells, categoryBins, cellKey, cellNumber, numericBins, type DriftBins } from './bins';
import { countAndSample, queryColumns, type DataAccess, type Sample } from './data';
import type { EvidenceReader } from './evidence';
import {
  columnDrift,
  predictionDrift,
  verdict,
  type ColumnEvidence,
  type PredictionEvidence,
} from './report';
import type { SqlColumn } from './sql';

/** Rows of today's data sampled for the KS tests and the predictions. */
const CURRENT_SAMPLE_ROWS = 2000;

export interface DriftRequestOptions {
  query: string;
  db?: string;
  thresholds?: Partial<DriftThresholds>;
}

/** A sample's column for a model input, matched case-insensitively (undefined: absent). */
function columnOf(sample: Sample, input: string): CellValue[] | undefined {
  const k = Object.keys(sample.columns).find((c) => c.toLowerCase() === input.toLowerCase());
  return k === undefined ? undefined : sample.columns[k];
}

const finite = (cells: readonly CellValue[]) =>
  Float64Array.from(cells, cellNumber).filter((x) => Number.isFinite(x));

/** Predictions of a sample as numbers (regression) or class keys. */
function predictSample(p: Predictor, sample: Sample): CellValue[] {
  const cols: Record<string, CellValue[]> = {};
  for (const c of p.description.inputs)
    cols[c] = columnOf(sample, c) ?? new Array(sample.n).fill(null);
  const preds = p.predictColumns
    ? p.predictColumns(cols, sample.n)
    : p.predict(
        Array.from({ length: sample.n }, (_, i) =>
          Object.fromEntries(Object.entries(cols).map(([k, v]) => [k, v[i]])),
        ),
      );
  return preds.map((x) => x.value);
}

export class DriftService {
  /** Predictions on each version's training sample (they never change). */
  private readonly referencePredictions = new WeakMap<Sample, CellValue[]>();

  constructor(
    private readonly models: ModelRegistry,
    private readonly access: DataAccess,
    private readonly evidence: EvidenceReader,
  ) {}

  private snapshotFile(rec: ModelVersionRecord): string {
    return path.join(
      this.models.store.modelDir(rec.project, rec.name),
      `${rec.version}.drift.json`,
    );
  }

  /** The latest drift report of a version, if one was computed. */
  latest(ref: ModelRef): DriftReport | null {
    const rec = this.models.get(ref);
    return readJsonFile<DriftReport>(this.snapshotFile(rec)) ?? null;
  }

  async compute(ref: ModelRef, req: DriftRequestOptions): Promise<DriftReport> {
    const rec = this.models.ready(ref);
    const predictor = await this.models.predictor(rec);
    const t: DriftThresholds = { ...DRIFT_DEFAULTS };
    for (const [k, v] of Object.entries(req.thresholds ?? {}))
      if (v !== undefined) t[k as keyof DriftThresholds] = v;
    const db = this.access.catalog.requireDatabase(req.db ?? rec.fromDb).name;
    const src = { db, query: req.query };
    const what = "The query of today's data";
    const { names, types } = await queryColumns(this.access, src, what);
    const byLower = new Map(names.map((n) => [n.toLowerCase(), n]));
    const typeOf = new Map(names.map((n, i) => [n, types[i]]));
    const ev = await this.evidence.training(rec);
    const desc = predictor.description;

    const skipped: DriftReport['skipped'] = [];
    const compared: {
      bins: DriftBins;
      source: string | null;
      sourceType: string | undefined;
      ref: CellValue[];
    }[] = [];
    for (const k of inputKinds(desc)) {
      if (k.kind === 'datetime') {
        skipped.push({
          column: k.column,
          reason: 'a date: its values move with time, so they always drift',
        });
        continue;
      }
      if (k.kind === 'text') {
        skipped.push({ column: k.column, reason: 'free text: its words have no bins to compare' });
        continue;
      }
      const refCells = columnOf(ev.sample, k.column) ?? [];
      const source = byLower.get(k.column.toLowerCase()) ?? null;
      const bins: DriftBins =
        k.kind === 'number'
          ? numericBins(k.column, finite(refCells), desc.numericRanges[k.column] ?? null)
          : categoryBins(
              k.column,
              k.valueKind!,
              refCells.map((v) => cellKey(v, k.valueKind!)),
              ev.known[k.column] ?? [],
            );
      compared.push({
        bins,
        source,
        sourceType: source ? typeOf.get(source) : undefined,
        ref: refCells,
      });
    }
    const sqlColumns: SqlColumn[] = compared.map((c) => ({
      bins: c.bins,
      source: c.source,
      sourceType: c.sourceType,
    }));
    const sampled = compared.flatMap((c) => (c.source === null ? [] : [c.source]));
    // The sample's predictions are computed while DuckDB counts all rows.
    const today = await countAndSample(
      this.access,
      src,
      sqlColumns,
      sampled,
      CURRENT_SAMPLE_ROWS,
      what,
      (sample) =>
        isForecaster(predictor) ? null : this.predictionEvidence(predictor, ev.sample, sample),
    );
    if (today.n === 0) throw badInput(`${what} returned no rows: there is nothing to compare`);

    const columns: DriftColumn[] = compared.map((c, i) => {
      const e: ColumnEvidence = {
        bins: c.bins,
        importance: desc.columnImportances[c.bins.column] ?? 0,
        present: c.source !== null,
        reference: binCells(c.bins, c.ref),
        current: today.counts[i],
      };
      if (c.bins.kind === 'number' && c.source !== null) {
        e.referenceValues = finite(c.ref);
        e.currentValues = finite(today.sample.columns[c.source] ?? []);
      }
      // Never-seen values are named from the sample (DuckDB counted them, without names).
      if (c.bins.kind === 'category' && c.source !== null && today.counts[i].newValues.size === 0)
        e.newValues = binCells(c.bins, today.sample.columns[c.source] ?? []).newValues;
      return columnDrift(e, t);
    });
    columns.sort((a, b) => b.importance * b.psi - a.importance * a.psi || b.psi - a.psi);

    const predictions = today.derived ? predictionDrift(today.derived, t) : null;
    const report: DriftReport = {
      project: rec.project,
      model: rec.name,
      version: rec.version,
      query: req.query,
      db,
      computed_at: new Date().toISOString(),
      reference_source: ev.source,
      rows: { reference: ev.sample.n, current: today.n, current_sample: today.sample.n },
      columns,
      skipped,
      predictions,
      summary: verdict(columns, predictions, t),
      thresholds: t,
    };
    // The latest report is kept for the card; a full disk must not cost the user the answer.
    try {
      writeFileAtomic(this.snapshotFile(rec), JSON.stringify(report));
    } catch {
      // Nothing stored: the card says no drift report was kept.
    }
    return report;
  }

  private predictionEvidence(p: Predictor, reference: Sample, current: Sample): PredictionEvidence {
    let ref = this.referencePredictions.get(reference);
    if (!ref) {
      ref = predictSample(p, reference);
      this.referencePredictions.set(reference, ref);
    }
    const cur = predictSample(p, current);
    const desc = p.description;
    if (desc.task === 'regression') {
      const r = Array.from(ref, Number);
      return {
        kind: 'number',
        bins: numericBins('prediction', r),
        reference: r,
        current: Array.from(cur, Number),
      };
    }
    const classes = (desc.classes ?? []).map(String);
    const bins = categoryBins('prediction', 'string', classes, classes, classes.length);
    // Classes in the model's order, whatever their frequency.
    bins.shown = classes;
    return {
      kind: 'category',
      bins,
      reference: binCells(bins, ref.map(String)),
      current: binCells(bins, cur.map(String)),
    };
  }
}
