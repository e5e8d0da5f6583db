/**
 * The USING options of CREATE MODEL / RETRAIN / FINETUNE as MindsDB users write them for
 * Lightwood: `engine` may name an ML engine made with CREATE ML_ENGINE (they all train with the
 * built-in engine); the engine's own options and `tag` / `active` (RETRAIN, FINETUNE) pass on; Lightwood's JSON-AI options this engine has
 * no counterpart for (`encoders.<col>.module`, `dtype_dict`, `analysis_blocks`, `model`
 * submodels, ...) are accepted and reported as notes (SHOW WARNINGS) instead of failing.
 */
import { ALLOWED_USING_KEYS } from '../../automl/index';
import { badInput } from '../../errors';
import { ENGINE_NAME } from '../../models/models-table';
import type { UsingValue } from '../syntax/statement';
import type { StatementInput } from './output';
import type { StatementEnv } from '../types';

/** Lightwood options accepted without an effect here, and why. */
const ACCEPTED_LIGHTWOOD: Record<string, string> = {
  encoders: "column encoders are chosen by the engine from each column's type",
  dtype_dict: 'column types are inferred by the engine',
  analysis_blocks: 'the engine runs its own analysis (conformal intervals, importances)',
  accuracy_functions:
    'accuracy is r2_score (regression) or balanced_accuracy_score (classification)',
  problem_definition: 'the problem is defined by PREDICT and the FROM query',
  timeseries_settings:
    'a time-series model is defined by ORDER BY <time column> [GROUP BY ...] WINDOW n [HORIZON h] after PREDICT',
  time_aim: "training time is bounded by the engine's early stopping",
  fixed_confidence: 'intervals are calibrated by conformal prediction',
  warnings: 'the engine keeps no warning list',
};

export function lightwoodUsing(
  env: StatementEnv,
  using: Record<string, UsingValue> | undefined,
  x: StatementInput,
): Record<string, unknown> | undefined {
  if (!using) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(using)) {
    const k = key.toLowerCase();
    if (k === 'engine' && typeof value === 'string') {
      if (!env.mlEngines.find(value) && value.toLowerCase() !== 'automl') {
        throw badInput(
          `ML engine '${value}' is not supported by this instance; models train with its built-in engine '${ENGINE_NAME}' (or one made with CREATE ML_ENGINE name FROM ${ENGINE_NAME})`,
        );
      }
      out[key] = ENGINE_NAME;
      continue;
    }
    // MindsDB's BYOM engine: a model served elsewhere, reached at USING url.train / url.predict.
    if (k === 'url') {
      throw badInput(
        'Bring-your-own-model (USING url.train / url.predict) is not supported by this instance; its models train with the built-in engine',
      );
    }
    // `model.args` (Lightwood's submodels) nests under `model`; this engine's own `model` option
    // is a string ('auto', 'gbm', 'linear').
    const why =
      ACCEPTED_LIGHTWOOD[k] ??
      (k === 'model' && typeof value === 'object'
        ? 'the engine picks its candidate models itself'
        : undefined);
    if (why) {
      x.ctx.warnings.push({
        level: 'Note',
        code: 1,
        message: `USING ${key} is accepted and not applied: ${why}`,
      });
      continue;
    }
    out[key] = value;
  }
  return out;
}

/** USING keys this instance reads besides the engine's own options. */
const OWN_KEYS = new Set(['engine', 'tag', 'active']);

/**
 * RETRAIN and FINETUNE: MindsDB hands USING keys it does not know to the engine, so scripts pass
 * options of other engines along (`USING a = null, b = 1`); keys this engine has no option for
 * are accepted and left out, each named in a note (SHOW WARNINGS). CREATE MODEL still refuses
 * them (a typo there would otherwise train a different model than asked).
 */
export function passedOnUsing(
  using: Record<string, unknown> | undefined,
  x: StatementInput,
  statement: 'RETRAIN' | 'FINETUNE',
): Record<string, unknown> | undefined {
  if (!using) return using;
  const known = new Set<string>([...ALLOWED_USING_KEYS, ...OWN_KEYS]);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(using)) {
    if (known.has(key.toLowerCase())) {
      out[key] = value;
      continue;
    }
    x.ctx.warnings.push({
      level: 'Note',
      code: 1,
      message: `${statement} ... USING ${key}: this instance's engine has no such option; it is accepted and not applied (its options are: ${ALLOWED_USING_KEYS.join(', ')})`,
    });
  }
  return out;
}
