/** The create form's optional clauses: a time series (ORDER BY, GROUP BY, WINDOW, HORIZON) and USING. */
import type { TimeSeriesInput, UsingEntry } from './create-model-sql';
import type { FieldError } from './field-error';

interface Props {
  columns: { name: string; dataType?: string | null }[] | undefined;
  target: string;
  ts: TimeSeriesInput | null;
  onTs(ts: TimeSeriesInput | null): void;
  using: UsingEntry[];
  onUsing(using: UsingEntry[]): void;
  err: FieldError;
}

export function ModelOptions({ columns, target, ts, onTs, using, onUsing, err }: Props) {
  return (
    <>
      <div className="m-ts" aria-label="Time series">
        <label className="m-check">
          <input
            type="checkbox"
            aria-label="Time series (forecast)"
            checked={!!ts}
            onChange={(e) =>
              onTs(
                e.target.checked
                  ? {
                      orderBy:
                        columns?.find((c) => /DATE|TIME/i.test(c.dataType ?? ''))?.name ?? '',
                      groupBy: [],
                      window: '8',
                      horizon: '4',
                    }
                  : null,
              )
            }
          />
          <span>Time series: forecast the target over time (ORDER BY … WINDOW … HORIZON)</span>
        </label>
        {ts && <TimeSeriesFields columns={columns} target={target} ts={ts} onTs={onTs} err={err} />}
      </div>
      <details className="m-using" open={using.length > 0}>
        <summary>USING options (optional)</summary>
        {using.map((u, i) => (
          <div key={i} className="m-using-row">
            <input
              aria-label={`USING key ${i + 1}`}
              placeholder="key"
              value={u.key}
              onChange={(e) =>
                onUsing(using.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)))
              }
            />
            <span>=</span>
            <input
              aria-label={`USING value ${i + 1}`}
              placeholder="value"
              value={u.value}
              onChange={(e) =>
                onUsing(using.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))
              }
            />
            <button
              className="icon-btn"
              aria-label={`Remove USING option ${i + 1}`}
              onClick={() => onUsing(using.filter((_, j) => j !== i))}
            >
              ×
            </button>
            {err(`using.${i}`)}
          </div>
        ))}
        <button className="btn small" onClick={() => onUsing([...using, { key: '', value: '' }])}>
          + Option
        </button>
      </details>
    </>
  );
}

function TimeSeriesFields({
  columns,
  target,
  ts,
  onTs,
  err,
}: {
  columns: Props['columns'];
  target: string;
  ts: TimeSeriesInput;
  onTs(ts: TimeSeriesInput): void;
  err: FieldError;
}) {
  return (
    <div className="m-ts-fields">
      <label>
        <span>ORDER BY (time)</span>
        <select
          aria-label="ORDER BY column"
          value={ts.orderBy}
          onChange={(e) =>
            onTs({
              ...ts,
              orderBy: e.target.value,
              groupBy: ts.groupBy.filter((g) => g !== e.target.value),
            })
          }
        >
          <option value="">— time column —</option>
          {columns
            ?.filter((c) => c.name !== target)
            .map((c) => (
              <option key={c.name} value={c.name}>
                {c.name}
              </option>
            ))}
        </select>
        {err('orderBy')}
      </label>
      <label>
        <span>WINDOW (rows read)</span>
        <input
          aria-label="WINDOW"
          inputMode="numeric"
          value={ts.window}
          onChange={(e) => onTs({ ...ts, window: e.target.value })}
        />
        {err('window')}
      </label>
      <label>
        <span>HORIZON (steps ahead)</span>
        <input
          aria-label="HORIZON"
          inputMode="numeric"
          value={ts.horizon}
          onChange={(e) => onTs({ ...ts, horizon: e.target.value })}
        />
        {err('horizon')}
      </label>
      <fieldset aria-label="GROUP BY columns">
        <legend className="small">GROUP BY (one series per combination)</legend>
        {columns
          ?.filter((c) => c.name !== target && c.name !== ts.orderBy)
          .map((c) => (
            <label key={c.name} className="m-check">
              <input
                type="checkbox"
                aria-label={`GROUP BY ${c.name}`}
                checked={ts.groupBy.includes(c.name)}
                onChange={(e) =>
                  onTs({
                    ...ts,
                    groupBy: e.target.checked
                      ? [...ts.groupBy, c.name]
                      : ts.groupBy.filter((g) => g !== c.name),
                  })
                }
              />
              <span>{c.name}</span>
            </label>
          ))}
        {err('groupBy')}
      </fieldset>
    </div>
  );
}
