// The clauses of a time-series model (ORDER BY, GROUP BY, WINDOW, HORIZON) and its USING settings,
// checked before any row is read.

import type { ResolvedSettings } from '../api';
import { AutoMLError } from '../errors';
import { resolveSettings } from '../options';
import type { CandidateName, ForecastTrainOptions } from './types';

/**
 * Candidates USING model = '<name>' may force on every group (besides 'auto' and 'gbm'): all but
 * the ensemble, whose members only the validation decides (they are also what it may average).
 */
export const FORCEABLE: readonly CandidateName[] = [
  'seasonal_naive',
  'naive',
  'drift',
  'theta',
  'ets',
  'arima',
  'tsb',
  'combination',
  'gbm_direct',
  'gbm_recursive',
];

/** Largest WINDOW / HORIZON accepted (a forecast reads WINDOW rows and writes HORIZON per group). */
const MAX_STEPS = 10_000;

export interface TsColumns {
  target: string;
  orderBy: string;
  groupBy: string[];
  window: number;
  horizon: number;
  /** USING model = '<candidate>': every group forecasts with it (kept for RETRAIN). */
  candidate?: CandidateName;
}

function intOption(name: string, v: unknown, dflt?: number): number {
  if (v === undefined && dflt !== undefined) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_STEPS) {
    throw new AutoMLError(
      `${name} must be an integer from 1 to ${MAX_STEPS}, got ${JSON.stringify(v)}`,
    );
  }
  return v;
}

/** Validates the time-series clauses. */
export function checkOptions(opts: ForecastTrainOptions): TsColumns {
  if (!opts || typeof opts.target !== 'string' || opts.target === '') {
    throw new AutoMLError('a target column is required (PREDICT <column>)');
  }
  if (typeof opts.orderBy !== 'string' || opts.orderBy === '') {
    throw new AutoMLError('a time-series model needs an ORDER BY column');
  }
  const groupBy = opts.groupBy ?? [];
  if (!Array.isArray(groupBy) || groupBy.some((g) => typeof g !== 'string' || g === '')) {
    throw new AutoMLError('GROUP BY must be a list of column names');
  }
  const lower = (s: string) => s.toLowerCase();
  const seen = new Set<string>();
  for (const g of groupBy) {
    if (seen.has(lower(g))) throw new AutoMLError(`GROUP BY names column '${g}' twice`);
    seen.add(lower(g));
  }
  if (lower(opts.orderBy) === lower(opts.target)) {
    throw new AutoMLError(`ORDER BY column '${opts.orderBy}' cannot also be the target`);
  }
  for (const g of groupBy) {
    if (lower(g) === lower(opts.target) || lower(g) === lower(opts.orderBy)) {
      throw new AutoMLError(
        `GROUP BY column '${g}' cannot also be the target or the ORDER BY column`,
      );
    }
  }
  return {
    target: opts.target,
    orderBy: opts.orderBy,
    groupBy: [...groupBy],
    window: intOption('WINDOW', opts.window),
    horizon: intOption('HORIZON', opts.horizon, 1),
  };
}

/**
 * The candidate USING model names, when it names one of a forecaster's (FORCEABLE); undefined for
 * the common values ('auto', 'gbm', 'linear'), which tsSettings reads.
 */
export function forcedCandidate(
  using: Record<string, unknown> | undefined,
): CandidateName | undefined {
  const key = using && Object.keys(using).find((k) => k.toLowerCase() === 'model');
  if (!key) return undefined;
  const m = String(using[key]).toLowerCase();
  return (FORCEABLE as readonly string[]).includes(m) ? (m as CandidateName) : undefined;
}

/**
 * USING settings of a time-series model: the common ones, minus a linear-only model. USING model
 * may also name a forecaster's candidate (see forcedCandidate), which leaves `model` 'auto'.
 */
export function tsSettings(
  using: Record<string, unknown> | undefined,
  base: ResolvedSettings,
  seed: number | undefined,
): ResolvedSettings {
  if (forcedCandidate(using) !== undefined) {
    const rest = Object.fromEntries(
      Object.entries(using!).filter(([k]) => k.toLowerCase() !== 'model'),
    );
    return tsSettings(rest, { ...base, model: 'auto' }, seed);
  }
  const key = using && Object.keys(using).find((k) => k.toLowerCase() === 'model');
  const named = key === undefined ? undefined : String(using![key]).toLowerCase();
  if (named !== undefined && !['auto', 'gbm', 'linear', 'ensemble'].includes(named)) {
    // The common settings' message names the tabular models only.
    throw new AutoMLError(
      `USING model of a time-series model must be 'auto', 'gbm' or one of its candidates: ${FORCEABLE.join(', ')}; got ${JSON.stringify(using![key!])}`,
    );
  }
  const s = resolveSettings(using, base, seed);
  if (s.model === 'linear') {
    throw new AutoMLError(
      `USING model = 'linear' does not apply to time-series models; use 'auto', 'gbm' or one of their candidates: ${FORCEABLE.join(', ')}`,
    );
  }
  return s;
}
