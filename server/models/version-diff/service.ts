/**
 * The version diff (issue 27): predicts and explains the same rows with two complete versions
 * (of one model, or two models of a project) and hands both to ./diff.ts. The rows are the
 * held-out rows kept with the newer side, or any query's rows (a deterministic sample). What
 * POST .../diff and SQL `DESCRIBE m.diff` answer.
 */
import type { DiffReport } from '../../../contract';
import type { CellValue, Explanation, Predictor } from '../../automl/index';
import { inputKinds, isForecaster } from '../../automl/index';
import { badInput, notFound } from '../../errors';
import { querySample, type DataAccess, type Sample } from '../drift/data';
import { spread, type EvidenceReader } from '../drift/evidence';
import type { ModelRef, ModelRegistry } from '../registry';
import type { ModelVersionRecord } from '../store';
import { diffVersions, towardsClass, type DiffSide } from './diff';

/** Rows compared at most (each is explained by both sides: TreeSHAP is the cost). */
const DIFF_ROWS = 2000;

export interface DiffOptions {
  /** `<version>` of the same model, or `<model>[.<version>]` of the same project. */
  against?: string;
  query?: string;
  db?: string;
  limit?: number;
}

function columnsFor(p: Predictor, s: Sample, n: number): Record<string, CellValue[]> {
  const byLower = new Map(Object.keys(s.columns).map((k) => [k.toLowerCase(), k]));
  const out: Record<string, CellValue[]> = {};
  for (const c of p.description.inputs) {
    const k = byLower.get(c.toLowerCase());
    out[c] = k === undefined ? new Array<CellValue>(n).fill(null) : s.columns[k].slice(0, n);
  }
  return out;
}

function side(p: Predictor, name: string, s: Sample, n: number): DiffSide {
  const cols = columnsFor(p, s, n);
  const preds = p.predictColumns!(cols, n);
  const explained: Explanation[] | null = p.explainColumns ? p.explainColumns(cols, n) : null;
  const classes = p.description.classes ?? [];
  const binary = p.description.task === 'binary';
  return {
    name,
    values: preds.map((x) => x.value),
    ...(p.description.task === 'regression'
      ? {}
      : { probabilities: preds.map((x) => x.probabilities ?? {}) }),
    contributions: explained
      ? explained.map((e) =>
          binary ? towardsClass(e.contributions, e.class, classes[0]) : e.contributions,
        )
      : null,
  };
}

/**
 * The target's spread: its standard deviation on validation rows (the mean baseline's RMSE), or,
 * for models without metrics, that of the predictions.
 */
function spreadOf(d: Predictor['description'], values: DiffSide['values']): number {
  const rmse = d.metrics?.regression?.baseline.rmse;
  if (rmse !== undefined) return rmse;
  const x = values.map(Number).filter((v) => Number.isFinite(v));
  const m = x.reduce((a, b) => a + b, 0) / Math.max(1, x.length);
  return Math.sqrt(x.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, x.length));
}

export class DiffService {
  constructor(
    private readonly models: ModelRegistry,
    private readonly access: DataAccess,
    private readonly evidence: EvidenceReader,
  ) {}

  /** The other side: a version number, another model (its active version or `.N`), or the previous complete version. */
  private other(after: ModelVersionRecord, against?: string): ModelVersionRecord {
    if (against === undefined) {
      const prev = this.models
        .versions(after.project, after.name)
        .filter((r) => r.version < after.version && r.status === 'complete')
        .at(-1);
      if (!prev) {
        throw badInput(
          `Model '${after.project}.${after.name}' has no complete version before version ${after.version} to compare with; name one with against (a version, or another model)`,
        );
      }
      return prev;
    }
    const a = against.trim();
    if (/^\d+$/.test(a))
      return this.models.ready({ project: after.project, name: after.name, version: Number(a) });
    const m = /^([^.]+)(?:\.(\d+))?$/.exec(a);
    if (!m)
      throw badInput(
        `against must be a version number or a model name with an optional .version, got '${against}'`,
      );
    if (!this.models.exists(after.project, m[1]))
      throw notFound(`Model '${after.project}.${m[1]}' does not exist`);
    return this.models.ready({
      project: after.project,
      name: m[1],
      version: m[2] === undefined ? undefined : Number(m[2]),
    });
  }

  async compute(ref: ModelRef, o: DiffOptions = {}): Promise<DiffReport> {
    const after = this.models.ready(ref);
    const before = this.other(after, o.against);
    const pa = await this.models.predictor(after);
    const pb = await this.models.predictor(before);
    if (isForecaster(pa) || isForecaster(pb))
      throw badInput(
        'Time-series models are compared by their forecasts: the row-by-row diff applies to tabular models',
      );
    const da = pa.description;
    const db = pb.description;
    if (da.task !== db.task || da.target.toLowerCase() !== db.target.toLowerCase()) {
      throw badInput(
        `The two sides predict different things (${db.target}, ${db.task} vs ${da.target}, ${da.task}): compare versions or models of the same target`,
      );
    }
    let rows: Sample;
    let source: DiffReport['source'];
    if (o.query !== undefined) {
      const dbName = this.access.catalog.requireDatabase(o.db ?? after.fromDb).name;
      rows = await querySample(
        this.access,
        { db: dbName, query: o.query },
        DIFF_ROWS,
        'The query of the rows to compare',
      );
      source = { kind: 'query', query: o.query };
    } else {
      const ev = await this.evidence.training(after);
      rows = spread(ev.heldOut ?? ev.sample, DIFF_ROWS);
      source = { kind: ev.heldOut ? 'held-out' : 'training-sample', query: null };
    }
    const n = Math.min(rows.n, DIFF_ROWS);
    if (n === 0) throw badInput('There are no rows to compare on');
    const same = after.name.toLowerCase() === before.name.toLowerCase();
    const nameOf = (r: ModelVersionRecord) => (same ? `v${r.version}` : `${r.name}.${r.version}`);
    const kinds: Record<string, 'number' | 'category'> = {};
    for (const k of [...inputKinds(db), ...inputKinds(da)])
      if (k.kind === 'number' || k.kind === 'category') kinds[k.column] = k.kind;
    const inputs: Record<string, CellValue[]> = {
      ...columnsFor(pb, rows, n),
      ...columnsFor(pa, rows, n),
    };
    for (const c of Object.keys(inputs)) if (!(c in kinds)) delete inputs[c];
    const sb = side(pb, nameOf(before), rows, n);
    const sa = side(pa, nameOf(after), rows, n);
    const result = diffVersions({
      task: da.task,
      inputs,
      kinds,
      n,
      before: sb,
      after: sa,
      threshold: da.task === 'regression' ? 0.1 * spreadOf(da, sb.values) : null,
      limit: o.limit,
      source,
    });
    return {
      project: after.project,
      before: { model: before.name, version: before.version },
      after: { model: after.name, version: after.version },
      ...result,
    };
  }
}
