// Warnings about a trained model, in plain words: what a careful data scientist would point out
// before anyone relies on it (a likely leak, an identifier used as an input, too little data, a
// class too rare to learn, mostly-missing inputs, a model no better than a trivial one, intervals
// narrower than promised). Computed at training time from the data profile and the validation
// metrics; the thresholds are constants here and listed in the README.

import type { ModelDescription, ModelMetrics, ModelWarning, Task } from '../api';
import { looksLikeIdName } from '../data/column-types';

/**
 * dominant_input: one input carries at least this share of the (normalised) importance. The demo
 * rentals model with initial_price gives it 0.998; without it, number_of_rooms leads with 0.75,
 * a strong but honest input.
 */
export const DOMINANT_SHARE = 0.9;
/** identifier_like: a kept input whose distinct values are at least this share of its values ... */
const IDENTIFIER_UNIQUE_SHARE = 0.5;
/** ... and at least this many distinct values (a 5-row table is unique by accident). */
const IDENTIFIER_MIN_DISTINCT = 20;
/** too_few_rows: fewer training rows than this ... */
export const MIN_ROWS = 100;
/** ... or fewer than this many rows per input column. */
const MIN_ROWS_PER_INPUT = 10;
/** rare_class: a class with less than this share of the rows ... */
export const RARE_CLASS_SHARE = 0.05;
/** ... or fewer rows than this. */
const RARE_CLASS_MIN_ROWS = 20;
/** mostly_missing: an input missing in at least this share of the rows. */
const MOSTLY_MISSING_SHARE = 0.5;
/** weak_model: regression r2 below this ... */
const WEAK_R2 = 0.1;
/** ... or a classifier's balanced accuracy less than this above the majority baseline's. */
const WEAK_BALANCED_ACCURACY_GAIN = 0.05;
/** narrow_intervals: validation coverage this far below the promised level. */
const COVERAGE_SHORTFALL = 0.05;

/** What the warnings are judged on. Only `rows`, `inputs` and `importances` are required. */
export interface WarningFacts {
  task: Task;
  target: string;
  /** Rows with a target value the model was trained on. */
  rows: number;
  inputs: string[];
  /** Input -> share of the importance (summing to 1, or all 0). */
  importances: Record<string, number>;
  /**
   * Per kept input: its inferred type, and its distinct and missing counts among `rows` rows (the
   * type-inference sample, at most 100k of the training rows).
   */
  profiles?: { column: string; type: string; rows: number; nDistinct: number; nMissing: number }[];
  /** Classifiers: training rows per class. */
  classCounts?: { label: string | number | boolean; count: number }[];
  metrics?: ModelMetrics;
  /** Regression intervals: the promised level and the coverage measured on validation rows. */
  intervals?: { nominal: number; validation: number };
}

/** A share in percent; one decimal near the ends, so 99.8% never reads as 100%. */
const pct = (x: number) => {
  const p = x * 100;
  return `${p > 99 && p < 100 ? p.toFixed(1) : p > 0 && p < 1 ? p.toFixed(1) : Math.round(p)}%`;
};
const quote = (s: string) => `'${s}'`;

export function modelWarnings(f: WarningFacts): ModelWarning[] {
  const out: ModelWarning[] = [];
  const add = (kind: string, column: string | null, message: string) =>
    out.push({ kind, column, message });

  // A likely leak: one input explains (nearly) everything.
  const ranked = f.inputs
    .map((c) => ({ c, v: f.importances[c] ?? 0 }))
    .sort((a, b) => b.v - a.v || (a.c < b.c ? -1 : 1));
  if (f.inputs.length >= 2 && ranked[0].v >= DOMINANT_SHARE) {
    const c = ranked[0].c;
    add(
      'dominant_input',
      c,
      `${quote(c)} carries ${pct(ranked[0].v)} of the importance: the model leans almost entirely on it. ` +
        `If ${quote(c)} is only known after ${quote(f.target)} (or is computed from it), this is a leak and the model will do much worse on new data; ` +
        `if it is truly available at prediction time, a simple rule on it may be all you need.`,
    );
  }

  for (const p of f.profiles ?? []) {
    const present = p.rows - p.nMissing;
    const unique = present > 0 ? p.nDistinct / present : 0;
    const codes = p.type === 'categorical' || p.type === 'binary';
    const idName = looksLikeIdName(p.column) && p.type !== 'float';
    if (
      p.nDistinct >= IDENTIFIER_MIN_DISTINCT &&
      unique >= IDENTIFIER_UNIQUE_SHARE &&
      (codes || idName)
    ) {
      add(
        'identifier_like',
        p.column,
        `${quote(p.column)} looks like an identifier (${pct(unique)} of its values are distinct${idName ? ', and its name says id' : ''}): ` +
          `a code that names rows rather than describes them cannot generalise to new rows. Leave it out with USING ignore_columns = ['${p.column}'] unless it really carries meaning.`,
      );
    }
    if (p.rows > 0 && p.nMissing / p.rows >= MOSTLY_MISSING_SHARE) {
      add(
        'mostly_missing',
        p.column,
        `${quote(p.column)} is missing in ${pct(p.nMissing / p.rows)} of the training rows: what the model learned from it rests on the few rows that have it.`,
      );
    }
  }

  const perInput = f.inputs.length > 0 ? f.rows / f.inputs.length : f.rows;
  if (f.rows < MIN_ROWS || perInput < MIN_ROWS_PER_INPUT) {
    add(
      'too_few_rows',
      null,
      f.rows < MIN_ROWS
        ? `Only ${f.rows} rows to learn from: the metrics below are rough (a few rows more or less would change them noticeably) and the model may not hold up on new data. Aim for at least ${MIN_ROWS}.`
        : `${f.rows} rows for ${f.inputs.length} inputs (${perInput.toFixed(1)} per input): too few to learn how each input matters. Aim for at least ${MIN_ROWS_PER_INPUT} rows per input, or use fewer inputs.`,
    );
  }

  if (f.classCounts && f.classCounts.length >= 2) {
    const total = f.classCounts.reduce((s, c) => s + c.count, 0);
    for (const c of f.classCounts) {
      const share = total > 0 ? c.count / total : 0;
      if (share < RARE_CLASS_SHARE || c.count < RARE_CLASS_MIN_ROWS) {
        add(
          'rare_class',
          null,
          `Class ${quote(String(c.label))} of ${quote(f.target)} has only ${c.count} of ${total} rows (${pct(share)}): ` +
            `too few examples to learn it well, and its precision and recall below are measured on a handful of rows.`,
        );
      }
    }
  }

  const reg = f.metrics?.regression;
  if (reg && reg.r2 < WEAK_R2) {
    add(
      'weak_model',
      null,
      `The model is barely better than always predicting the average ${quote(f.target)} (R² ${reg.r2.toFixed(2)}; ` +
        `typical error ${fmt(reg.mae)} against ${fmt(reg.baseline.mae)} for the average): the inputs say little about ${quote(f.target)}.`,
    );
  }
  const cls = f.metrics?.classification;
  if (cls && cls.balanced_accuracy < cls.baseline.balanced_accuracy + WEAK_BALANCED_ACCURACY_GAIN) {
    add(
      'weak_model',
      null,
      `The model is barely better than always answering ${quote(String(cls.baseline.class))} (balanced accuracy ${pct(cls.balanced_accuracy)} against ${pct(cls.baseline.balanced_accuracy)}): the inputs say little about ${quote(f.target)}.`,
    );
  }

  const iv = f.intervals;
  if (iv && Number.isFinite(iv.validation) && iv.validation < iv.nominal - COVERAGE_SHORTFALL) {
    add(
      'narrow_intervals',
      null,
      `The ${pct(iv.nominal)} intervals held the truth for only ${pct(iv.validation)} of the validation rows: treat them as narrower than stated.`,
    );
  }
  return out;
}

/** A number for a sentence: 3 significant digits, no exponent for everyday magnitudes. */
function fmt(x: number): string {
  return Math.abs(x) >= 1000
    ? Math.round(x).toLocaleString('en-US')
    : String(Number(x.toPrecision(3)));
}

/**
 * The warnings of a description: those found at training time, or for a model trained before
 * they existed, those its description still allows (dominant input, too few rows, intervals).
 * Time-series models have none yet.
 */
export function descriptionWarnings(d: ModelDescription): ModelWarning[] {
  if (d.warnings) return d.warnings;
  if (d.timeseries) return [];
  return modelWarnings({
    task: d.task,
    target: d.target,
    rows: d.trainRows,
    inputs: d.inputs,
    importances: d.columnImportances,
    ...(d.intervals ? { intervals: d.intervals } : {}),
  });
}
