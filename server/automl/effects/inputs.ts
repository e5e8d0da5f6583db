// What a model knows of its inputs, read from its artifact: how each input's values are compared
// (numbers, or categories keyed as the model keys them) and every category training saw (the
// description lists at most 100; the encoders keep them all), for drift and effects.

import type { ModelArtifact, ModelDescription } from '../api';
import type { ValueKind } from '../data/column-types';
import { isTimeSeriesArtifact } from '../timeseries/forecaster';
import type { TimeSeriesArtifact } from '../timeseries/types';

export interface InputKind {
  column: string;
  kind: 'number' | 'category' | 'datetime' | 'text';
  /** Categories: how their values are keyed (numbers compare as numbers, yes/no as booleans). */
  valueKind?: ValueKind;
}

/** The value kind of a list of labels: all numbers, all booleans, or text. */
function labelKind(labels: readonly unknown[] | undefined): ValueKind {
  if (!labels || labels.length === 0) return 'string';
  if (labels.every((v) => typeof v === 'number')) return 'number';
  if (labels.every((v) => typeof v === 'boolean')) return 'boolean';
  return 'string';
}

/** Each input of a described model and how its values compare. */
export function inputKinds(d: ModelDescription): InputKind[] {
  return d.inputs.map((column) => {
    const t = d.inputTypes[column];
    if (t === 'integer' || t === 'float') return { column, kind: 'number' };
    if (t === 'datetime') return { column, kind: 'datetime' };
    if (t === 'text') return { column, kind: 'text' };
    return { column, kind: 'category', valueKind: labelKind(d.categories[column]) };
  });
}

/**
 * Every category key training saw per categorical input: the encoder's kept keys and, past
 * them, the target-encoded ones. Time-series artifacts have no encoders: none.
 */
export function knownCategories(a: ModelArtifact | TimeSeriesArtifact): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (isTimeSeriesArtifact(a)) return out;
  for (const e of a.encoders) {
    if (e.kind !== 'categorical') continue;
    out[e.column] = [...new Set([...e.keys, ...(e.targetEncoding?.keys ?? [])])];
  }
  return out;
}
