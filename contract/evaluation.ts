/**
 * Questioning a model (issue 26, docs/evaluation.md): the evaluation views of a complete version,
 * computed from the evidence it kept at training (held-out rows with their predictions, the
 * candidates). Each is served under /api/projects/{project}/models/{model}/evaluation/..., shown on
 * the model page, in the model card, and (flattened) by SQL `DESCRIBE m.<view>`.
 */
import { z } from 'zod';
import { ModelTask, ModelWarning } from './models';

const Label = z.union([z.string(), z.number(), z.boolean()]);
const Num = z.number().nullable().describe('null where the value does not exist (no rows)');

/** Whether a view applies to this model, and why not. */
export const Applicability = z.object({
  applies: z.boolean(),
  reason: z.string().nullable(),
});

export const EvaluationColumn = z.object({
  name: z.string(),
  /** An input of the model (false: kept with the rows, e.g. an identifier the model set aside). */
  in_model: z.boolean(),
  kind: z.enum(['number', 'category', 'text']),
});

/** The saved decision of a binary classifier (`USING threshold`), null when none is saved. */
export const SavedThreshold = z.object({
  threshold: z.number(),
  positive: Label,
  payoff: z.object({ tp: z.number(), fp: z.number(), tn: z.number(), fn: z.number() }).nullable(),
  currency: z.string().nullable(),
});

/** GET .../evaluation: what can be asked of this version. */
export const EvaluationSummary = z.object({
  /** False for versions without evidence (trained before it existed, finetuned): `reason` says so. */
  available: z.boolean(),
  reason: z.string().nullable(),
  version: z.number().int(),
  task: z.union([ModelTask, z.literal('forecast')]),
  target: z.string(),
  classes: z.array(Label).nullable(),
  /** The class a threshold flags (binary: the saved one, else the rarer class). */
  positive: Label.nullable(),
  /** Regression: the promised interval coverage. */
  level: z.number().nullable(),
  held_out: z
    .object({
      rows: z.number().int(),
      total: z.number().int(),
      validation: z.enum(['split', 'cross-fitted', 'time-split']),
      sample: z.enum(['all', 'stratified', 'random']),
    })
    .nullable(),
  columns: z.array(EvaluationColumn),
  views: z.object({
    leaderboard: Applicability,
    threshold: Applicability,
    calibration: Applicability,
    intervals: Applicability,
    slices: Applicability,
    groups: Applicability,
  }),
  saved: SavedThreshold.nullable(),
});
export type EvaluationSummary = z.infer<typeof EvaluationSummary>;

export const LeaderboardCandidate = z.object({
  name: z.string(),
  kind: z.string(),
  /** The model's metric on held-out rows (`score.name` as in DESCRIBE accuracies). */
  score: z.object({ name: z.string(), value: z.number() }),
  other: z.object({ name: z.string(), value: z.number() }).nullable(),
  fit_seconds: z.number(),
  predict_rows_per_second: z.number().nullable(),
  size_bytes: z.number().nullable(),
  selected: z.boolean(),
  /** `RETRAIN ... USING model = '<using>'` makes it serve (null: it cannot be chosen). */
  using: z.string().nullable(),
});

/** GET .../evaluation/leaderboard */
export const Leaderboard = z.object({
  version: z.number().int(),
  candidates: z.array(LeaderboardCandidate),
  /** The model's warnings: anything that ranks models carries them. */
  warnings: z.array(ModelWarning),
});
export type Leaderboard = z.infer<typeof Leaderboard>;

/** POST .../evaluation/serve: train a new version served by another candidate. */
export const ServeRequest = z.object({
  candidate: z.string().min(1).describe("A candidate's `using` value: 'gbm', 'linear', 'ensemble'"),
});

export const ThresholdCountsSchema = z.object({
  steps: z.number().int(),
  positives: z.array(z.number()),
  negatives: z.array(z.number()),
});

/** GET .../evaluation/threshold?positive= */
export const ThresholdView = z.object({
  positive: Label,
  negative: Label.nullable().describe('null for multiclass (one-vs-rest: every other class)'),
  rows: z.number().int(),
  /** Held-out counts per probability step: the confusion matrix at any threshold (contract/threshold.ts). */
  table: ThresholdCountsSchema,
  roc: z.object({ fpr: z.array(z.number()), tpr: z.array(z.number()), auc: Num }),
  pr: z.object({
    precision: z.array(z.number()),
    recall: z.array(z.number()),
    average_precision: Num,
  }),
  gains: z.array(z.object({ share: z.number(), gain: z.number(), lift: z.number() })),
  /** Multiclass: each class against the rest. */
  per_class: z.array(
    z.object({ class: Label, rows: z.number().int(), auc: Num, average_precision: Num }),
  ),
  /** The threshold the model decides with now, on the positive class's probability (binary). */
  decision: z
    .object({
      rule: z.enum(['balanced', 'argmax', 'threshold']),
      threshold: z.number(),
    })
    .nullable(),
  /** Whether a threshold can be saved (binary classifiers) and why not. */
  savable: Applicability,
  saved: SavedThreshold.nullable(),
});
export type ThresholdView = z.infer<typeof ThresholdView>;

/** POST .../evaluation/threshold: save a threshold (a new version, undoable). */
export const SaveThresholdRequest = z.object({
  threshold: z.number().gt(0).lt(1),
  positive: Label.optional(),
  payoff: SavedThreshold.shape.payoff.optional(),
  currency: z.string().max(12).optional(),
});

/** GET .../evaluation/calibration */
export const CalibrationView = z.object({
  /** binary: P(positive) against its frequency; multiclass: the predicted class's probability against being right. */
  kind: z.enum(['positive-class', 'top-label']),
  positive: Label.nullable(),
  bins: z.array(
    z.object({
      from: z.number(),
      to: z.number(),
      rows: z.number().int(),
      predicted: z.number(),
      observed: z.number(),
    }),
  ),
  brier: Num,
  ece: Num,
});
export type CalibrationView = z.infer<typeof CalibrationView>;

export const CoverageCell = z.object({
  label: z.string(),
  rows: z.number().int(),
  coverage: Num,
  mean_width: Num,
  above: z.number().int(),
  below: z.number().int(),
  where: z.string().nullable(),
});

/** GET .../evaluation/intervals?column= */
export const IntervalsView = z.object({
  level: z.number(),
  overall: CoverageCell,
  by_decile: z.array(CoverageCell),
  /** Time series: per forecast step. */
  by_step: z.array(CoverageCell).nullable(),
  by_segment: z.object({ column: z.string(), cells: z.array(CoverageCell) }).nullable(),
  /** Held-out rows outside their interval, the farthest first (at most 50). */
  outside: z.object({
    total: z.number().int(),
    columns: z.array(z.string()),
    rows: z.array(
      z.object({
        actual: z.number(),
        predicted: z.number(),
        lower: z.number(),
        upper: z.number(),
        values: z.array(z.union([Label, z.null()])),
      }),
    ),
  }),
});

export const SliceNode: z.ZodType<SliceNode> = z.lazy(() =>
  z.object({
    where: z.string(),
    rows: z.number().int(),
    error: Num,
    share: z.number(),
    children: z.array(SliceNode).optional(),
  }),
);
export interface SliceNode {
  where: string;
  rows: number;
  error: number | null;
  share: number;
  children?: SliceNode[];
}

export const SliceRow = z.object({
  where: z.string(),
  rows: z.number().int(),
  error: Num,
  share: z.number(),
  /** A query over the model's training source with this WHERE, to open in the editor. */
  sql: z.string(),
});

/** GET .../evaluation/slices (and ?where= to judge one WHERE) */
export const SlicesView = z.object({
  metric: z.enum(['error_rate', 'mean_absolute_error']),
  overall: Num,
  rows: z.number().int(),
  tree: SliceNode,
  /** The tree's leaves, highest error first. */
  slices: z.array(SliceRow),
  /** The WHERE asked with ?where=, judged on the same rows. */
  asked: SliceRow.nullable(),
});
export type SlicesView = z.infer<typeof SlicesView>;

export const GroupRow = z.object({
  label: z.string(),
  where: z.string(),
  rows: z.number().int(),
  small: z.string().nullable().describe('Why the group is too small to judge, or null'),
  accuracy: Num.optional(),
  tpr: Num.optional(),
  fpr: Num.optional(),
  selection_rate: Num.optional(),
  selection_ratio: Num.optional(),
  tpr_ratio: Num.optional(),
  mae: Num.optional(),
  bias: Num.optional(),
  mae_ratio: Num.optional(),
});

/** GET .../evaluation/groups?column=&threshold=&positive= */
export const GroupsView = z.object({
  column: z.string(),
  in_model: z.boolean(),
  task: z.union([ModelTask, z.literal('forecast')]),
  positive: Label.nullable(),
  threshold: z.number().nullable(),
  groups: z.array(GroupRow),
  four_fifths: z.object({
    applies: z.boolean(),
    /** Lowest selection-rate ratio among groups large enough to judge. */
    min_ratio: Num,
    flagged: z.array(z.string()),
  }),
  warnings: z.array(z.string()),
});
export type GroupsView = z.infer<typeof GroupsView>;

export const EvaluationQuery = z.object({
  positive: z.string().optional(),
  column: z.string().optional(),
  threshold: z.coerce.number().gt(0).lt(1).optional(),
  where: z.string().max(4000).optional(),
  depth: z.coerce.number().int().min(1).max(4).optional(),
});
