/**
 * Assembles the local instance below the HTTP layer: the catalog (DuckDB + attached databases),
 * the demo data, and the SQL service with its statement handlers. Tests and the HTTP server both
 * start from here.
 */
import path from 'node:path';
import { Catalog, SQL_FOLDERS } from './catalog/catalog';
import { loadDemoData } from './catalog/demo-data';
import { Monitoring } from './models/monitoring';
import { ModelRegistry } from './models/registry';
import { sandboxSql, type Config } from './config';
import { IntegrationRegistry } from './integrations';
import { sweepUploads } from './integrations/files';
import { journalDirOf } from './engine/journal';
import { SqlService } from './sql/service';

export const VERSION = '0.1.0';

export interface Instance {
  config: Config;
  catalog: Catalog;
  sql: SqlService;
  /** Models of every project: training, predict, describe (the HTTP model routes call it). */
  models: ModelRegistry;
  /** Drift, feature effects and version diffs of complete versions. */
  monitoring: Monitoring;
  /** Data sources from CREATE DATABASE ... WITH ENGINE (PostgreSQL, DuckDB files). */
  integrations: IntegrationRegistry;
  /** Set when a supervisor runs this instance (server/main.ts): how often it restarted it. */
  supervision?: { restarts: number };
  /** Called on shutdown, most recently registered first. */
  onClose: (() => Promise<void> | void)[];
  close(): Promise<void>;
}

export async function createInstance(config: Config): Promise<Instance> {
  const warn = (msg: string) => process.stderr.write(`${msg}\n`);
  const catalog = await Catalog.open(
    config.DATA_DIR,
    {
      connections: config.ENGINE_CONNECTIONS,
      queueLimit: config.ENGINE_QUEUE,
      shortLane: config.ENGINE_SHORT_LANE,
      timeoutMs: config.STATEMENT_TIMEOUT_MS,
      maxRows: config.MAX_RESULT_ROWS,
      maxBytes: config.MAX_RESULT_BYTES,
      jsonMaxDepth: config.JSON_MAX_DEPTH,
      journalDir: journalDirOf(config.DATA_DIR),
    },
    {
      authSecret: config.AUTH_SECRET,
      onMountError: (name, err) =>
        warn(
          err.message === 'dropped'
            ? `Dropped ${name}`
            : `Database '${name}' not attached: ${err.message}`,
        ),
    },
  );
  await loadDemoData(catalog.engine);
  const integrations = new IntegrationRegistry(catalog, {
    timeoutMs: config.STATEMENT_TIMEOUT_MS,
    maxRows: config.MAX_RESULT_ROWS,
    allowedHosts: config.INTEGRATION_HOSTS,
  });
  // Every database is attached before the sandbox closes (see engine/duckdb.ts).
  await integrations.restore((name, err) =>
    warn(`Integration '${name}' not attached: ${err.message}`),
  );
  const sqlFolders = SQL_FOLDERS.map((d) => path.join(config.DATA_DIR, d));
  const hostFiles = config.ALLOW_HOST_FILES;
  catalog.engine.restrictWrites(hostFiles === 'all' ? null : [...sqlFolders, ...hostFiles], {
    dir: config.DATA_DIR,
    except: sqlFolders,
  });
  if (sandboxSql(config) && hostFiles !== 'all') {
    // projects/ stays open to DuckDB so CREATE PROJECT can attach a new file; SQL cannot write
    // there (restrictWrites above), only read bytes it can already query (engine/duckdb.ts).
    await catalog.engine.sandbox([
      ...sqlFolders,
      ...hostFiles,
      path.join(config.DATA_DIR, 'projects'),
    ]);
  }
  const models = new ModelRegistry({
    catalog,
    remote: integrations,
    maxConcurrentTrainings: config.MAX_CONCURRENT_TRAININGS,
    trainingRowBudget: config.TRAINING_ROW_BUDGET,
    trainingWarmup: config.TRAINING_WARMUP
      ? { quietMs: config.TRAINING_WARMUP_QUIET_MS, unvisitedMs: config.TRAINING_WARMUP_DELAY_MS }
      : null,
    trainingCacheDir: config.TRAINING_CACHE_DIR ?? null,
    trainingCacheModels: config.TRAINING_CACHE_MODELS ?? null,
    version: VERSION,
    readTimeoutMs: config.STATEMENT_TIMEOUT_MS,
  });
  const monitoring = new Monitoring(models, { catalog, remote: integrations });
  catalog.dropProjectHooks.push((project) => models.dropProject(project));
  catalog.projectContents.push((project) =>
    models.modelNames(project).map((m) => `model '${project}.${m}'`),
  );
  await sweepUploads(catalog);
  const sql = new SqlService({
    catalog,
    models,
    monitoring,
    integrations,
    version: VERSION,
    scoringBatchRows: config.SCORING_BATCH_ROWS,
  });
  await sql.views.load();
  const onClose: (() => Promise<void> | void)[] = [
    () => integrations.close(),
    () => models.close(),
  ];
  return {
    config,
    catalog,
    sql,
    models,
    monitoring,
    integrations,
    onClose,
    async close() {
      for (const fn of [...onClose].reverse()) await fn();
      await catalog.close();
    },
  };
}
