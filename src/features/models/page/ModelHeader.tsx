/** The model page's header: name and status, what it predicts, the version picker, hand-over actions. */
import { StatusBadge } from '../../../components/ui/StatusBadge';
import type { ModelVersion } from '../api';
import { Crumbs, VersionSelect, type ModelsNav, type ModelTab } from '../shared';
import { ModelActions } from './ModelActions';

interface Props {
  project: string;
  model: string;
  tab: ModelTab;
  version?: number;
  versions: ModelVersion[];
  active: ModelVersion | undefined;
  pending: ModelVersion | undefined;
  chosen: ModelVersion | undefined;
  target: string | undefined;
  canExportCard: boolean;
  nav: ModelsNav;
}

export function ModelHeader({
  project,
  model,
  tab,
  version,
  versions,
  active,
  pending,
  chosen,
  target,
  canExportCard,
  nav,
}: Props) {
  return (
    <header className="m-page-header">
      <div>
        <Crumbs onHome={nav.openHome}>{project}</Crumbs>
        <h1>
          {model}
          {active && (
            <StatusBadge status={active.status} label={`Model status: ${active.status}`} />
          )}
          {pending && (
            <StatusBadge
              status={pending.status}
              label={`Version ${pending.version} status: ${pending.status}`}
            />
          )}
        </h1>
        {active && (
          <p className="muted m-subtitle">
            Predicts <strong>{active.predict ?? target ?? '?'}</strong>
            {active.engine && <> · engine {active.engine}</>} · version {active.version}
            {versions.length > 1 && <> of {versions.length}</>}
          </p>
        )}
      </div>
      <div className="m-header-side">
        {versions.length > 0 && (
          <VersionSelect
            versions={versions}
            value={version ?? active?.version}
            onChange={(v) =>
              nav.openModel(project, model, tab, v === active?.version ? undefined : v)
            }
          />
        )}
        <ModelActions
          project={project}
          model={model}
          version={chosen?.version}
          pinned={version !== undefined}
          canExportCard={canExportCard}
          ready={chosen?.status === 'complete'}
          nav={nav}
        />
      </div>
    </header>
  );
}
