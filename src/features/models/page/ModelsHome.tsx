/** The Models view: every model of every project with its status, and "New model". */
import { useQuery } from '@tanstack/react-query';
import { modelsQueryOptions } from '../../../api/catalog';
import { StatusBadge } from '../../../components/ui/StatusBadge';
import { metricNamesQueryOptions, projectsQueryOptions } from '../api';
import { metricPhrase, type ModelsNav } from '../shared';

export function ModelsHome({ nav }: { nav: ModelsNav }) {
  const projects = useQuery(projectsQueryOptions());
  return (
    <div className="m-page">
      <header className="m-page-header">
        <div>
          <h1>Models</h1>
          <p className="muted">
            Train a model on a table, see which inputs matter, and get predictions with their
            uncertainty.
          </p>
        </div>
        <button className="btn primary" onClick={() => nav.openCreate()}>
          + New model
        </button>
      </header>
      {projects.isPending && <p className="muted">Loading projects…</p>}
      {projects.isError && (
        <div className="m-error" role="alert">
          Could not list projects: {projects.error.message}
        </div>
      )}
      {projects.data?.map((p) => (
        <ProjectModels key={p} project={p} nav={nav} />
      ))}
    </div>
  );
}

function ProjectModels({ project, nav }: { project: string; nav: ModelsNav }) {
  const models = useQuery(modelsQueryOptions(project));
  const metricNames = useQuery(
    metricNamesQueryOptions(
      project,
      (models.data ?? []).map((m) => `${m.name}.${m.version ?? ''}:${m.status}`).join(','),
    ),
  );
  return (
    <section className="m-project" aria-label={`Project ${project}`}>
      <h2>
        {project} <span className="muted small">project</span>
      </h2>
      {models.isPending && <p className="muted">Loading…</p>}
      {models.isError && <p className="m-error">{models.error.message}</p>}
      {models.data?.length === 0 && (
        <div className="m-empty">
          No models yet.{' '}
          <button className="btn small" onClick={() => nav.openCreate({ project })}>
            Create one
          </button>
        </div>
      )}
      {models.data && models.data.length > 0 && (
        <ul className="m-model-list">
          {models.data.map((m) => (
            <li key={m.name}>
              <button
                className="m-model-card"
                onClick={() => nav.openModel(project, m.name)}
                aria-label={`Open model ${m.name}`}
              >
                <span className="m-model-name">{m.name}</span>
                <StatusBadge status={m.status} />
                <span className="muted small">
                  {m.predict ? `predicts ${m.predict}` : ''}
                  {m.accuracy != null
                    ? ` · ${metricPhrase(metricNames.data?.[m.name], m.accuracy)}`
                    : ''}
                  {m.version ? ` · v${m.version}` : ''}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
