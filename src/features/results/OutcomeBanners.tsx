/** Above a run's result: what stopped it (in words, the engine's text below), cancel, summary. */
import type { ScriptOutcome } from '../../lib/sql/execute-script';
import { formatDuration } from '../../lib/format';
import { outcomeProblem, scriptSummary } from './result-view';

export function OutcomeBanners({ outcome: o }: { outcome: ScriptOutcome }) {
  const summary = scriptSummary(o);
  const problem = outcomeProblem(o);
  if (!problem && !o.cancelled && !summary) return null;
  return (
    <div className="banners">
      {problem && (
        <div className="error-banner" role="alert" aria-label="Query error">
          <strong>{problem.words ? problem.words.headline : 'Request failed'}</strong>
          {summary ? <span className="muted"> · {summary}</span> : null}
          {problem.words?.suggestion && (
            <div className="error-hint">
              Did you mean <code>{problem.words.suggestion}</code>?
            </div>
          )}
          <div className="error-message">
            {problem.words && <span className="error-source">The engine says: </span>}
            {problem.text}
          </div>
          {o.total > 1 && problem.sql && (
            <pre className="error-sql">{problem.sql.slice(0, 500)}</pre>
          )}
        </div>
      )}
      {o.cancelled && (
        <div className="notice" role="status">
          Query cancelled after {formatDuration(o.durationMs)}.
        </div>
      )}
      {!problem && !o.cancelled && summary && <div className="notice subtle">{summary}</div>}
    </div>
  );
}
