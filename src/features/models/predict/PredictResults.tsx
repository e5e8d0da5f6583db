/**
 * The prediction: a headline for the first row, the interval of each row as an error-bar chart
 * (class probabilities for classifiers), every row in a grid, and the request as curl/fetch.
 */
import { AllCommunityModule, ModuleRegistry, type ColDef } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useMemo, useRef, useState } from 'react';
import { useReveal } from '../../../lib/use-reveal';
import type { PredictResult } from '../api';
import { toPredictionViews, type PredictionView } from '../inputs';
import { framed } from '../../../components/ui/grid-theme';
import { ExplainWaterfall } from './ExplainWaterfall';
import { IntervalChart, ProbabilityChart } from './PredictionCharts';
import { curlSnippet, fetchSnippet, formatNumber } from '../shared';
import { hasContributions } from './waterfall';
import { Card } from '../../../components/ui/Card';
import { CopyButton } from '../../../components/ui/CopyButton';

ModuleRegistry.registerModules([AllCommunityModule]);

interface Props {
  result: PredictResult;
  target: string;
  inputs: string[];
  theme: 'light' | 'dark';
}

/** Did the request ask for explanations? (the body as sent) */
function asked(bodyText: string): boolean {
  try {
    const b: unknown = JSON.parse(bodyText);
    return (
      !!b &&
      typeof b === 'object' &&
      (b as { params?: { explain?: unknown } }).params?.explain === true
    );
  } catch {
    return false;
  }
}

export function PredictResults({ result, target, inputs, theme }: Props) {
  const views = useMemo(
    () => toPredictionViews(result.rows, target, inputs),
    [result.rows, target, inputs],
  );
  const first = views[0];
  const classes = useMemo(
    () => [...new Set(views.flatMap((v) => Object.keys(v.probabilities)))].sort(),
    [views],
  );
  const sent = { method: 'POST' as const, url: result.url, body: result.bodyText };
  const [explainRow, setExplainRow] = useState(0);
  const explained = views[Math.min(explainRow, views.length - 1)];
  const ref = useRef<HTMLElement>(null);
  useReveal(ref, result);

  return (
    <Card
      ref={ref}
      title={`Prediction${views.length === 1 ? '' : `s (${views.length.toLocaleString('en-US')} rows)`}`}
      label="Prediction result"
      actions={
        <>
          <span className="muted small">{Math.round(result.elapsedMs)} ms</span>
          <CopyButton
            text={curlSnippet(sent)}
            label="Copy as curl"
            title="The exact request, as curl"
          />
          <CopyButton
            text={fetchSnippet(sent)}
            label="Copy as fetch"
            title="The exact request, as JavaScript fetch"
          />
        </>
      }
    >
      {first && <Headline view={first} target={target} />}
      {explained && hasContributions(explained.explain) && (
        <div className="m-explain-wrap">
          {views.length > 1 && (
            <label className="m-inline m-explain-row">
              <span className="muted small">Explain row</span>
              <select
                aria-label="Row to explain"
                value={explained.index}
                onChange={(e) => setExplainRow(Number(e.target.value))}
              >
                {views.slice(0, 500).map((v) => (
                  <option key={v.index} value={v.index}>
                    {v.index + 1}: {formatNumber(v.prediction)}
                  </option>
                ))}
              </select>
            </label>
          )}
          <ExplainWaterfall view={explained} target={target} theme={theme} />
        </div>
      )}
      {explained && !hasContributions(explained.explain) && asked(result.bodyText) && (
        <p className="muted small" role="note">
          The server sent no explanations (<code>feature_contributions</code>) with these
          predictions.
        </p>
      )}
      {views.length > 0 &&
        (classes.length > 0 ? (
          <ProbabilityChart views={views} classes={classes} theme={theme} />
        ) : (
          <IntervalChart views={views} target={target} theme={theme} />
        ))}
      <ResultGrid views={views} target={target} inputs={inputs} classes={classes} theme={theme} />
    </Card>
  );
}

function Headline({ view, target }: { view: PredictionView; target: string }) {
  const probs = Object.entries(view.probabilities).sort((a, b) => b[1] - a[1]);
  return (
    <div className="m-headline" role="status" aria-label="Predicted value">
      <div>
        <div className="muted small">Predicted {target} (row 1)</div>
        <div className="m-big">{formatNumber(view.prediction)}</div>
      </div>
      {view.lower !== null && view.upper !== null && (
        <div aria-label="Prediction interval">
          <div className="muted small">
            Interval
            {view.confidence !== null ? ` (${Math.round(view.confidence * 100)}% confidence)` : ''}
          </div>
          <div className="m-mid">
            {formatNumber(view.lower)} – {formatNumber(view.upper)}
          </div>
        </div>
      )}
      {view.lower === null && view.confidence !== null && (
        <div>
          <div className="muted small">Confidence</div>
          <div className="m-mid">{(view.confidence * 100).toFixed(1)}%</div>
        </div>
      )}
      {probs.length > 0 && (
        <div aria-label="Class probabilities" className="m-probs">
          <div className="muted small">Class probabilities</div>
          {probs.map(([c, p]) => (
            <div key={c} className="m-prob">
              <span className="m-prob-class">{c}</span>
              <span className="m-meter">
                <span style={{ width: `${p * 100}%` }} />
              </span>
              <span className="m-prob-value">{(p * 100).toFixed(1)}%</span>
            </div>
          ))}
        </div>
      )}
      {probs.length > 0 && String(probs[0][0]) !== String(view.prediction) && (
        <p className="muted small m-headline-note">
          The predicted class is not the most probable one: the model decides with classes weighted
          equally (it is tuned for balanced accuracy), while the probabilities are calibrated to how
          often each class occurs.
        </p>
      )}
      {view.anomaly !== null && (
        <div>
          <div className="muted small">Anomaly</div>
          <div className={`m-mid ${view.anomaly ? 'm-bad' : ''}`}>
            {view.anomaly ? 'yes' : 'no'}
          </div>
        </div>
      )}
    </div>
  );
}

function ResultGrid({
  views,
  target,
  inputs,
  classes,
  theme,
}: {
  views: PredictionView[];
  target: string;
  inputs: string[];
  classes: string[];
  theme: 'light' | 'dark';
}) {
  const columnDefs = useMemo<ColDef<PredictionView>[]>(() => {
    const num = (v: unknown) => formatNumber(v);
    const cols: ColDef<PredictionView>[] = [
      {
        colId: 'row',
        headerName: '#',
        valueGetter: (p) => (p.data?.index ?? 0) + 1,
        width: 64,
        pinned: 'left',
      },
      {
        colId: 'prediction',
        headerName: target,
        valueGetter: (p) => p.data?.prediction,
        valueFormatter: (p) => num(p.value),
        cellClass: 'm-cell-strong',
        pinned: 'left',
      },
      {
        colId: 'confidence',
        headerName: 'confidence',
        valueGetter: (p) => p.data?.confidence,
        valueFormatter: (p) => num(p.value),
        width: 110,
      },
    ];
    if (views.some((v) => v.lower !== null)) {
      cols.push(
        {
          colId: 'lower',
          headerName: `${target}_min`,
          valueGetter: (p) => p.data?.lower,
          valueFormatter: (p) => num(p.value),
        },
        {
          colId: 'upper',
          headerName: `${target}_max`,
          valueGetter: (p) => p.data?.upper,
          valueFormatter: (p) => num(p.value),
        },
      );
    }
    for (const k of classes) {
      cols.push({
        colId: `p_${k}`,
        headerName: `P(${k})`,
        valueGetter: (p) => p.data?.probabilities[k] ?? null,
        valueFormatter: (p) =>
          typeof p.value === 'number' ? `${(p.value * 100).toFixed(1)}%` : '—',
        width: 100,
      });
    }
    cols.push({
      colId: 'anomaly',
      headerName: 'anomaly',
      valueGetter: (p) => p.data?.anomaly,
      valueFormatter: (p) =>
        p.value === null || p.value === undefined ? '—' : p.value ? 'yes' : 'no',
      width: 100,
    });
    for (const i of inputs) {
      cols.push({
        colId: `in_${i}`,
        headerName: i,
        valueGetter: (p) => p.data?.inputs[i],
        valueFormatter: (p) =>
          p.value === null || p.value === undefined ? 'null' : String(p.value),
        cellClassRules: { 'cell-null': (p) => p.value === null || p.value === undefined },
        headerClass: 'm-input-header',
      });
    }
    cols.push({
      colId: 'explain',
      headerName: `${target}_explain`,
      valueGetter: (p) =>
        p.data?.explain ? JSON.stringify(p.data.explain) : (p.data?.explainError ?? null),
      maxWidth: 360,
    });
    return cols;
  }, [views, target, inputs, classes]);

  return (
    <div className="m-result-grid" style={{ height: Math.min(420, 44 + views.length * 30) }}>
      <AgGridReact<PredictionView>
        theme={theme === 'dark' ? framed.dark : framed.light}
        rowData={views}
        columnDefs={columnDefs}
        defaultColDef={{ sortable: true, resizable: true, filter: false, minWidth: 60 }}
        autoSizeStrategy={{ type: 'fitCellContents', skipHeader: false }}
        enableCellTextSelection
        animateRows={false}
      />
    </div>
  );
}
