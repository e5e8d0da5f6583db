/** Calibration: a reliability diagram (predicted probability against how often it happened). */
import { useQuery } from '@tanstack/react-query';
import type { CalibrationView } from '../../../../../contract/evaluation';
import { Card } from '../../../../components/ui/Card';
import { QueryState } from '../../../../components/ui/QueryState';
import { formatNumber, formatPercent } from '../../shared';
import { type EvaluationTarget, calibrationQuery } from '../api';
import { calibrationPoints } from './coverage-model';
import { EvalChart } from '../EvalChart';

export function CalibrationPanel({
  target,
  theme,
}: {
  target: EvaluationTarget;
  theme: 'light' | 'dark';
}) {
  const q = useQuery(calibrationQuery(target));
  return (
    <QueryState query={q} loading="Loading the calibration…" error="Could not load the calibration">
      {(v) => <Calibration v={v} theme={theme} />}
    </QueryState>
  );
}

function Calibration({ v, theme }: { v: CalibrationView; theme: 'light' | 'dark' }) {
  const what =
    v.kind === 'positive-class'
      ? `probability of '${String(v.positive)}'`
      : "predicted class's probability";
  const happened =
    v.kind === 'positive-class' ? `share that was '${String(v.positive)}'` : 'share right';
  return (
    <Card title="Can its probabilities be trusted?" label="Calibration">
      <p className="muted">
        Held-out rows grouped by the {what}: when the model says 70 %, it should happen 70 % of the
        time (the diagonal). Brier score {formatNumber(v.brier)}, expected calibration error{' '}
        {formatPercent(v.ece)}.
      </p>
      <EvalChart
        title="Reliability diagram"
        description={`Predicted ${what} against the ${happened}, per bin of held-out rows; the diagonal is perfect calibration`}
        x={{ label: `predicted ${what} (%)`, domain: [0, 1] }}
        y={{ label: `${happened} (%)`, domain: [0, 1] }}
        percentAxes
        series={[
          { name: 'this model', points: calibrationPoints(v) },
          {
            name: 'perfectly calibrated',
            points: [
              { x: 0, y: 0 },
              { x: 1, y: 1 },
            ],
            dashed: true,
          },
        ]}
        table={{
          caption: 'Calibration bins',
          head: ['Bin', 'Rows', 'Mean predicted', 'Observed'],
          rows: v.bins.map((b) => [
            `${formatPercent(b.from, 0)}–${formatPercent(b.to, 0)}`,
            b.rows,
            formatPercent(b.predicted),
            formatPercent(b.observed),
          ]),
        }}
        theme={theme}
      />
    </Card>
  );
}
