/** What the upload dialog shows once a file is on its way: the progress, then the loaded table. */
import { FILES_DB, loadedCounts, progressWords, type UploadState } from './upload-logic';

export function UploadProgressView({ state }: { state: UploadState }) {
  if (state.kind !== 'sending' && state.kind !== 'loading') return null;
  const { pct, valueText, status } = progressWords(state);
  return (
    <div className="upload-progress">
      <div
        className="progress-track"
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={valueText}
      >
        <div
          className={`progress-fill${state.kind === 'loading' ? ' working' : ''}`}
          style={{ width: `${pct}%` }}
        />
      </div>
      <div className="small muted" role="status" aria-label="Upload status">
        {status}
      </div>
    </div>
  );
}

export function UploadSuccess({
  state,
  onQuery,
  onAnother,
  onClose,
}: {
  state: Extract<UploadState, { kind: 'done' }>;
  onQuery(): void;
  onAnother(): void;
  onClose(): void;
}) {
  const { info } = state;
  const cols = info.columns ?? [];
  return (
    <div className="upload-success">
      <p role="status" aria-label="Upload result">
        Loaded{' '}
        <code>
          {FILES_DB}.{info.name}
        </code>
        : {loadedCounts(info.row_count, cols.length)}.
      </p>
      {cols.length > 0 && (
        <ul className="upload-columns" aria-label="Columns">
          {cols.map((c) => (
            <li key={c}>
              <code>{c}</code>
            </li>
          ))}
        </ul>
      )}
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onAnother}>
          Upload another
        </button>
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
        <button
          type="button"
          className="btn primary"
          // The upload's form made way for its result inside the open dialog: the focus moves to
          // the next step rather than falling back to the page.
          // eslint-disable-next-line jsx-a11y/no-autofocus
          autoFocus
          onClick={onQuery}
        >
          Query it
        </button>
      </div>
    </div>
  );
}
