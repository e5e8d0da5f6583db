/** The "Which inputs matter" card around an importances bar chart (Describe, Compare). */
import type { ReactNode } from 'react';
import { Card } from '../../../../components/ui/Card';

export function ImportancesCard({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Card
      title="Which inputs matter"
      label={label}
      actions={
        <span className="muted small">
          share of the prediction’s quality each input carries (permutation importance)
        </span>
      }
    >
      <figure className="m-chart">{children}</figure>
    </Card>
  );
}
