/**
 * What a careful data scientist would point out before anyone trusts the model (describe's
 * `warnings`: a dominant input that is likely a leak, an identifier used as an input, too few
 * rows, a rare class...), shown prominently above every tab of the model page. The box folds to
 * its title (remembered per model), and a warning about one input offers its fix in one click:
 * the model retrained without it.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ModelWarning } from '../../../../contract';
import { describeQueryOptions } from '../api';
import type { ModelsNav } from '../shared';
import { RetrainWithout } from './RetrainWithout';
import { useFolded } from './use-folded';
import { droppableColumn, warningTitle } from './warning-text';

interface Props {
  project: string;
  model: string;
  /** A pinned version (absent: the active one). */
  version?: number;
  activeVersion?: number;
  enabled: boolean;
  /** The version's training query and target: what a retrain without an input starts from. */
  trainingQuery?: string | null;
  target?: string | null;
  /** A version is training: no second retrain meanwhile. */
  busy?: boolean;
  nav: ModelsNav;
}

export function ModelWarnings({
  project,
  model,
  version,
  activeVersion,
  enabled,
  trainingQuery,
  target,
  busy = false,
  nav,
}: Props) {
  const info = useQuery(
    describeQueryOptions(project, model, 'info', { version, activeVersion, enabled }),
  );
  const row = info.data?.[0];
  const warnings = row?.warnings ?? [];
  const [folded, setFolded] = useFolded(`${project}.${model}`);
  const [without, setWithout] = useState<string | null>(null);
  if (warnings.length === 0) return null;
  const canRetrain = !!trainingQuery && !!target && !!row && row.inputs.length > 1;
  return (
    <>
      <WarningList
        warnings={warnings}
        folded={folded}
        onFold={setFolded}
        fixFor={(w) => {
          const col = droppableColumn(w);
          return canRetrain && col && row.inputs.includes(col) ? col : null;
        }}
        busy={busy}
        onFix={setWithout}
      />
      {without && row && trainingQuery && target && (
        <RetrainWithout
          project={project}
          model={model}
          trainingQuery={trainingQuery}
          inputs={row.inputs}
          target={target}
          column={without}
          nav={nav}
          onClose={() => setWithout(null)}
        />
      )}
    </>
  );
}

function WarningList({
  warnings,
  folded,
  onFold,
  fixFor,
  busy,
  onFix,
}: {
  warnings: ModelWarning[];
  folded: boolean;
  onFold(folded: boolean): void;
  fixFor(w: ModelWarning): string | null;
  busy: boolean;
  onFix(column: string): void;
}) {
  const n = warnings.length;
  return (
    <section className={`m-warnings${folded ? ' folded' : ''}`} aria-label="Model warnings">
      <h2>
        <button
          className="m-warnings-toggle"
          aria-expanded={!folded}
          title={folded ? 'Show the warnings' : 'Fold the warnings to one line'}
          onClick={() => onFold(!folded)}
        >
          <span className="m-warn-icon" aria-hidden>
            ⚠
          </span>
          {n === 1 ? 'One thing to check' : `${n} things to check`} before trusting this model
          <span className="m-warnings-chevron" aria-hidden>
            {folded ? '▸' : '▾'}
          </span>
        </button>
      </h2>
      {!folded && (
        <ul>
          {warnings.map((w, i) => {
            const col = fixFor(w);
            return (
              <li key={`${w.kind}:${w.column ?? ''}:${i}`}>
                <strong>{warningTitle(w.kind)}:</strong> {w.message}
                {col && (
                  <button
                    className="btn small m-warning-fix"
                    disabled={busy}
                    title={busy ? 'A version is training' : undefined}
                    onClick={() => onFix(col)}
                  >
                    Retrain without {col}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
