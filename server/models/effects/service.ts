/**
 * Feature effects of a complete version (issue 27): partial dependence with ICE lines for one
 * input or the most important ones, over a sample of its training data, cached per version: what
 * GET .../effects, SQL `DESCRIBE m.effects` and the model card show. The engine computes a
 * curve in batch: one prediction of the whole frame per grid point (automl/effects).
 */
import type { EffectCurve, EffectsReport } from '../../../contract';
import {
  AutoMLError,
  inputKinds,
  isForecaster,
  partialDependence,
  type CellValue,
  type Predictor,
} from '../../automl/index';
import { badInput } from '../../errors';
import type { Sample } from '../drift/data';
import { spread, type EvidenceReader } from '../drift/evidence';
import type { ModelRef, ModelRegistry } from '../registry';
import type { ModelVersionRecord } from '../store';

/** Rows the averages are over: evenly spaced rows of the training sample. */
const EFFECT_ROWS = 1000;
/** Inputs drawn without `column`. */
const DEFAULT_TOP = 5;
/** Reports kept in memory (a version's curves do not change). */
const CACHE_SIZE = 64;

export interface EffectsOptions {
  column?: string;
  class?: string;
  top?: number;
}

/** The frame keyed by the model's input names (absent inputs: NULL), at most EFFECT_ROWS rows. */
function frameOf(p: Predictor, all: Sample): { columns: Record<string, CellValue[]>; n: number } {
  const s = spread(all, EFFECT_ROWS);
  const n = s.n;
  const byLower = new Map(Object.keys(s.columns).map((k) => [k.toLowerCase(), k]));
  const columns: Record<string, CellValue[]> = {};
  for (const c of p.description.inputs) {
    const k = byLower.get(c.toLowerCase());
    columns[c] = k === undefined ? new Array<CellValue>(n).fill(null) : s.columns[k];
  }
  return { columns, n };
}

/**
 * The class a classifier's curves follow: the one asked for, else the second of two classes
 * (sorted: 1, true, 'Yes', 'positive': the event) or a multiclass model's most predicted one.
 */
function chosenClass(p: Predictor, frame: ReturnType<typeof frameOf>, asked?: string): string {
  const classes = (p.description.classes ?? []).map(String);
  if (asked !== undefined) {
    if (!classes.includes(asked))
      throw badInput(
        `Class '${asked}' is not one of the model's classes: ${classes.map((c) => `'${c}'`).join(', ')}`,
      );
    return asked;
  }
  if (classes.length === 2) return classes[1];
  const counts = new Map<string, number>();
  for (const x of p.predictColumns!(frame.columns, frame.n)) {
    const k = String(x.value);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return classes.reduce((best, c) => ((counts.get(c) ?? 0) > (counts.get(best) ?? 0) ? c : best));
}

export class EffectsService {
  private readonly cache = new Map<string, Promise<EffectsReport>>();

  constructor(
    private readonly models: ModelRegistry,
    private readonly evidence: EvidenceReader,
  ) {}

  compute(ref: ModelRef, o: EffectsOptions = {}): Promise<EffectsReport> {
    const rec = this.models.ready(ref);
    // Names are case-blind, class labels are not ('Yes' and 'yes' may both be classes).
    const k = [
      [rec.project, rec.name, rec.version, o.column ?? ''].join('\u0000').toLowerCase(),
      o.class ?? '',
      o.top ?? '',
    ].join('\u0000');
    let p = this.cache.get(k);
    if (!p) {
      p = this.run(rec, o).catch((err: unknown) => {
        this.cache.delete(k);
        throw err;
      });
      this.cache.set(k, p);
      if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    }
    return p;
  }

  private async run(rec: ModelVersionRecord, o: EffectsOptions): Promise<EffectsReport> {
    const predictor = await this.models.predictor(rec);
    const d = predictor.description;
    const head = { project: rec.project, model: rec.name, version: rec.version };
    if (isForecaster(predictor)) {
      return {
        ...head,
        task: 'timeseries',
        output: d.target,
        rows: 0,
        curves: [],
        skipped: [
          {
            column: '*',
            reason:
              'a forecaster reads only its ORDER BY, GROUP BY and target columns (its history): it has no other inputs whose effect could be varied',
          },
        ],
      };
    }
    const ev = await this.evidence.training(rec);
    const frame = frameOf(predictor, ev.sample);
    const kinds = inputKinds(d);
    const imp = (c: string) => d.columnImportances[c] ?? 0;
    let chosen: typeof kinds;
    if (o.column !== undefined) {
      const k = kinds.find((x) => x.column.toLowerCase() === o.column!.toLowerCase());
      if (!k)
        throw badInput(
          `'${o.column}' is not an input of the model; its inputs are: ${d.inputs.join(', ')}`,
        );
      chosen = [k];
    } else {
      chosen = [...kinds]
        .sort((a, b) => imp(b.column) - imp(a.column))
        .slice(0, o.top ?? DEFAULT_TOP);
    }
    const cls = d.task === 'regression' ? undefined : chosenClass(predictor, frame, o.class);
    const skipped: EffectsReport['skipped'] = [];
    const curves: EffectCurve[] = [];
    for (const k of chosen) {
      if (k.kind === 'datetime' || k.kind === 'text') {
        skipped.push({
          column: k.column,
          reason:
            k.kind === 'datetime'
              ? 'a date: the model reads it as several parts (year, month, weekday...), no one value to vary'
              : 'free text: no grid of values to set it to',
        });
        continue;
      }
      try {
        const r = partialDependence(predictor, frame, {
          column: k.column,
          kind: k.kind,
          classLabel: cls,
        });
        const finite = r.average.filter((x) => Number.isFinite(x));
        curves.push({
          column: k.column,
          kind: k.kind,
          importance: imp(k.column),
          grid: r.grid,
          average: r.average,
          ice: r.ice,
          distribution: r.distribution,
          range: finite.length ? Math.max(...finite) - Math.min(...finite) : 0,
        });
      } catch (err) {
        if (err instanceof AutoMLError) throw badInput(err.message);
        throw err;
      }
    }
    return {
      ...head,
      task: d.task,
      output: cls === undefined ? d.target : `P(${d.target} = ${cls})`,
      ...(cls === undefined
        ? {}
        : {
            class: (d.classes ?? []).find((c) => String(c) === cls) ?? cls,
            classes: [...(d.classes ?? [])],
          }),
      rows: frame.n,
      curves,
      skipped,
    };
  }
}
