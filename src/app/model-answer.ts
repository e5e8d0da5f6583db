/**
 * Which model a statement's answer is about, when that answer is the models-table row that
 * CREATE MODEL, RETRAIN and FINETUNE return (the shell then shows the model's live status card
 * instead of the raw 19-column row). A SELECT of the models table is not such an answer.
 */
import { isModelsTableAnswer } from '../api/catalog-change';
import type { SqlOkResponse, SqlTableResponse } from '../../contract';

export interface TrainedModel {
  project: string;
  model: string;
  version?: number;
}

// Only for choosing the presentation when a server does not say whether the catalog changed.
const TRAINING_STATEMENT = /^(?:\s+|--[^\n]*\n?|\/\*[\s\S]*?\*\/)*(?:CREATE|RETRAIN|FINETUNE)\b/i;

export function trainedModelOf(
  res: SqlTableResponse | SqlOkResponse,
  sql: string,
): TrainedModel | undefined {
  if (res.type !== 'table' || res.data.length !== 1 || !isModelsTableAnswer(res.column_names))
    return undefined;
  if (!(res.catalog_changed ?? TRAINING_STATEMENT.test(sql))) return undefined;
  const at = (name: string) => res.column_names.findIndex((c) => c.toUpperCase() === name);
  const row = res.data[0];
  const project = row[at('PROJECT')];
  const model = row[at('NAME')];
  const version = Number(row[at('VERSION')]);
  if (typeof project !== 'string' || typeof model !== 'string' || !project || !model)
    return undefined;
  return { project, model, ...(Number.isInteger(version) && version > 0 ? { version } : {}) };
}
