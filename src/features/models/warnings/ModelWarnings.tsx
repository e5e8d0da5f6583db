/**
 * What a careful data scientist would point out before anyone trusts the model (describe's
 * `warnings`: a dominant input that is likely a leak, an identifier used as an input, too few
 * rows, a rare class...), shown prominently above every tab of the model page.
 */
import { useQuery } from '@tanstack/react-query';
import type { ModelWarning } from '../../../../contract';
import { describeQueryOptions } from '../api';
import { warningTitle } from './warning-text';
import '../shared/insights.css';

interface Props {
  project: string;
  model: string;
  /** A pinned version (absent: the active one). */
  version?: number;
  activeVersion?: number;
  enabled: boolean;
}

export function ModelWarnings({ project, model, version, activeVersion, enabled }: Props) {
  const info = useQuery(
    describeQueryOptions(project, model, 'info', { version, activeVersion, enabled }),
  );
  const warnings = info.data?.[0]?.warnings ?? [];
  if (warnings.length === 0) return null;
  return <WarningList warnings={warnings} />;
}

function WarningList({ warnings }: { warnings: ModelWarning[] }) {
  const n = warnings.length;
  return (
    <section className="m-warnings" aria-label="Model warnings">
      <h2>
        <span className="m-warn-icon" aria-hidden>
          ⚠
        </span>
        {n === 1 ? 'One thing to check' : `${n} things to check`} before trusting this model
      </h2>
      <ul>
        {warnings.map((w, i) => (
          <li key={`${w.kind}:${w.column ?? ''}:${i}`}>
            <strong>{warningTitle(w.kind)}:</strong> {w.message}
          </li>
        ))}
      </ul>
    </section>
  );
}
