/**
 * Reads predict responses: the prediction, confidence, interval, anomaly flag and the parsed
 * `<target>_explain` (class probabilities for classifiers) of each row, for the grid and charts.
 */
import { PredictionExplain, type PredictionRow } from '../../../../contract';

export interface PredictionView {
  index: number;
  prediction: unknown;
  confidence: number | null;
  lower: number | null;
  upper: number | null;
  anomaly: boolean | null;
  original: unknown;
  /** Class -> probability, sorted by class name (empty for regressions). */
  probabilities: Record<string, number>;
  explain: PredictionExplain | null;
  explainError: string | null;
  inputs: Record<string, unknown>;
}

/** Parses an `_explain` value: a JSON string (spec) or an object (some servers). */
export function parseExplain(
  value: unknown,
): { ok: true; value: PredictionExplain } | { ok: false; error: string } {
  let obj: unknown = value;
  if (typeof value === 'string') {
    try {
      obj = JSON.parse(value);
    } catch {
      return { ok: false, error: 'explain is not valid JSON' };
    }
  }
  const r = PredictionExplain.safeParse(obj);
  if (!r.success) return { ok: false, error: r.error.issues[0]?.message ?? 'unexpected explain' };
  return { ok: true, value: r.data };
}

const PROB_PREFIX = 'probability_class_';

function classProbabilities(explain: PredictionExplain | null): Record<string, number> {
  const out: Record<string, number> = {};
  if (!explain) return out;
  for (const k of Object.keys(explain).sort()) {
    const v = explain[k];
    if (k.startsWith(PROB_PREFIX) && typeof v === 'number') out[k.slice(PROB_PREFIX.length)] = v;
  }
  return out;
}

/** The target of a response: the key whose `<key>_explain` exists (when not known already). */
export function detectTarget(rows: readonly Record<string, unknown>[]): string | undefined {
  const first = rows[0];
  if (!first) return undefined;
  const k = Object.keys(first).find((key) => key.endsWith('_explain'));
  return k?.slice(0, -'_explain'.length);
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function toPredictionViews(
  rows: readonly PredictionRow[],
  target: string,
  inputs: readonly string[],
): PredictionView[] {
  return rows.map((r, index) => {
    const ex = parseExplain(r[`${target}_explain`]);
    const explain = ex.ok ? ex.value : null;
    const anomaly = r[`${target}_anomaly`];
    const ins: Record<string, unknown> = {};
    for (const i of inputs) ins[i] = r[i] ?? null;
    return {
      index,
      prediction: r[target] ?? explain?.predicted_value ?? null,
      confidence: num(r[`${target}_confidence`]) ?? explain?.confidence ?? null,
      lower: num(r[`${target}_min`]) ?? explain?.confidence_lower_bound ?? null,
      upper: num(r[`${target}_max`]) ?? explain?.confidence_upper_bound ?? null,
      anomaly: typeof anomaly === 'boolean' ? anomaly : (explain?.anomaly ?? null),
      original: r[`${target}_original`] ?? null,
      probabilities: classProbabilities(explain),
      explain,
      explainError:
        r[`${target}_explain`] === undefined || r[`${target}_explain`] === null
          ? null
          : ex.ok
            ? null
            : ex.error,
      inputs: ins,
    };
  });
}

/** Points for the error-bar chart: value and the asymmetric distances to the bounds. */
export function intervalPoints(
  views: readonly PredictionView[],
  limit = 200,
): { row: number; value: number; error: [number, number]; lower: number; upper: number }[] {
  const out = [];
  for (const v of views.slice(0, limit)) {
    const value = num(v.prediction);
    if (value === null || v.lower === null || v.upper === null) continue;
    out.push({
      row: v.index + 1,
      value,
      lower: v.lower,
      upper: v.upper,
      error: [Math.max(0, value - v.lower), Math.max(0, v.upper - value)] as [number, number],
    });
  }
  return out;
}
