/**
 * Entry of the models feature (lazy-loaded by the shell): the models list, a model page, the
 * create-model form or the compare view, chosen by the view and URL parameters the shell passes in.
 */
import { ComparePage } from '../compare';
import { CreateModel } from '../create';
import { asTab, asVersion, type ModelsNav, type ModelsViewName } from '../shared';
import { ModelPage } from './ModelPage';
import { ModelsHome } from './ModelsHome';
import '../shared/models.css';
import '../shared/insights.css';

export interface ModelsRouteProps {
  view: ModelsViewName;
  params: Record<string, string>;
  theme: 'light' | 'dark';
  nav: ModelsNav;
  /** A link asked to run on open (send the prediction, run the sweep); then onAutoRunDone. */
  autoRun?: boolean;
  onAutoRunDone?(): void;
}

export default function ModelsRoute({
  view,
  params,
  theme,
  nav,
  autoRun,
  onAutoRunDone,
}: ModelsRouteProps) {
  if (view === 'model' && params.project && params.model) {
    return (
      <ModelPage
        key={`${params.project}.${params.model}`}
        project={params.project}
        model={params.model}
        tab={asTab(params.tab)}
        version={asVersion(params.version)}
        params={params}
        theme={theme}
        nav={nav}
        autoRun={autoRun}
        onAutoRunDone={onAutoRunDone}
      />
    );
  }
  if (view === 'compare') {
    return <ComparePage params={params} theme={theme} nav={nav} />;
  }
  if (view === 'create-model') {
    return (
      <CreateModel
        key={`${params.db ?? ''}.${params.schema ?? ''}.${params.table ?? ''}`}
        params={params}
        nav={nav}
      />
    );
  }
  return <ModelsHome nav={nav} />;
}
