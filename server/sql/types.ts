/** Types shared by the SQL layer: the request's execution context and statement results. */
import type { ColumnOrigin } from '../../contract/sql';
import type { Catalog } from '../catalog/catalog';
import type { Monitoring } from '../models/monitoring';
import type { ModelRegistry } from '../models/registry';
import type { EngineSession } from '../engine/session';
import type { JsonValue } from '../engine/values';
import type { IntegrationRegistry } from '../integrations';
import type { ScoringJobs } from './plan/progress';
import type { PlannedQuery } from './plan/steps';
import type { MlEngineStore } from './plan/system';
import type { ViewStore } from './plan/views';

export interface Warning {
  level: 'Note' | 'Warning';
  code: number;
  message: string;
}

export interface ExecContext {
  /** Current database (the request's context.db, after earlier USE statements of the script). */
  db: string;
  params?: Record<string, unknown>;
  signal?: AbortSignal;
  /**
   * The request's own engine connection: user SQL runs here, and the planner's TEMP tables
   * (predictions, model inputs, fetched remote rows, system tables) live here and nowhere else.
   */
  session: EngineSession;
  /** TEMP tables made for the statement being run (dropped when it is done). */
  temps: string[];
  /** Request-wide counter for unique TEMP table names. */
  seq: { n: number };
  /** Notes of the statement being run, and of the one before it (what SHOW WARNINGS shows). */
  warnings: Warning[];
  previousWarnings: Warning[];
  /** Views and native queries expanded inside one another (a guard against cycles). */
  depth: number;
  /**
   * Plan stored views and native queries on the instance's DuckDB databases into the query
   * itself (subqueries with fully qualified names) instead of TEMP tables, where they need no
   * TEMP tables of their own: a model's FROM query planned so must run again on every RETRAIN.
   */
  inline?: boolean;
  /** Set on the plans being inlined: qualify every DuckDB table name with its database. */
  qualify?: boolean;
  /**
   * The statement's rows stream to the client (`jsonlines`/`sse`): a SELECT ... JOIN model over
   * one big table is planned to predict in batches (plan/stream-plan.ts).
   */
  answerInBatches?: boolean;
}

/** A statement run's context as a request starts it: nothing made, noted or nested yet. */
export function newExecContext(
  session: EngineSession,
  db: string,
  request: Pick<ExecContext, 'params' | 'signal'> = {},
): ExecContext {
  return {
    db,
    params: request.params,
    signal: request.signal,
    session,
    temps: [],
    seq: { n: 0 },
    warnings: [],
    previousWarnings: [],
    depth: 0,
  };
}

export type SqlResult = (
  | {
      type: 'table';
      column_names: string[];
      data: JsonValue[][];
      truncated?: boolean;
      column_types?: string[];
      /** Which model produced each column (plan/column-origins.ts); absent: none did. */
      column_origins?: (ColumnOrigin | null)[];
    }
  | { type: 'ok'; affected_rows?: number | null }
) & {
  /** The statement created, dropped or altered a database, project, table, view or model. */
  catalog_changed?: true;
};

/** What the SQL layer needs from the rest of the instance. */
export interface SqlEnv {
  catalog: Catalog;
  models: ModelRegistry;
  /** Drift, effects and version diffs (`DESCRIBE m.drift|effects|diff`); null: not available. */
  monitoring: Monitoring | null;
  integrations: IntegrationRegistry;
  views: ViewStore;
  mlEngines: MlEngineStore;
  /** The instance's version (MINDSDB_VERSION, SHOW VARIABLES). */
  version: string;
}

/**
 * What a statement handler (statements/) is given: the instance's parts and the executor of a
 * planned query (the SqlService).
 */
export interface StatementEnv extends SqlEnv {
  /** Statements scoring big tables in batches, with their progress (GET /api/status). */
  scoring: ScoringJobs;
  /** Source rows a batch of such a statement reads (SCORING_BATCH_ROWS); 0: never in batches. */
  scoringBatchRows: number;
  runPlanned(q: PlannedQuery, ctx: ExecContext, whole?: boolean): Promise<SqlResult>;
}
