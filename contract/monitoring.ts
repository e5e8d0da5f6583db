/**
 * Watching a model after training (issue 27): drift of today's data against the training sample,
 * feature effects (partial dependence with ICE lines) and the row-by-row difference between two
 * versions or models. The server answers these shapes on REST and in SQL (DESCRIBE m.drift,
 * m.effects, m.diff); the playground parses them with these schemas. This instance's extension:
 * a MindsDB server has none of them.
 */
import { z } from 'zod';

const Share = z.number().describe('A share between 0 and 1');
const Label = z.union([z.number(), z.string(), z.boolean(), z.null()]);

// ---- drift -----------------------------------------------------------------------------------

/** Where a statistic crosses from noise into drift. Defaults in DRIFT_DEFAULTS. */
export const DriftThresholds = z.object({
  /** An input (or the predictions) drifted when its PSI is at least this and its test's p below `p_value`. */
  psi: z.number().positive().max(10),
  p_value: z.number().positive().max(1),
  /** Retrain when the drifted inputs carry at least this share of the model's importance. */
  importance: Share,
});
export type DriftThresholds = z.infer<typeof DriftThresholds>;

export const DRIFT_DEFAULTS: DriftThresholds = { psi: 0.2, p_value: 0.05, importance: 0.3 };

/** POST .../drift: today's data as a query, run in `db` (default: the database the model trained from). */
export const DriftRequest = z.object({
  query: z
    .string({ error: "query must be a string: the SELECT that returns today's data" })
    .trim()
    .min(1, "query is empty: give the SELECT that returns today's data")
    .max(100_000),
  db: z.string().min(1).optional(),
  thresholds: DriftThresholds.partial().optional(),
});
export type DriftRequest = z.infer<typeof DriftRequest>;

/** One bin of a column (or of the predictions): its label, counts and shares on both sides. */
export const DriftBin = z.object({
  label: z.string(),
  reference: z.number().int(),
  current: z.number().int(),
  reference_share: Share,
  current_share: Share,
});
export type DriftBin = z.infer<typeof DriftBin>;

/** A two-sample test: Kolmogorov-Smirnov for numbers, chi-squared for categories. */
export const DriftTest = z.object({
  name: z.enum(['ks', 'chi2']),
  statistic: z.number(),
  p_value: z.number(),
  /** chi2 only. */
  dof: z.number().int().optional(),
  /** Rows each side of the test used (KS runs on samples; chi2 on the counted bins). */
  n_reference: z.number().int(),
  n_current: z.number().int(),
});
export type DriftTest = z.infer<typeof DriftTest>;

export const DriftLevel = z.enum(['stable', 'moderate', 'drifted']);
export type DriftLevel = z.infer<typeof DriftLevel>;

export const DriftColumn = z.object({
  column: z.string(),
  kind: z.enum(['number', 'category']),
  /** The input's share of the model's importance (DESCRIBE's column_importances). */
  importance: Share,
  /** Whether today's data has the column (absent: every row counts as missing). */
  present: z.boolean(),
  /** Population stability index over the shared bins. */
  psi: z.number(),
  level: DriftLevel,
  test: DriftTest,
  bins: z.array(DriftBin),
  missing: z.object({ reference: Share, current: Share }),
  /** Numbers: means of the non-missing values. */
  mean: z.object({ reference: z.number().nullable(), current: z.number().nullable() }).optional(),
  /** Numbers: shares of today's values outside the training data's range. */
  out_of_range: z
    .object({ min: z.number(), max: z.number(), below: Share, above: Share })
    .optional(),
  /** Categories: today's rows whose value training never saw. */
  new_categories: z
    .object({
      rows: z.number().int(),
      share: Share,
      /**
       * Distinct never-seen values found: in the sample of today's data (DuckDB sources count
       * every row but name values from the sample), or in every row (integrations).
       */
      distinct: z.number().int(),
      /** The most frequent of them (at most 10). */
      values: z.array(z.string()),
    })
    .optional(),
});
export type DriftColumn = z.infer<typeof DriftColumn>;

/** The predictions on the reference sample against those on today's sample. */
export const DriftPredictions = z.object({
  kind: z.enum(['number', 'category']),
  psi: z.number(),
  level: DriftLevel,
  test: DriftTest,
  bins: z.array(DriftBin),
  mean: z.object({ reference: z.number().nullable(), current: z.number().nullable() }).optional(),
});
export type DriftPredictions = z.infer<typeof DriftPredictions>;

export const DriftVerdict = z.enum(['stable', 'watch', 'retrain']);
export type DriftVerdict = z.infer<typeof DriftVerdict>;

export const DriftReport = z.object({
  project: z.string(),
  model: z.string(),
  version: z.number().int(),
  /** Today's data: the query and the database it ran in. */
  query: z.string(),
  db: z.string(),
  /** ISO timestamp of the computation. */
  computed_at: z.string(),
  /**
   * The reference: the training sample kept with the version (`kept`), or, for versions trained
   * before samples were kept, a sample of its FROM query's rows as they are now (`query`).
   */
  reference_source: z.enum(['kept', 'query']),
  rows: z.object({
    /** Rows of the reference sample. */
    reference: z.number().int(),
    /** Rows of today's data (all counted for the bins). */
    current: z.number().int(),
    /** Rows of today's data sampled for the KS tests and the predictions. */
    current_sample: z.number().int(),
  }),
  columns: z.array(DriftColumn),
  /** Inputs not compared, with why (dates move with time; free text has no bins). */
  skipped: z.array(z.object({ column: z.string(), reason: z.string() })),
  predictions: DriftPredictions.nullable(),
  summary: z.object({
    inputs: z.number().int(),
    drifted: z.number().int(),
    /** Share of the model's importance carried by drifted inputs. */
    drifted_importance: Share,
    verdict: DriftVerdict,
    /** One line: "3 of 8 inputs drifted, covering 61% of importance: retrain". */
    sentence: z.string(),
  }),
  thresholds: DriftThresholds,
});
export type DriftReport = z.infer<typeof DriftReport>;

// ---- feature effects -------------------------------------------------------------------------

/** GET .../effects?column=&class=: partial dependence of one input (or the top inputs). */
export const EffectsQuery = z.object({
  column: z.string().min(1).optional().describe('One input; none: the most important ones'),
  class: z
    .string()
    .optional()
    .describe('Classifiers: the class whose probability is averaged (default: the last class)'),
  top: z.coerce
    .number()
    .int()
    .min(1)
    .max(50)
    .optional()
    .describe('How many inputs without `column` (default 5)'),
});
export type EffectsQuery = z.infer<typeof EffectsQuery>;

export const EffectCurve = z.object({
  column: z.string(),
  kind: z.enum(['number', 'category']),
  importance: Share,
  /** The input's values the model was evaluated at (numbers ascending; categories by frequency). */
  grid: z.array(Label),
  /** Partial dependence: the average prediction (or class probability) at each grid value. */
  average: z.array(z.number()),
  /** Individual conditional expectation: one line per sampled row, aligned with `grid`. */
  ice: z.array(z.array(z.number())),
  /** The data under the axis: how many sample rows fall at each grid value (bins between grid points for numbers). */
  distribution: z.array(z.object({ label: z.string(), count: z.number().int() })),
  /** Largest minus smallest of `average`: how far this input moves the prediction on average. */
  range: z.number(),
});
export type EffectCurve = z.infer<typeof EffectCurve>;

export const EffectsReport = z.object({
  project: z.string(),
  model: z.string(),
  version: z.number().int(),
  task: z.enum(['regression', 'binary', 'multiclass', 'timeseries']),
  /** What the y axis is: the target's name, or `P(<target> = <class>)`. */
  output: z.string(),
  class: Label.optional(),
  /** Classifiers: every class `class` may name (the class picker's choices). */
  classes: z.array(Label).optional(),
  /** Rows the averages are over (a sample of the training data kept with the version). */
  rows: z.number().int(),
  curves: z.array(EffectCurve),
  /** Inputs without a curve, with why (and the whole model for forecasters). */
  skipped: z.array(z.object({ column: z.string(), reason: z.string() })),
});
export type EffectsReport = z.infer<typeof EffectsReport>;

// ---- version diff ----------------------------------------------------------------------------

/** POST .../diff: compare this model (version in the path) with another one on the same rows. */
export const DiffRequest = z.object({
  against: z
    .string()
    .min(1)
    .optional()
    .describe(
      'The other side: `<version>` of the same model, or `<model>[.<version>]` of the same project; default: the previous version',
    ),
  query: z
    .string()
    .trim()
    .min(1)
    .max(100_000)
    .optional()
    .describe('The rows to compare on (default: the held-out rows kept with this version)'),
  db: z.string().min(1).optional(),
  limit: z.number().int().min(1).max(1000).optional().describe('Rows listed (default 50)'),
});
export type DiffRequest = z.infer<typeof DiffRequest>;

const DiffSide = z.object({ model: z.string(), version: z.number().int() });

export const DiffRow = z.object({
  /** Position of the row among the compared rows. */
  row: z.number().int(),
  inputs: z.record(z.string(), z.unknown()),
  before: Label,
  after: Label,
  /**
   * Regression: after - before, in the target's units. Classifiers: the change of the probability
   * of the class `after` predicts (positive: the new version is surer of it).
   */
  change: z.number(),
  /** Classifiers: whether the class differs. */
  flipped: z.boolean().optional(),
  /** The inputs whose contributions moved most on this row (after - before, signed). */
  moved: z.array(z.object({ column: z.string(), change: z.number() })),
});
export type DiffRow = z.infer<typeof DiffRow>;

export const DiffReport = z.object({
  project: z.string(),
  before: DiffSide,
  after: DiffSide,
  task: z.enum(['regression', 'binary', 'multiclass']),
  rows: z.object({
    compared: z.number().int(),
    /** Rows whose class flipped (classifiers) or whose prediction moved by more than `threshold` (regression). */
    changed: z.number().int(),
  }),
  /** Regression: a change counts from this size (a tenth of the target's spread, in its units). */
  threshold: z.number().nullable(),
  /**
   * Where the rows came from: the held-out rows kept with `after`, a sample of its training data
   * (versions trained before held-out rows were kept), or a query.
   */
  source: z.object({
    kind: z.enum(['held-out', 'training-sample', 'query']),
    query: z.string().nullable(),
  }),
  mean_change: z.number(),
  mean_abs_change: z.number(),
  /** The changed rows, largest change first (at most `limit`). */
  changed_rows: z.array(DiffRow),
  /** Per input, the mean contribution change on the changed rows (signed), largest |change| first. */
  moved_inputs: z.array(
    z.object({
      column: z.string(),
      mean_change: z.number(),
      mean_abs_change: z.number(),
      /** Mean |contribution| of the input on the changed rows, before and after: how much it counts. */
      weight_before: z.number(),
      weight_after: z.number(),
    }),
  ),
  /** Where changed rows concentrate: a value or range of one input. */
  segment: z
    .object({
      column: z.string(),
      label: z.string(),
      share_of_changed: Share,
      share_of_rows: Share,
    })
    .nullable(),
  /** One line: "v3 flips 4.2% of classes, mostly where Age is 40 – 50, where Balance now counts more". */
  summary: z.string(),
});
export type DiffReport = z.infer<typeof DiffReport>;
