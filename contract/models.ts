/**
 * Models of a project (docs/DESIGN.md 3.2-3.4): listing and lookup, predict and describe. The server
 * validates path parameters and bodies with these and documents them in GET /api/openapi.json; the
 * playground parses the responses with them.
 */
import { z } from 'zod';
import { ProjectPathParams } from './catalog';

/** Path parameters of /api/projects/{project}/models/{model}/... */
export const ModelPathParams = ProjectPathParams.extend({
  model: z
    .string()
    .min(1, 'model name is empty')
    .describe('Name of the model, optionally with a version suffix: home_rentals_model.2'),
});
export type ModelPathParams = z.infer<typeof ModelPathParams>;

export const ModelStatus = z.enum(['generating', 'training', 'complete', 'error']);
export type ModelStatus = z.infer<typeof ModelStatus>;

/**
 * One model version as the REST model endpoints return it: the columns of `<project>.models`
 * in lower case, except that SELECT_DATA_QUERY and TRAINING_OPTIONS carry the names MindsDB's REST
 * API uses for them (`fetch_data_query`, `problem_definition`), so clients of either work; plus
 * MindsDB's `id`, `update` and `engine_name`.
 */
export const ModelInfo = z
  .object({
    /**
     * Identifies this version of this model, like MindsDB's record id: stable across restarts,
     * never reused by a model created later under the same name.
     */
    id: z.number().int(),
    name: z.string(),
    project: z.string(),
    engine: z.string(),
    version: z.number().int(),
    active: z.boolean(),
    status: ModelStatus,
    /** Primary accuracy (r2_score or balanced_accuracy_score) once complete. */
    accuracy: z.number().nullable(),
    /**
     * The name of the metric `accuracy` holds (`r2_score`, `balanced_accuracy_score`), so it can be
     * labelled by its name; null until the model is complete. This instance's extension: absent
     * from a MindsDB server.
     */
    accuracy_metric: z.string().nullable().optional(),
    /** The target column. */
    predict: z.string(),
    update_status: z.string(),
    /** MindsDB's name for `update_status` (`up_to_date`). */
    update: z.string(),
    /** The ML engine's name (MindsDB: the ML integration, here always the engine itself). */
    engine_name: z.string(),
    mindsdb_version: z.string(),
    error: z.string().nullable(),
    fetch_data_query: z.string(),
    problem_definition: z.record(z.string(), z.unknown()),
    current_training_phase: z.number().int().nullable(),
    total_training_phases: z.number().int().nullable(),
    training_phase_name: z.string().nullable(),
    tag: z.string().nullable(),
    /** `YYYY-MM-DD HH:MM:SS.fff` (UTC), as in the models table. */
    created_at: z.string(),
    /** Seconds from the start of training to complete/error; null while it runs. */
    training_time: z.number().nullable(),
  })
  .loose();
export type ModelInfo = z.infer<typeof ModelInfo>;

/** GET /api/projects/{project}/models: every version of every model (MindsDB lists versions too). */
export const ModelList = z.array(ModelInfo);
export type ModelList = z.infer<typeof ModelList>;

/** GET /api/projects/{project}/models/{model}: the active (or named) version and all versions. */
export const ModelDetail = ModelInfo.extend({ versions: z.array(ModelInfo) });
export type ModelDetail = z.infer<typeof ModelDetail>;

const jsonTypeName = (v: unknown) =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'an array'
      : typeof v === 'object'
        ? 'an object'
        : `a ${typeof v}`;

/**
 * One input row of a prediction: column name -> value. Values are cast to the types the model
 * was trained on (`"1000"` -> 1000); missing inputs are null. Checked as an object and passed on
 * as it is: a record schema copied every row key by key (a 10k-row body of 64 inputs: ~100 ms),
 * and the values are judged where they are cast. Documented as the record it is.
 */
const PredictInputRow = z
  .custom<Record<string, unknown>>(
    (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
    {
      error: (iss) => {
        const i = iss.path?.at(-1);
        const row = typeof i === 'number' ? `row ${i + 1}` : 'a row';
        return `${row} is ${jsonTypeName(iss.input)}, not an object of column values like {"sqft": 823}`;
      },
    },
  )
  .meta({ type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} });
/** The spec's predict body: a JSON array of row objects. An empty array predicts nothing (200 []). */
export const PredictRows = z.array(PredictInputRow, {
  error: (iss) => `must be an array of row objects, got ${jsonTypeName(iss.input)}`,
});
/**
 * Options of a REST prediction (`params` of the envelope body). Other keys are accepted for
 * compatibility with the real service and ignored.
 */
export const PredictParams = z
  .object(
    {
      explain: z
        .boolean({
          error: (iss) => `params.explain must be true or false, got ${jsonTypeName(iss.input)}`,
        })
        .optional()
        .describe(
          'true: each `<target>_explain` also carries base_value, feature_contributions, explained_value and explained_class (see PredictionExplain)',
        ),
    },
    { error: (iss) => `params must be an object, got ${jsonTypeName(iss.input)}` },
  )
  .catchall(z.unknown());
export type PredictParams = z.infer<typeof PredictParams>;

/**
 * The real system's predict body: `{"data": [...rows] | "<the rows as a JSON string>", "params"}`.
 * `params.horizon` sets the steps a time-series model forecasts (its rows are the history; the
 * answer is `horizon` rows per group); `params.explain` asks for per-row feature contributions;
 * other params are accepted and ignored.
 */
const PredictEnvelope = z.object({
  data: z.union([PredictRows, z.string()], {
    error: (iss) =>
      iss.input === undefined
        ? 'data is required: {"data": [{"column": value, ...}, ...]}'
        : `data must be an array of row objects or a JSON string of one, got ${jsonTypeName(iss.input)}`,
  }),
  params: PredictParams.optional(),
});
export const PredictRequest = z.union([PredictRows, PredictEnvelope], {
  error: (iss) =>
    `The body must be a JSON array of row objects ([{"sqft": 823}]) or {"data": [...], "params": {...}}, got ${jsonTypeName(iss.input)}`,
});
export type PredictRequest = z.infer<typeof PredictRequest>;

/**
 * One predicted row (docs/DESIGN.md 3.2). The model's input columns and `<target>`, `<target>_confidence`,
 * `<target>_min`/`_max` (numeric targets), `<target>_anomaly`, `<target>_original` and
 * `<target>_explain` depend on the model, so they are open keys here; see PredictionExplain for
 * the explain string.
 */
export const PredictionRow = z
  .object({
    /**
     * MindsDB's name for the row identifier (the row's index in the request here). This instance
     * sends both keys with the same value; a MindsDB server sends only this one.
     */
    __mindsdb_row_id: z.number().int().nullable().optional(),
    /** The spec's neutral name for `__mindsdb_row_id`. */
    __service_row_id: z.number().int().nullable().optional(),
    select_data_query: z.null(),
    when_data: z.null(),
  })
  .catchall(z.unknown());
export type PredictionRow = z.infer<typeof PredictionRow>;
export const PredictResponse = z.array(PredictionRow);
export type PredictResponse = z.infer<typeof PredictResponse>;

const Label = z.union([z.number(), z.string(), z.boolean(), z.null()]);

/**
 * The object `<target>_explain` encodes as a JSON string. Classifiers add `probability_class_<c>`.
 *
 * When explanations were asked for (REST predict with `params: {"explain": true}`; SQL whenever
 * the query reads the `_explain` column: by name, through `m.*` or `*`) it also carries, as this
 * instance's extension (a MindsDB server sends none of them):
 * `base_value + sum(feature_contributions) = explained_value`. For regression `explained_value`
 * is the prediction; for classifiers it is the raw score of `explained_class`, the predicted
 * class (binary: the logit, log-odds, of that class; multiclass: that class's softmax input).
 */
export const PredictionExplain = z
  .object({
    predicted_value: Label,
    confidence: z.number().nullable(),
    anomaly: z.boolean().nullable(),
    truth: Label,
    confidence_lower_bound: z.number().nullable(),
    confidence_upper_bound: z.number().nullable(),
    /** The model's average output (regression) or average raw score of `explained_class`. */
    base_value: z.number().optional(),
    /**
     * Each model input's push away from `base_value` (exact Shapley values: TreeSHAP on the trees,
     * weight x input on the linear part). Every input has a key, 0 when it did not matter.
     */
    feature_contributions: z.record(z.string(), z.number()).optional(),
    /** What the contributions add up to: the prediction, or the class's raw score. */
    explained_value: z.number().optional(),
    /** Classifiers: the class whose raw score is explained (the predicted one); null for regression. */
    explained_class: Label.optional(),
  })
  .catchall(z.number().nullable());
export type PredictionExplain = z.infer<typeof PredictionExplain>;

const DESCRIBE_ATTRIBUTE_NAMES = ['info', 'features', 'model', 'progress'] as const;

/** GET .../describe body (spec) and query string (browsers cannot send a GET body). */
export const DescribeRequest = z
  .object({
    attribute: z
      .string({ error: (iss) => `attribute must be a string, got ${jsonTypeName(iss.input)}` })
      .optional()
      .describe(
        `What to describe: ${DESCRIBE_ATTRIBUTE_NAMES.join(', ')}; none for the summary row`,
      ),
  })
  .loose();
export type DescribeRequest = z.infer<typeof DescribeRequest>;

/**
 * A time-series model's part of DESCRIBE: its clauses, the inferred frequency, the selected
 * candidate and, per forecast step, MASE against seasonal-naive, MAE and interval coverage on the
 * time-ordered validation split.
 */
export const DescribeTimeseries = z
  .object({
    order_by: z.string(),
    group_by: z.array(z.string()),
    window: z.number().int(),
    horizon: z.number().int(),
    frequency: z.string(),
    selected: z.string(),
    horizon_accuracy: z.array(
      // Null where no validation origin reaches the step (a short validation period).
      z.object({
        step: z.number(),
        mase: z.number().nullable(),
        mae: z.number().nullable(),
        coverage: z.number().nullable(),
      }),
    ),
    /**
     * This instance's extension (MindsDB has none, older models an empty list): the intervals'
     * achieved coverage per nominal level (0.5, 0.8, 0.9, 0.95 and the model's), pooled and per
     * forecast step, counted out of fold, or in sample when `outOfFold` is false (a model with no
     * earlier validation period to hold out; docs/forecasting.md, Intervals per level).
     */
    coverage: z
      .array(
        z
          .object({
            level: z.number(),
            coverage: z.number(),
            steps: z.array(z.number().nullable()).optional(),
            quantile: z.number().optional(),
            outOfFold: z.boolean().optional(),
          })
          .loose(),
      )
      .optional(),
  })
  .loose();
export type DescribeTimeseries = z.infer<typeof DescribeTimeseries>;
/** The task of a tabular model. */
export const ModelTask = z.enum(['regression', 'binary', 'multiclass']);
export type ModelTask = z.infer<typeof ModelTask>;

/** Regression metrics in the target's units, beside those of always predicting the mean. */
export const RegressionMetrics = z.object({
  /** Mean absolute error, in the target's units. */
  mae: z.number(),
  /** Root mean squared error, in the target's units. */
  rmse: z.number(),
  r2: z.number(),
  /** The same metrics for a model that always predicts the training mean (r2 about 0). */
  baseline: z.object({
    kind: z.literal('mean'),
    value: z.number().optional(),
    mae: z.number(),
    rmse: z.number(),
    r2: z.number(),
  }),
  /** Predicted vs actual for at most 500 validation rows (a seeded sample), for a scatter. */
  sample: z.object({ actual: z.array(z.number()), predicted: z.array(z.number()) }),
});
export type RegressionMetrics = z.infer<typeof RegressionMetrics>;

/** Classifier metrics beside those of always predicting the most frequent class. */
export const ClassificationMetrics = z.object({
  accuracy: z.number(),
  /** Mean recall over the classes (what the model is tuned for by default). */
  balanced_accuracy: z.number(),
  baseline: z.object({
    kind: z.literal('majority'),
    /** The most frequent class in the training data. */
    class: Label,
    accuracy: z.number(),
    balanced_accuracy: z.number(),
  }),
  /** Class labels; the index order of `confusion`. */
  classes: z.array(Label),
  /** Counts: rows = actual class, columns = predicted class. */
  confusion: z.array(z.array(z.number().int())),
  per_class: z.array(
    z.object({
      class: Label,
      /** Of the rows predicted as this class, the share that were; null when none was predicted. */
      precision: z.number().nullable(),
      /** Of the rows of this class, the share predicted as it; null when there were none. */
      recall: z.number().nullable(),
      /** Validation rows of this class. */
      support: z.number().int(),
    }),
  ),
  /**
   * Reported confidence vs how often the prediction was right: the predictions' confidences in
   * 10 equal bins (0-0.1, ..., 0.9-1); each non-empty bin's mean confidence, observed accuracy
   * and row count. A calibrated model has observed close to confidence.
   */
  calibration: z.array(
    z.object({ confidence: z.number(), observed: z.number(), count: z.number().int() }),
  ),
});
export type ClassificationMetrics = z.infer<typeof ClassificationMetrics>;

/**
 * How good the model is, computed at training time on validation rows (out of fold when the
 * engine cross-fits small data): rows no model that scored them had trained on. This instance's
 * extension of describe; null for models trained before it existed and for time-series models.
 */
export const ModelMetrics = z.object({
  task: ModelTask,
  target: z.string(),
  rows: z.object({
    /** Rows with a target value the model was trained on. */
    train: z.number().int(),
    /** Rows the metrics were computed on. */
    validation: z.number().int(),
  }),
  /** How validation rows were chosen: a held-out split, or every row out of fold. */
  validation: z.enum(['split', 'cross-fitted']).optional(),
  /** The metric in `accuracies` and the models list (`r2_score`, `balanced_accuracy_score`). */
  primary: z.object({ name: z.string(), label: z.string(), value: z.number() }),
  /** Present for regression. */
  regression: RegressionMetrics.nullable().optional(),
  /** Present for classifiers. */
  classification: ClassificationMetrics.nullable().optional(),
  /**
   * A binary classifier deciding with a saved threshold (`USING threshold`): it predicts
   * `positive` when that class's probability is at least `threshold`, and the metrics above are
   * under that rule.
   */
  threshold: z
    .object({ value: z.number(), positive: z.union([z.string(), z.number(), z.boolean()]) })
    .optional(),
});
export type ModelMetrics = z.infer<typeof ModelMetrics>;

/**
 * Something a careful data scientist would point out about a model, in plain words. `kind` is
 * one of `dominant_input`, `identifier_like`, `too_few_rows`, `rare_class`, `mostly_missing`,
 * `weak_model`, `narrow_intervals` (thresholds in the README), or a kind added later: show
 * `message` for any kind.
 */
export const ModelWarning = z.object({
  kind: z.string(),
  /** The input column it is about, if any. */
  column: z.string().nullable(),
  message: z.string(),
});
export type ModelWarning = z.infer<typeof ModelWarning>;

/** No attribute: the spec's row. `info` is the same without `model`. */
/** How a model's training rows were drawn from a source larger than the row budget. */
export const TrainingDataInfo = z.object({
  rows_used: z.number(),
  rows_available: z.number(),
  budget: z.number(),
  /** `bernoulli`: every row at one rate; `stratified`: each class at its own rate. */
  method: z.enum(['bernoulli', 'stratified']),
  drawn_in: z.enum(['postgres', 'duckdb']),
  rate: z.number().optional(),
  classes: z
    .array(
      z.object({
        value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
        rows: z.number(),
        rate: z.number(),
      }),
    )
    .optional(),
  /** The same in one sentence. */
  summary: z.string(),
});
export type TrainingDataInfo = z.infer<typeof TrainingDataInfo>;

export const DescribeSummaryRow = z.object({
  accuracies: z.record(z.string(), z.number().nullable()),
  column_importances: z.record(z.string(), z.number().nullable()),
  inputs: z.array(z.string()),
  outputs: z.array(z.string()),
  /** Pipeline stages joined with ` --> ` (absent for `info`). */
  model: z.string().optional(),
  /** Time-series models only (this instance; a MindsDB server does not send it). */
  timeseries: DescribeTimeseries.optional(),
  /** This instance's extension (absent from a MindsDB server); null for older models. */
  metrics: ModelMetrics.nullable().optional(),
  /** This instance's extension (absent from a MindsDB server). */
  warnings: z.array(ModelWarning).optional(),
  /** This instance's extension: the sample a model trained on (null: every row; see docs/scale.md). */
  training_data: TrainingDataInfo.nullable().optional(),
});
export const DescribeFeatureRow = z.object({
  column: z.string(),
  type: z.string(),
  encoder: z.string().nullable(),
  role: z.string(),
});
export const DescribeCandidateRow = z
  .object({
    name: z.string(),
    performance: z.number().nullable(),
    training_time: z.number().nullable(),
    selected: z.boolean(),
    accuracy_functions: z.array(z.string()),
  })
  .loose();
export const DescribeProgressRow = z.object({
  current: z.number().int().nullable(),
  total: z.number().int().nullable(),
  name: z.string().nullable(),
});
export const DescribeResponse = z.union([
  z.array(DescribeSummaryRow),
  z.array(DescribeFeatureRow),
  z.array(DescribeCandidateRow),
  z.array(DescribeProgressRow),
]);
export type DescribeSummaryRow = z.infer<typeof DescribeSummaryRow>;
export type DescribeFeatureRow = z.infer<typeof DescribeFeatureRow>;
export type DescribeCandidateRow = z.infer<typeof DescribeCandidateRow>;
export type DescribeProgressRow = z.infer<typeof DescribeProgressRow>;
export type DescribeResponse = z.infer<typeof DescribeResponse>;

/**
 * GET /api/projects/{project}/models/{model}/card: query string. The card is one self-contained
 * HTML page (inline CSS and SVG, no script, no external URL): what the model predicts and from
 * which data, its metrics against the baseline in plain words, input importances, warnings,
 * versions, training time and date. This instance's extension.
 */
export const ModelCardQuery = z
  .object({
    download: z
      .enum(['1', '0', 'true', 'false'], {
        error: (iss) => `download must be 1 or 0, got ${JSON.stringify(iss.input)}`,
      })
      .optional()
      .describe(
        '1: answer with `Content-Disposition: attachment; filename="<project>.<model>.v<N>.html"`',
      ),
    groups: z
      .string()
      .max(1000)
      .optional()
      .describe(
        'Columns the "For whom" section groups by, comma-separated (default: the text-valued inputs with 2 to 8 values)',
      ),
    threshold: z.coerce
      .number()
      .gt(0)
      .lt(1)
      .optional()
      .describe('A threshold the presenter is looking at (not saved): the card shows it too'),
  })
  .loose();
export type ModelCardQuery = z.infer<typeof ModelCardQuery>;

/** An exported model: `application/octet-stream`, an ONNX ModelProto (docs/scale.md). */
export const ModelOnnxFile = z
  .string()
  .meta({ format: 'binary' })
  .describe('An ONNX model (protobuf bytes)');

/** The model card: `text/html; charset=utf-8`. */
export const ModelCardHtml = z.string().describe('A self-contained HTML document');
