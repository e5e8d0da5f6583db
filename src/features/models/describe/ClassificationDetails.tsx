/**
 * A classifier's quality in detail: where it goes wrong (the confusion matrix), precision and
 * recall per class, and whether its confidence can be trusted (calibration).
 */
import {
  CartesianGrid,
  ReferenceLine,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
  ZAxis,
} from 'recharts';
import type { ClassificationMetrics } from '../../../../contract';
import { Card } from '../../../components/ui/Card';
import { CHART_COLORS } from '../../../components/ui/grid-theme';
import { chartAxes, ChartBox, formatPercent, usePaperTheme, type ChartFont } from '../shared';
import { calibrationSummary, classText, confusionTable, countOf } from './model-quality';

type Theme = 'light' | 'dark';

export function ClassificationDetails({
  c: m,
  target,
  theme,
  font,
}: {
  c: ClassificationMetrics;
  target: string;
  theme: Theme;
  font: ChartFont;
}) {
  const t = confusionTable(m.classes, m.confusion);
  const maxShare = Math.max(...t.rows.flatMap((r) => r.cells.map((x) => x.share)), 1e-9);
  const paper = usePaperTheme(theme);
  const colors = CHART_COLORS[paper];
  return (
    <>
      <div className="m-grid-2">
        <Card title="Where it goes wrong" label="Confusion matrix">
          <table className="m-confusion" aria-label="Confusion matrix">
            <caption className="m-cm-axis">
              rows: actual {target} · columns: predicted · {countOf(t.correct, t.total)} right
            </caption>
            <thead>
              <tr>
                <td aria-hidden style={{ border: 0 }} />
                {t.classes.map((k) => (
                  <th key={k} scope="col">
                    predicted {k}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {t.rows.map((r) => (
                <tr key={r.actual}>
                  <th scope="row">actual {r.actual}</th>
                  {r.cells.map((x) => (
                    <td
                      key={x.predicted}
                      className={x.correct ? 'ok' : x.count > 0 ? 'miss' : ''}
                      style={{
                        background: `color-mix(in srgb, ${x.correct ? colors.accent : colors.series[1]} ${Math.round((x.share / maxShare) * 38)}%, transparent)`,
                      }}
                      aria-label={`actual ${r.actual}, predicted ${x.predicted}: ${countOf(x.count, r.total)}`}
                    >
                      <span className="m-cm-count">{x.count.toLocaleString('en-US')}</span>
                      <span className="m-cm-share muted">{formatPercent(x.share)}</span>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <p className="m-chart-caption">
            Percentages are of each actual class: the diagonal is each class’s recall.
          </p>
        </Card>
        <Card title="Per class" label="Per-class precision and recall">
          <table className="m-table" aria-label="Per-class precision and recall">
            <thead>
              <tr>
                <th>Class</th>
                <th className="num">Precision</th>
                <th className="num">Recall</th>
                <th className="num">Rows</th>
              </tr>
            </thead>
            <tbody>
              {m.per_class.map((p) => (
                <tr key={classText(p.class)}>
                  <td>{classText(p.class)}</td>
                  <td className="num">{formatPercent(p.precision)}</td>
                  <td className="num">{formatPercent(p.recall)}</td>
                  <td className="num">{p.support.toLocaleString('en-US')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="m-chart-caption">
            Precision: when it predicts the class, how often it is right. Recall: of the rows of the
            class, how many it finds.
          </p>
        </Card>
      </div>
      {m.calibration.length > 0 && (
        <CalibrationChart bins={m.calibration} theme={theme} font={font} />
      )}
    </>
  );
}

function CalibrationChart({
  bins,
  theme,
  font,
}: {
  bins: ClassificationMetrics['calibration'];
  theme: Theme;
  font: ChartFont;
}) {
  const paper = usePaperTheme(theme);
  const c = CHART_COLORS[paper];
  const summary = calibrationSummary(bins);
  const data = bins.filter((b) => b.count > 0);
  const axes = chartAxes(font, c.text);
  const pct = (v: number) => `${Math.round(v * 100)}%`;
  // Both axes are shares of rows, 0 to 100%.
  const shares = { type: 'number' as const, domain: [0, 1], tickFormatter: pct };
  return (
    <Card title="Can its confidence be trusted?" label="Calibration" className="m-print-keep">
      {summary && <p className="m-explain-sentence">{summary.text}</p>}
      <figure
        className="m-chart"
        role="img"
        aria-label={`Calibration: reported confidence vs observed accuracy in ${data.length} bins. ${data
          .map((b) => `${pct(b.confidence)} reported, ${pct(b.observed)} right (${b.count} rows)`)
          .join('; ')}`}
        style={{ height: font.tick > 12 ? 380 : 300, maxWidth: 640 }}
      >
        <ChartBox height={font.tick > 12 ? 380 : 300}>
          <ScatterChart margin={{ top: 8, right: 16, bottom: 24, left: 8 }}>
            <CartesianGrid stroke={c.grid} />
            <XAxis
              {...axes.x('reported confidence')}
              {...shares}
              dataKey="confidence"
              name="reported confidence"
            />
            <YAxis
              {...axes.y('how often right')}
              {...shares}
              dataKey="observed"
              name="observed accuracy"
              width={56}
            />
            <ZAxis type="number" dataKey="count" name="rows" range={[30, 400]} />
            <Tooltip formatter={(v, name) => (name === 'rows' ? v : pct(Number(v)))} />
            <ReferenceLine
              segment={[
                { x: 0, y: 0 },
                { x: 1, y: 1 },
              ]}
              stroke={c.muted}
              strokeDasharray="4 4"
            />
            <Scatter data={data} fill={c.accent} fillOpacity={0.7} isAnimationActive={false} />
          </ScatterChart>
        </ChartBox>
      </figure>
      <p className="m-chart-caption">
        On the dashed line the model is right exactly as often as it says; dot size is the number of
        rows.
      </p>
    </Card>
  );
}
