// A binary classifier deciding with a threshold (`USING threshold = 0.37`): it predicts the
// positive class when that class's calibrated probability is at least the threshold. Saving a
// threshold needs no training: the version's artifact and evidence are copied with the rule set,
// and the metrics people read are recomputed under it from the held-out rows.

import type { ModelArtifact } from '../api';
import { balancedAccuracyScore } from '../analysis/metrics';
import { classificationReport } from '../analysis/report';
import { AutoMLError } from '../errors';
import type { ModelEvidence } from './evidence';

type Label = string | number | boolean;

/** The class index a USING positive_class names (by its text), or -1. */
export function classIndexOf(labels: Label[], positive: Label): number {
  return labels.findIndex((l) => String(l) === String(positive));
}

/** The threshold rule's class for one row: `pos` when its probability reaches the threshold. */
export function thresholdClass(pPositive: number, pos: number, threshold: number): number {
  return pPositive >= threshold ? pos : 1 - pos;
}

/**
 * The artifact (and its evidence) deciding with `threshold` on `positive`'s probability. The
 * evidence's predictions and the description's metrics and accuracy follow the new rule.
 */
export function decideWithThreshold(
  artifact: ModelArtifact,
  evidence: ModelEvidence | null,
  change: { threshold: number; positive: Label },
): { artifact: ModelArtifact; evidence: ModelEvidence | null } {
  const labels = artifact.classes?.labels ?? [];
  if (artifact.task !== 'binary' || labels.length !== 2) {
    throw new AutoMLError(
      `USING threshold applies to binary classifiers; this model predicts ${artifact.task === 'regression' ? 'a number' : `one of ${labels.length} classes`}`,
    );
  }
  const { threshold } = change;
  if (!(threshold > 0 && threshold < 1))
    throw new AutoMLError(`USING threshold must be between 0 and 1 (exclusive), got ${threshold}`);
  const pos = classIndexOf(labels, change.positive);
  if (pos < 0) {
    throw new AutoMLError(
      `USING positive_class '${String(change.positive)}' is not a class of this model; its classes are: ${labels.map(String).join(', ')}`,
    );
  }
  const positive = labels[pos];
  const settings = { ...artifact.settings, threshold, positiveClass: String(positive) };
  const description = structuredClone(artifact.description);
  let nextEvidence: ModelEvidence | null = null;
  if (evidence) {
    const h = evidence.heldOut;
    const n = h.actual.length;
    const predicted = Float64Array.from({ length: n }, (_, i) =>
      thresholdClass(h.probabilities![i * 2 + pos], pos, threshold),
    );
    nextEvidence = {
      ...evidence,
      heldOut: { ...h, predicted },
      decision: { rule: 'threshold', positive: pos, threshold },
    };
    const c = description.metrics?.classification;
    if (description.metrics && c) {
      const confidence = Float64Array.from(predicted, (k, i) => h.probabilities![i * 2 + k]);
      const majority = c.baseline.class === labels[0] ? 0 : 1;
      const report = classificationReport({
        actual: h.actual,
        predicted,
        confidence,
        labels,
        majority,
      });
      const balanced = balancedAccuracyScore(h.actual, predicted, 2);
      description.metrics = {
        ...description.metrics,
        rows: { ...description.metrics.rows, validation: n },
        primary: { ...description.metrics.primary, value: report.balanced_accuracy },
        classification: report,
        threshold: { value: threshold, positive },
      };
      for (const k of Object.keys(description.accuracies))
        if (k === 'balanced_accuracy_score')
          description.accuracies[k] = Math.round(balanced * 1e6) / 1e6;
    }
  } else if (description.metrics) {
    description.metrics = { ...description.metrics, threshold: { value: threshold, positive } };
  }
  if (description.decision)
    description.decision = { ...description.decision, threshold: { value: threshold, positive } };
  return { artifact: { ...artifact, settings, description }, evidence: nextEvidence };
}
