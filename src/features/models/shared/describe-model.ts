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

const METRIC_LABELS: Record<string, string> = {
  r2_score: 'R² score',
  balanced_accuracy_score: 'Balanced accuracy',
  accuracy_score: 'Accuracy',
  f1_score: 'F1 score',
  mean_absolute_error: 'Mean absolute error',
  mean_squared_error: 'Mean squared error',
};

export function metricLabel(name: string): string {
  return METRIC_LABELS[name] ?? name.replace(/_/g, ' ');
}

/** How a model's `accuracy` is labelled: by its metric's name when known. */
export function accuracyLabel(metric: string | null | undefined, capital = false): string {
  return metric ? metricLabel(metric) : capital ? 'Accuracy' : 'accuracy';
}

export function formatMetric(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  return Math.abs(v) <= 1
    ? String(Number(v.toPrecision(5)))
    : v.toLocaleString('en-US', { maximumFractionDigits: 3 });
}
