// USING options of CREATE MODEL / FINETUNE: validated here so a typo fails the statement with a
// message listing what is allowed, instead of being silently ignored.

import type { ResolvedSettings } from './api';
import { AutoMLError } from './errors';

/**
 * Defaults. maxLeaves 0 means "auto": 15 leaves below 10k training rows, else 31 (LightGBM's
 * default, tuned for larger data; on the 1k-10k row demo sets the smaller trees generalise a
 * little better). l2 = 1 (XGBoost's default) damps leaves fitted on few, noisy rows.
 */
export const DEFAULT_SETTINGS: ResolvedSettings = {
  seed: 42,
  confidence: 0.9,
  maxIterations: 1000,
  learningRate: 0.1,
  maxLeaves: 0,
  minSamplesLeaf: 20,
  l2: 1,
  earlyStoppingRounds: 20,
  model: 'auto',
  classWeight: 'balanced',
  refit: true,
  validationFraction: 0.2,
  ignoreColumns: [],
  decision: 'balanced',
  textEncoder: 'auto',
};

/** USING keys (case-insensitive). `engine` and `tag` are accepted and ignored: MindsDB tutorials pass them. */
export const ALLOWED_USING_KEYS = [
  'confidence',
  'max_iterations',
  'learning_rate',
  'max_leaves',
  'min_samples_leaf',
  'l2_regularization',
  'early_stopping_rounds',
  'model',
  'class_weight',
  'refit',
  'validation_fraction',
  'ignore_columns',
  'seed',
  'decision',
  'text_encoder',
  'sample_rows',
  'engine',
  'tag',
] as const;

function num(key: string, v: unknown): number {
  const x = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof x !== 'number' || !Number.isFinite(x)) {
    throw new AutoMLError(`USING ${key} must be a number, got ${JSON.stringify(v)}`);
  }
  return x;
}

function intIn(key: string, v: unknown, min: number, max: number): number {
  const x = num(key, v);
  if (!Number.isInteger(x) || x < min || x > max) {
    throw new AutoMLError(
      `USING ${key} must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`,
    );
  }
  return x;
}

function bool(key: string, v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 1 || v === 0) return v === 1;
  if (typeof v === 'string' && /^(true|false|1|0)$/i.test(v.trim()))
    return /^(true|1)$/i.test(v.trim());
  throw new AutoMLError(`USING ${key} must be true or false, got ${JSON.stringify(v)}`);
}

/**
 * Merges USING values over `base` (defaults, or a base model's settings for finetune). Values may
 * arrive as strings from SQL ('0.95'); lists as arrays or comma-separated strings.
 */
export function resolveSettings(
  using: Record<string, unknown> | undefined,
  base: ResolvedSettings,
  seed?: number,
): ResolvedSettings {
  const s: ResolvedSettings = { ...base, ignoreColumns: [...base.ignoreColumns] };
  if (seed !== undefined) s.seed = intIn('seed', seed, -2147483648, 4294967295);
  if (using === undefined || using === null) return s;
  if (typeof using !== 'object' || Array.isArray(using)) {
    throw new AutoMLError('USING options must be an object of key = value pairs');
  }
  const allowed = new Set<string>(ALLOWED_USING_KEYS);
  for (const [rawKey, v] of Object.entries(using)) {
    const key = rawKey.toLowerCase();
    if (!allowed.has(key)) {
      throw new AutoMLError(
        `unknown USING option '${rawKey}'; allowed options are: ${ALLOWED_USING_KEYS.join(', ')}`,
      );
    }
    if (v === undefined) continue;
    switch (key) {
      case 'confidence': {
        const c = num(key, v);
        if (!(c > 0 && c < 1))
          throw new AutoMLError(`USING confidence must be between 0 and 1 (exclusive), got ${c}`);
        s.confidence = c;
        break;
      }
      case 'max_iterations':
        s.maxIterations = intIn(key, v, 1, 100_000);
        break;
      case 'learning_rate': {
        const x = num(key, v);
        if (!(x > 0 && x <= 1))
          throw new AutoMLError(`USING learning_rate must be in (0, 1], got ${x}`);
        s.learningRate = x;
        break;
      }
      case 'max_leaves':
        s.maxLeaves = intIn(key, v, 2, 1024);
        break;
      case 'min_samples_leaf':
        s.minSamplesLeaf = intIn(key, v, 1, 1_000_000);
        break;
      case 'l2_regularization': {
        const x = num(key, v);
        if (x < 0) throw new AutoMLError(`USING l2_regularization must be >= 0, got ${x}`);
        s.l2 = x;
        break;
      }
      case 'early_stopping_rounds':
        s.earlyStoppingRounds = intIn(key, v, 1, 100_000);
        break;
      case 'model': {
        const m = String(v).toLowerCase();
        if (m !== 'auto' && m !== 'gbm' && m !== 'linear') {
          throw new AutoMLError(
            `USING model must be 'auto', 'gbm' or 'linear', got ${JSON.stringify(v)}`,
          );
        }
        s.model = m;
        break;
      }
      case 'class_weight': {
        const m = String(v).toLowerCase();
        if (m !== 'balanced' && m !== 'none') {
          throw new AutoMLError(
            `USING class_weight must be 'balanced' or 'none', got ${JSON.stringify(v)}`,
          );
        }
        s.classWeight = m;
        break;
      }
      case 'refit':
        s.refit = bool(key, v);
        break;
      case 'validation_fraction': {
        const x = num(key, v);
        if (!(x >= 0.05 && x <= 0.5))
          throw new AutoMLError(`USING validation_fraction must be between 0.05 and 0.5, got ${x}`);
        s.validationFraction = x;
        break;
      }
      case 'ignore_columns': {
        const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : null;
        if (!list || list.some((x) => typeof x !== 'string')) {
          throw new AutoMLError(
            `USING ignore_columns must be a list of column names, got ${JSON.stringify(v)}`,
          );
        }
        s.ignoreColumns = (list as string[]).map((x) => x.trim()).filter((x) => x !== '');
        break;
      }
      case 'seed':
        s.seed = intIn(key, v, -2147483648, 4294967295);
        break;
      case 'text_encoder': {
        const m = String(v).toLowerCase();
        if (m !== 'auto' && m !== 'stats') {
          throw new AutoMLError(
            `USING text_encoder must be 'auto' (the words as TF-IDF features when they carry signal) or 'stats' (length and word count only), got ${JSON.stringify(v)}`,
          );
        }
        s.textEncoder = m;
        break;
      }
      case 'decision': {
        const m = String(v).toLowerCase();
        if (m !== 'balanced' && m !== 'argmax') {
          throw new AutoMLError(
            `USING decision must be 'balanced' (the class-weighted arg-max, best balanced accuracy) or 'argmax' (the most probable class, best accuracy), got ${JSON.stringify(v)}`,
          );
        }
        s.decision = m;
        break;
      }
      case 'sample_rows':
        // Read by the model layer, which samples the source before the engine sees a row.
        intIn(key, v, 0, Number.MAX_SAFE_INTEGER);
        break;
      default:
        break; // engine, tag: accepted, no effect
    }
  }
  return s;
}
