/**
 * Which handler runs a statement, declared in one table. The order of decisions is fixed here,
 * not by registration: MindsDB's own statements first (syntax/grammar.ts names their kind), then
 * a query DuckDB's parser reads (the planner), then any other DuckDB statement.
 */
import type { MindsStatement } from '../syntax/statement';
import * as catalog from './catalog';
import * as models from './models';
import type { StatementInput, StatementOutput } from './output';
import { queryStatement } from './query';
import * as saving from './saving';
import type { StatementEnv } from '../types';

type Handler<K extends MindsStatement['kind']> = (
  env: StatementEnv,
  s: Extract<MindsStatement, { kind: K }>,
  x: StatementInput,
) => Promise<StatementOutput>;

const HANDLERS: { [K in MindsStatement['kind']]: Handler<K> } = {
  use: catalog.use,
  show: catalog.show,
  'create-project': catalog.createProject,
  'create-database': catalog.createDatabase,
  'drop-database': catalog.dropDatabase,
  'create-ml-engine': catalog.createMlEngine,
  'drop-ml-engine': catalog.dropMlEngine,
  'set-session': catalog.setSession,
  refused: catalog.refused,
  'create-model': models.createModel,
  retrain: models.retrain,
  finetune: models.finetune,
  'drop-model': models.dropModel,
  describe: models.describe,
  'update-versions': models.updateVersions,
  'delete-versions': models.deleteVersions,
  'set-active': models.setActive,
  evaluate: models.evaluate,
  'create-table': saving.createTable,
  insert: saving.insert,
  'create-view': saving.createView,
  'drop-view': saving.dropView,
  'drop-table': saving.dropTable,
  'update-on': saving.updateOn,
};

export function runStatement(
  env: StatementEnv,
  s: MindsStatement | null,
  x: StatementInput,
): Promise<StatementOutput> {
  if (!s) return queryStatement(env, x);
  return (HANDLERS[s.kind] as Handler<typeof s.kind>)(env, s, x);
}
