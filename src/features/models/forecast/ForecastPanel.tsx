/**
 * The forecast view of a time-series model, in three uses: the Overview's chart (pick a group),
 * the Forecast tab (a group and a horizon: the chart, the rows and the SQL that produced them)
 * and What-if (the group's latest values changed by a share: how the forecast moves).
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import {
  forecastQueryOptions,
  forecastSourceQueryOptions,
  groupsQueryOptions,
  HISTORY_ROWS,
} from './forecast-api';
import { predict } from '../api';
import { modelKeys } from '../../../api/keys';
import { formatMetric, type ModelsNav } from '../shared';
import { ForecastChart } from './ForecastChart';
import { ForecastControls } from './ForecastControls';
import {
  chartPoints,
  forecastRows,
  groupLabel,
  shockHistory,
  type GroupValue,
  type TsSettings,
} from './timeseries';
import { Card } from '../../../components/ui/Card';

interface Props {
  project: string;
  model: string;
  /** The active version's training query (where the history comes from). */
  selectQuery: string | null;
  ts: TsSettings;
  target: string;
  theme: 'light' | 'dark';
  mode: 'overview' | 'predict' | 'what-if';
  nav: ModelsNav;
}

export function ForecastPanel({
  project,
  model,
  selectQuery,
  ts,
  target,
  theme,
  mode,
  nav,
}: Props) {
  const source = useQuery(forecastSourceQueryOptions(project, model, selectQuery));
  const groups = useQuery(groupsQueryOptions(project, model, ts, source.data));
  const [groupIndex, setGroupIndex] = useState(0);
  const [horizon, setHorizon] = useState(ts.horizon);
  const [shock, setShock] = useState(10);
  const [shocked, setShocked] = useState(1);
  const group: GroupValue[] | null = groups.data?.[groupIndex] ?? groups.data?.[0] ?? null;
  const steps = mode === 'overview' ? ts.horizon : Math.min(horizon, ts.horizon);
  const forecast = useQuery(
    forecastQueryOptions(project, model, ts, target, source.data, group, steps),
  );
  const history = useMemo(() => forecast.data?.history ?? [], [forecast.data]);
  const scenario = useQuery({
    queryKey: modelKeys.forecast(
      project,
      model,
      'what-if',
      JSON.stringify(group),
      steps,
      shock,
      shocked,
    ),
    queryFn: async ({ signal }) => {
      const rows = shockHistory(history, target, shock, shocked);
      const r = await predict({
        project,
        model,
        body: { data: rows, params: { horizon: steps } },
        signal,
      });
      const cols = r.rows.length ? Object.keys(r.rows[0]) : [];
      return forecastRows(
        cols,
        r.rows.map((o) => cols.map((c) => o[c])),
        ts,
        target,
      );
    },
    enabled: mode === 'what-if' && history.length > 0,
    staleTime: 30_000,
    retry: false,
  });

  const points = useMemo(() => {
    const base = chartPoints(
      history.map((r) => ({ time: String(r[ts.orderBy]), value: r[target] })),
      forecast.data?.forecast ?? [],
    );
    if (mode !== 'what-if' || !scenario.data) return base;
    const byTime = new Map(scenario.data.map((f) => [f.time, f.value]));
    const out = base.map((p) => {
      const v = byTime.get(p.x);
      return v === undefined || v === null ? p : { ...p, scenario: v };
    });
    // The scenario starts from the changed last value.
    const lastHistory = [...out].reverse().find((p) => p.history !== undefined);
    if (lastHistory && scenario.data.length > 0) {
      const changed = shockHistory(history, target, shock, shocked).at(-1)?.[target];
      if (typeof changed === 'number') Object.assign(lastHistory, { scenario: changed });
    }
    return out;
  }, [history, forecast.data, scenario.data, mode, ts.orderBy, target, shock, shocked]);

  const title = group && ts.groupBy.length ? groupLabel(ts, group) : 'the series';
  const error = source.error ?? groups.error ?? forecast.error ?? scenario.error;

  if (source.isSuccess && !source.data) {
    return (
      <p className="muted">
        The training data of this model could not be located, so there is no history to forecast
        from here. Forecast with SQL:{' '}
        <code>
          SELECT ... FROM &lt;data&gt; AS t JOIN {project}.{model} AS m WHERE t.{ts.orderBy} &gt;
          LATEST
        </code>
        .
      </p>
    );
  }

  const controls = (
    <ForecastControls
      ts={ts}
      mode={mode}
      groups={groups.data}
      groupIndex={groupIndex}
      onGroup={setGroupIndex}
      steps={steps}
      onHorizon={setHorizon}
      shocked={shocked}
      onShocked={setShocked}
      shock={shock}
      onShock={setShock}
    />
  );

  const chart = (
    <>
      {error && (
        <div className="m-error" role="alert">
          Could not forecast: {error.message}
        </div>
      )}
      {forecast.isPending && !error && <p className="muted">Forecasting…</p>}
      {forecast.data && (
        <ForecastChart
          points={points}
          xLabel={ts.orderBy}
          yLabel={target}
          theme={theme}
          title={title}
        />
      )}
    </>
  );

  if (mode === 'overview') {
    return (
      <Card
        title="Forecast"
        label="Forecast"
        actions={
          <span className="muted small">
            WINDOW {ts.window} · HORIZON {ts.horizon} · last {HISTORY_ROWS} rows shown
          </span>
        }
      >
        {controls}
        {chart}
      </Card>
    );
  }

  const rows = forecast.data?.forecast ?? [];
  return (
    <div className="m-forecast">
      <Card
        title={mode === 'what-if' ? 'What if the latest values were different?' : 'Forecast'}
        label={mode === 'what-if' ? 'What-if' : 'Forecast'}
      >
        <p className="muted small">
          {mode === 'what-if'
            ? `The group's history with its latest ${shocked} value${shocked === 1 ? '' : 's'} changed by ${shock}%, forecast again: the scenario line against the forecast.`
            : `A time-series model forecasts from the last ${ts.window} rows of a group: choose the group and how many steps to forecast.`}
        </p>
        {controls}
        {chart}
      </Card>
      {mode === 'predict' && forecast.data && (
        <Card
          title="Forecast rows"
          label="Forecast rows"
          actions={
            <button className="btn small" onClick={() => nav.openSql(forecast.data.sql)}>
              Open in SQL editor
            </button>
          }
        >
          <table className="m-table" aria-label="Forecast rows">
            <thead>
              <tr>
                <th>{ts.orderBy}</th>
                <th>{target}</th>
                <th>{target}_min</th>
                <th>{target}_max</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.time}>
                  <td>{r.time}</td>
                  <td>{formatMetric(r.value)}</td>
                  <td>{formatMetric(r.lower)}</td>
                  <td>{formatMetric(r.upper)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <pre className="m-code" aria-label="Forecast SQL">
            {forecast.data.sql}
          </pre>
        </Card>
      )}
      {mode === 'what-if' && scenario.data && (
        <Card title="Scenario rows" label="Scenario rows">
          <table className="m-table" aria-label="Scenario rows">
            <thead>
              <tr>
                <th>{ts.orderBy}</th>
                <th>forecast</th>
                <th>scenario</th>
                <th>change</th>
              </tr>
            </thead>
            <tbody>
              {scenario.data.map((s, i) => {
                const base = rows[i]?.value ?? null;
                return (
                  <tr key={s.time}>
                    <td>{s.time}</td>
                    <td>{formatMetric(base)}</td>
                    <td>{formatMetric(s.value)}</td>
                    <td>
                      {base !== null && s.value !== null ? formatMetric(s.value - base) : '—'}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </Card>
      )}
    </div>
  );
}
