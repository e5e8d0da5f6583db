/**
 * Main views, chosen by URL state (`#view=<id>`). The SQL workspace is the default. The models
 * feature (lazy-loaded) serves `models` (list), `model` (`&project=&model=&tab=`) and
 * `create-model` (`&db=&schema=&table=`).
 */
import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { isModelsView, modelUrlParams, type ModelsNav } from '../features/models/nav';
import type { UrlState } from './url-state';
import { replaceViewParams, setView } from './url-sync';

export { isModelsView };

export interface ViewDef {
  id: string;
  label: string;
}

export const VIEWS: ViewDef[] = [
  { id: 'sql', label: 'SQL' },
  { id: 'models', label: 'Models' },
];

const ModelsRoute = lazy(() => import('../features/models/page'));

/** The view the top bar highlights (a model page belongs to Models). */
export function navViewId(view: string): string {
  return isModelsView(view) ? 'models' : view;
}

/** The model pages: list, one model, create. */
export function ModelsView({
  url,
  theme,
  onOpenSql,
  autoRun,
  onAutoRunDone,
}: {
  url: UrlState;
  theme: 'light' | 'dark';
  onOpenSql(sql: string): void;
  /** A link asked to run on open; onAutoRunDone once the page did. */
  autoRun?: boolean;
  onAutoRunDone?(): void;
}): ReactNode {
  const nav = useMemo<ModelsNav>(
    () => ({
      openModel: (project, model, tab, version) =>
        setView('model', modelUrlParams(project, model, tab, version)),
      openCreate: (params = {}) =>
        setView('create-model', Object.fromEntries(Object.entries(params).filter(([, v]) => !!v))),
      openHome: () => setView('models'),
      openCompare: (a, b) => setView('compare', { a, ...(b ? { b } : {}) }),
      openSql: onOpenSql,
      replaceParams: replaceViewParams,
    }),
    [onOpenSql],
  );
  if (!isModelsView(url.view)) return null;
  return (
    <Suspense fallback={<div className="editor-loading">Loading…</div>}>
      <ModelsRoute
        view={url.view}
        params={url.extra}
        theme={theme}
        nav={nav}
        autoRun={autoRun}
        onAutoRunDone={onAutoRunDone}
      />
    </Suspense>
  );
}
