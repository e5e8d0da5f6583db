/**
 * How the model pages navigate: the shell maps these to URL state
 * (`#view=model&project=mindsdb&model=x&tab=describe`, `#view=create-model&db=...&table=...`).
 */
export type ModelTab = 'overview' | 'describe' | 'predict' | 'what-if';
export const MODEL_TABS: { id: ModelTab; label: string }[] = [
  { id: 'overview', label: 'Overview' },
  { id: 'describe', label: 'Describe' },
  { id: 'predict', label: 'Predict' },
  { id: 'what-if', label: 'What-if' },
];

export type ModelsViewName = 'models' | 'model' | 'create-model';
export const MODELS_VIEWS: readonly ModelsViewName[] = ['models', 'model', 'create-model'];

export function isModelsView(view: string): view is ModelsViewName {
  return (MODELS_VIEWS as readonly string[]).includes(view);
}

export interface ModelsNav {
  openModel(project: string, model: string, tab?: ModelTab): void;
  openCreate(params?: { db?: string; schema?: string; table?: string; project?: string }): void;
  openHome(): void;
  openSql(sql: string): void;
}

export function asTab(v: string | undefined): ModelTab {
  return MODEL_TABS.some((t) => t.id === v) ? (v as ModelTab) : 'overview';
}
