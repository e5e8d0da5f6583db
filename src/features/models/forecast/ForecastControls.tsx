/** The forecast views' controls: the group, the horizon, and (what-if) how the latest values change. */
import { groupLabel, type GroupValue, type TsSettings } from './timeseries';

interface Props {
  ts: TsSettings;
  mode: 'overview' | 'predict' | 'what-if';
  groups: GroupValue[][] | undefined;
  groupIndex: number;
  onGroup(index: number): void;
  steps: number;
  onHorizon(steps: number): void;
  /** How many of the latest values the what-if scenario changes, and by how much (%). */
  shocked: number;
  onShocked(n: number): void;
  shock: number;
  onShock(percent: number): void;
}

export function ForecastControls({
  ts,
  mode,
  groups,
  groupIndex,
  onGroup,
  steps,
  onHorizon,
  shocked,
  onShocked,
  shock,
  onShock,
}: Props) {
  return (
    <div className="m-forecast-controls">
      {ts.groupBy.length > 0 && (
        <label>
          <span>Group</span>
          <select
            aria-label="Group"
            value={groupIndex}
            onChange={(e) => onGroup(Number(e.target.value))}
            disabled={!groups}
          >
            {(groups ?? []).map((g, i) => (
              <option key={i} value={i}>
                {groupLabel(ts, g)}
              </option>
            ))}
          </select>
        </label>
      )}
      {mode !== 'overview' && (
        <label>
          <span>Horizon</span>
          <select
            aria-label="Horizon"
            value={steps}
            onChange={(e) => onHorizon(Number(e.target.value))}
          >
            {Array.from({ length: ts.horizon }, (_, i) => i + 1).map((h) => (
              <option key={h} value={h}>
                {h} step{h === 1 ? '' : 's'}
              </option>
            ))}
          </select>
        </label>
      )}
      {mode === 'what-if' && (
        <>
          <label>
            <span>Change the latest</span>
            <select
              aria-label="Values to change"
              value={shocked}
              onChange={(e) => onShocked(Number(e.target.value))}
            >
              {Array.from({ length: Math.min(ts.window, 12) }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {n} value{n === 1 ? '' : 's'}
                </option>
              ))}
            </select>
          </label>
          <label className="m-slider">
            <span>
              by {shock > 0 ? '+' : ''}
              {shock}%
            </span>
            <input
              type="range"
              aria-label="Change in percent"
              min={-30}
              max={30}
              step={1}
              value={shock}
              onChange={(e) => onShock(Number(e.target.value))}
            />
          </label>
        </>
      )}
    </div>
  );
}
