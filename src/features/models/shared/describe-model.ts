/** Pure helpers of the Describe tab: importance order, accuracy labels, pipeline steps. */
export interface Importance {
  column: string;
  importance: number | null;
}

/** Most important first; unknown (null) importances last; ties by column name. */
export function sortImportances(
  importances: Record<string, number | null> | undefined,
): Importance[] {
  return Object.entries(importances ?? {})
    .map(([column, importance]) => ({
      column,
      importance: typeof importance === 'number' && Number.isFinite(importance) ? importance : null,
    }))
    .sort((a, b) => {
      if (a.importance === null || b.importance === null) {
        if (a.importance === b.importance) return a.column.localeCompare(b.column);
        return a.importance === null ? 1 : -1;
      }
      return b.importance - a.importance || a.column.localeCompare(b.column);
    });
}

/** The `model` summary (`A --> B --> C`) as steps. */
export function pipelineSteps(summary: string | undefined | null): string[] {
  if (!summary) return [];
  return summary
    .split(' --> ')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** One pipeline step split into its name and the detail in parentheses. */
export function stepParts(step: string): { name: string; detail: string | null } {
  const m = /^([^(]+)\((.*)\)$/.exec(step);
  return m ? { name: m[1].trim(), detail: m[2] } : { name: step, detail: null };
}

interface MetricWords {
  label: string;
  /** The scale in words, short enough to sit beside the value. */
  scale: string;
  higherIsBetter: boolean;
}

/** Every accuracy function a server reports, in words with its scale: no raw keys for people. */
const METRIC_WORDS: Record<string, MetricWords> = {
  r2_score: { label: 'R² score', scale: '1 is perfect', higherIsBetter: true },
  balanced_accuracy_score: {
    label: 'Balanced accuracy',
    scale: 'share right, each class counted alike; 1 is perfect',
    higherIsBetter: true,
  },
  accuracy_score: { label: 'Accuracy', scale: 'share right; 1 is perfect', higherIsBetter: true },
  f1_score: { label: 'F1 score', scale: '1 is perfect', higherIsBetter: true },
  mean_absolute_error: {
    label: 'Mean absolute error',
    scale: 'in the target’s units; 0 is perfect',
    higherIsBetter: false,
  },
  mean_squared_error: {
    label: 'Mean squared error',
    scale: 'in the target’s units squared; 0 is perfect',
    higherIsBetter: false,
  },
  bounded_ts_accuracy: {
    label: 'Forecast accuracy',
    scale: '0 to 1; 0.5 is as good as repeating last season',
    higherIsBetter: true,
  },
  mase: {
    label: 'Error vs repeating last season',
    scale: 'times that error; under 1 beats it',
    higherIsBetter: false,
  },
};

/** A metric's name in words ("R² score"); an unknown key at least loses its underscores. */
export function metricLabel(name: string): string {
  return METRIC_WORDS[name]?.label ?? name.replace(/_/g, ' ');
}

/** A metric's scale in words ("1 is perfect"), when known. */
export function metricScale(name: string | null | undefined): string | null {
  return (name && METRIC_WORDS[name]?.scale) || null;
}

/** Whether a higher value of the metric is better (null: not known). */
export function metricHigherIsBetter(name: string): boolean | null {
  return METRIC_WORDS[name]?.higherIsBetter ?? null;
}

/** A metric's value for a person: MASE as "0.42× the error of repeating last season". */
export function metricValueText(name: string | null | undefined, v: number | null | undefined) {
  if (name === 'mase' && v !== null && v !== undefined && Number.isFinite(v))
    return `${formatMetric(v)}× the error of repeating last season`;
  return formatMetric(v);
}

/** How a model's `accuracy` is labelled: by its metric's name when known. */
export function accuracyLabel(metric: string | null | undefined, capital = false): string {
  return metric ? metricLabel(metric) : capital ? 'Accuracy' : 'accuracy';
}

/** A model's accuracy as a phrase: "R² score 0.99939 (1 is perfect)". */
export function metricPhrase(metric: string | null | undefined, v: number | null | undefined) {
  const scale = metric !== 'mase' ? metricScale(metric) : null;
  return `${accuracyLabel(metric)} ${metricValueText(metric, v)}${scale ? ` (${scale})` : ''}`;
}

/**
 * A ratio in a table column (MASE against seasonal-naive, per forecast step): three decimals on
 * every row, so the column reads aligned and the rows compare at a glance ("0.111×", "0.151×").
 */
export function formatRatio(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  return `${v.toFixed(3)}×`;
}

export function formatMetric(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  return Math.abs(v) <= 1
    ? String(Number(v.toPrecision(5)))
    : v.toLocaleString('en-US', { maximumFractionDigits: 3 });
}
