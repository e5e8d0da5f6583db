/**
 * How the model pages navigate: the shell maps these to URL state
 * (`#view=model&project=mindsdb&model=x&tab=describe[&version=2]`,
 * `#view=create-model&db=...&table=...`).
 */
/** The model page's tabs, in order (a new room's tab is added here and in page/model-tabs.tsx). */
export type ModelTab =
  'overview' | 'describe' | 'predict' | 'what-if' | 'evaluation' | 'drift' | 'effects' | 'diff';
export const MODEL_TABS: { id: ModelTab; label: string }[] = [
  { id: 'overview', label: 'Overview' },
  { id: 'describe', label: 'Describe' },
  { id: 'predict', label: 'Predict' },
  { id: 'what-if', label: 'What-if' },
  { id: 'evaluation', label: 'Evaluation' },
  { id: 'drift', label: 'Drift' },
  { id: 'effects', label: 'Effects' },
  { id: 'diff', label: 'Version diff' },
];

export type ModelsViewName = 'models' | 'model' | 'create-model' | 'compare';
const MODELS_VIEWS: readonly ModelsViewName[] = ['models', 'model', 'create-model', 'compare'];

export function isModelsView(view: string): view is ModelsViewName {
  return (MODELS_VIEWS as readonly string[]).includes(view);
}

export interface ModelsNav {
  /** `version` pins one version of the model (absent: the active one). */
  openModel(project: string, model: string, tab?: ModelTab, version?: number): void;
  openCreate(params?: { db?: string; schema?: string; table?: string; project?: string }): void;
  openHome(): void;
  /** The compare view: `a`/`b` are `project.model[.version]` (`#view=compare&a=...&b=...`). */
  openCompare(a: string, b?: string): void;
  openSql(sql: string): void;
  /** Keeps some of the page's own URL keys (e.g. `form`) current, without a history entry. */
  replaceParams(params: Record<string, string | undefined>): void;
}

export function asTab(v: string | undefined): ModelTab {
  return MODEL_TABS.some((t) => t.id === v) ? (v as ModelTab) : 'overview';
}

/** The `version=` URL parameter: a positive integer, else none (the active version). */
export function asVersion(v: string | undefined): number | undefined {
  if (v === undefined || !/^\d{1,9}$/.test(v)) return undefined;
  const n = Number(v);
  return n >= 1 ? n : undefined;
}

/** The URL parameters of a model page (what `setView('model', ...)` is given). */
export function modelUrlParams(
  project: string,
  model: string,
  tab?: ModelTab,
  version?: number,
): Record<string, string> {
  return {
    project,
    model,
    ...(tab && tab !== 'overview' ? { tab } : {}),
    ...(version !== undefined ? { version: String(version) } : {}),
  };
}

/**
 * What a room's tab on the model page is given (page/model-tabs.tsx): the model, the version it
 * shows (complete), the theme and the way to other pages.
 */
export interface ModelTabProps {
  project: string;
  model: string;
  /** A pinned version (`&version=N`); absent: the active one. */
  version?: number;
  /** The active version's number (what an unpinned request answers with). */
  activeVersion: number;
  theme: 'light' | 'dark';
  nav: ModelsNav;
  /**
   * The page's URL keys: a tab keeps its own view state in a key of its own (`useUrlState`).
   * Absent (a tab drawn outside the page): the state starts empty.
   */
  params?: Readonly<Record<string, string | undefined>>;
}
