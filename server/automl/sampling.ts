// Training on a sample drawn where the data lives (server/models/training-sample.ts): whether a
// pilot of the target's values asks for classes (sampled per class) or numbers, and the class
// prior correction a sample drawn at different rates per class needs.

import type { ModelArtifact } from './api';
import { categoryKey, inferColumnType, isMissing } from './data/column-types';
import { isTimeSeriesArtifact } from './timeseries/forecaster';
import type { TimeSeriesArtifact } from './timeseries/types';

/**
 * Whether a target whose pilot values are `values` is a set of classes, by the rule the training
 * applies (pipeline/target.ts): categories, booleans, text and small integer scales are classes;
 * other numbers are a regression.
 */
export function isClassTarget(target: string, values: unknown[]): boolean {
  const present = values.filter((v) => !isMissing(v));
  if (present.length === 0) return false;
  const p = inferColumnType(target, present);
  if (p.scale) return true;
  const t = p.type === 'identifier' ? p.dataType : p.type;
  return !(t === 'integer' || t === 'float');
}

/**
 * A classifier trained on rows drawn at `rate(class)` sees class shares that are not the
 * source's: P_source(c | x) is proportional to P_sample(c | x) / rate_c. The calibrated
 * probability is softmax((raw - shift) / T), so adding T x log(rate_c) to shift_c divides each
 * class's probability by its rate after temperature scaling, with the artifact's format and
 * every predictor unchanged. The decision rule 'balanced' reads the raw scores and is unaffected;
 * 'argmax' then picks the most probable class in the source. (Rows with missing inputs use their
 * own temperature with this shift: the correction is scaled by T / T_mask there, an approximation.)
 */
export function correctClassSampling<A extends ModelArtifact | TimeSeriesArtifact>(
  a: A,
  rates: { value: unknown; rate: number }[],
): A {
  if (isTimeSeriesArtifact(a)) return a;
  const cal = a.calibration.classes;
  if (a.task === 'regression' || !cal || !a.classes) return a;
  const kind = a.target_info.valueKind;
  const byKey = new Map<string, number>();
  for (const r of rates) {
    const k = categoryKey(r.value, kind);
    if (k !== null && r.rate > 0) byKey.set(k, r.rate);
  }
  const logRate = a.classes.keys.map((k) => Math.log(byKey.get(k) ?? 1));
  const T = cal.temperature;
  const shift =
    a.task === 'binary'
      ? [cal.shift[0] + T * (logRate[1] - logRate[0])]
      : cal.shift.map((s, k) => s + T * logRate[k]);
  return { ...a, calibration: { ...a.calibration, classes: { ...cal, shift } } };
}
