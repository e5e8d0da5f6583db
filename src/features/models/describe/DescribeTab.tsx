/**
 * Describe: column importances (sorted horizontal bars), accuracies, the features table, the
 * candidate models and the pipeline, from the describe endpoint (or SQL DESCRIBE); raw JSON too.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Bar, LabelList, Tooltip } from 'recharts';
import { usePresenting } from '../../../lib/use-presenting';
import {
  chartFont,
  ColumnBars,
  ImportancesCard,
  usePaperTheme,
  formatMetric,
  formatPercent,
  metricLabel,
  metricScale,
  metricValueText,
  pipelineSteps,
  sortImportances,
  stepParts,
  formatSeconds,
  type ModelTabProps,
} from '../shared';
import { describeQueryOptions } from '../api';
import { CHART_COLORS } from '../../../components/ui/grid-theme';
import { ModelQuality } from './ModelQuality';
import { TimeseriesCard } from './TimeseriesCard';
import { Card } from '../../../components/ui/Card';
import { QueryState } from '../../../components/ui/QueryState';

export function DescribeTab({ project, model, theme, activeVersion, version }: ModelTabProps) {
  const opts = { activeVersion, version };
  const summary = useQuery(describeQueryOptions(project, model, '', opts));
  const features = useQuery(describeQueryOptions(project, model, 'features', opts));
  const candidates = useQuery(describeQueryOptions(project, model, 'model', opts));
  const [raw, setRaw] = useState(false);
  const paper = usePaperTheme(theme);
  const c = CHART_COLORS[paper];
  const presenting = usePresenting();
  const font = chartFont(presenting);

  const row = summary.data?.[0];
  const importances = sortImportances(row?.column_importances);
  const steps = pipelineSteps(row?.model);
  const max = Math.max(0, ...importances.map((i) => i.importance ?? 0));

  return (
    <QueryState
      query={summary}
      loading="Loading the description…"
      error="Could not describe the model"
    >
      {(data) => (
        <div className="m-describe">
          <div className="m-toolbar">
            <span className="muted small">
              {row?.inputs.length ?? 0} inputs → {row?.outputs.join(', ')}
            </span>
            <span className="spacer" />
            <button
              className="btn small m-no-print"
              onClick={() => window.print()}
              title="Print this description (or save it as PDF)"
            >
              Print
            </button>
            <button className="btn small" aria-pressed={raw} onClick={() => setRaw(!raw)}>
              {raw ? 'Hide raw JSON' : 'Raw JSON'}
            </button>
          </div>

          {raw && (
            <Card title="Raw describe responses" label="Raw JSON">
              <pre className="m-code m-raw">
                {JSON.stringify(
                  { describe: data, features: features.data, model: candidates.data },
                  null,
                  2,
                )}
              </pre>
            </Card>
          )}

          {row?.timeseries && <TimeseriesCard ts={row.timeseries} />}

          {row?.metrics && <ModelQuality metrics={row.metrics} theme={theme} />}

          {!row?.metrics && (
            <div className="m-accuracies" aria-label="Accuracies" role="list">
              {Object.entries(row?.accuracies ?? {}).map(([k, v]) => (
                <div
                  className="m-metric"
                  role="listitem"
                  key={k}
                  aria-label={`${metricLabel(k)} ${metricValueText(k, v)}`}
                >
                  <div className="m-metric-label">{metricLabel(k)}</div>
                  <div className="m-metric-value">{metricValueText(k, v)}</div>
                  {metricScale(k) && (
                    <div className="m-metric-key muted small">{metricScale(k)}</div>
                  )}
                  {typeof v === 'number' && v >= 0 && v <= 1 && (
                    <div className="m-meter" aria-hidden>
                      <div style={{ width: `${v * 100}%` }} />
                    </div>
                  )}
                </div>
              ))}
            </div>
          )}

          <ImportancesCard label="Column importances">
            <ColumnBars
              data={importances.map((i) => ({ column: i.column, importance: i.importance ?? 0 }))}
              summary={`Column importances chart: ${importances
                .map((i) => `${i.column} ${formatPercent(i.importance)}`)
                .join(', ')}`}
              height={Math.max(120, importances.length * (presenting ? 40 : 30) + 40)}
              theme={theme}
              x={{ domain: [0, max > 0 ? 'auto' : 1], format: (v) => formatPercent(v, 0) }}
              right={presenting ? 72 : 56}
            >
              <Tooltip
                cursor={{ fill: c.grid, opacity: 0.4 }}
                formatter={(v) => [formatPercent(Number(v)), 'importance']}
              />
              <Bar
                dataKey="importance"
                fill={c.accent}
                radius={[0, 4, 4, 0]}
                minPointSize={2}
                isAnimationActive={false}
              >
                <LabelList
                  dataKey="importance"
                  position="right"
                  fill={c.text}
                  fontSize={font.tick}
                  formatter={(v) => formatPercent(Number(v))}
                />
              </Bar>
            </ColumnBars>
          </ImportancesCard>

          {steps.length > 0 && (
            <Card title="Pipeline" label="Pipeline">
              <ol className="m-pipeline" aria-label="Pipeline steps">
                {steps.map((s, i) => {
                  const p = stepParts(s);
                  return (
                    <li key={`${i}-${s}`}>
                      <span className="m-step">
                        <strong>{p.name}</strong>
                        {p.detail && <span className="muted small">{p.detail}</span>}
                      </span>
                      {i < steps.length - 1 && (
                        <span className="m-arrow" aria-hidden>
                          →
                        </span>
                      )}
                    </li>
                  );
                })}
              </ol>
            </Card>
          )}

          <div className="m-grid-2">
            <Card title="Features" label="Features">
              {features.isError && <p className="m-error">{features.error.message}</p>}
              <table className="m-table" aria-label="Features">
                <thead>
                  <tr>
                    <th>Column</th>
                    <th>Type</th>
                    <th>Encoder</th>
                    <th>Role</th>
                  </tr>
                </thead>
                <tbody>
                  {features.data?.map((f) => (
                    <tr key={f.column} className={f.role === 'target' ? 'active' : ''}>
                      <td>{f.column}</td>
                      <td>
                        <span className="m-type">{f.type}</span>
                      </td>
                      <td className="muted">{f.encoder ?? '—'}</td>
                      <td>
                        <span className={`m-role m-role-${f.role}`}>{f.role}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Card>
            <Card title="Candidate models" label="Candidate models">
              {candidates.isError && <p className="m-error">{candidates.error.message}</p>}
              <table className="m-table" aria-label="Candidate models">
                <thead>
                  <tr>
                    <th>Model</th>
                    <th className="num">Performance</th>
                    <th className="num">Training time</th>
                  </tr>
                </thead>
                <tbody>
                  {candidates.data?.map((m) => (
                    <tr key={m.name} className={m.selected ? 'active' : ''}>
                      <td>
                        {m.name} {m.selected && <span className="m-pill">✓ selected</span>}
                      </td>
                      <td className="num">
                        {formatMetric(m.performance)}
                        <span className="muted small">
                          {' '}
                          {m.accuracy_functions.map(metricLabel).join(', ')}
                        </span>
                      </td>
                      <td className="num">{formatSeconds(m.training_time)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Card>
          </div>
        </div>
      )}
    </QueryState>
  );
}
