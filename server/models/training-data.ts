/**
 * Reading a model's FROM query where its data lives: in DuckDB, or on a remote integration
 * (PostgreSQL) in its own dialect. Two uses: checking a query before a version is created (it
 * must run and have the PREDICT column) and fetching the training rows into columns.
 */
import { ERROR_CODES, ServiceError, badInput } from '../errors';
import type { ModelCatalog, RemoteDataSource } from './ports';
import type { ModelVersionRecord } from './store';
import { ColumnarBuilder, type ColumnarDataset } from './training-columns';
import { DEFAULT_ROW_BUDGET, planSample, rowBudget, sampleSourceOf } from './training-sample';

/** Rows a training FROM query may return; more fail the training with a clear message. */
const MAX_TRAINING_ROWS = 5_000_000;

export interface TrainingSource {
  /** Database the FROM query runs in. */
  fromDb: string;
  select: string;
}

/** A training's read failed (its counting, sampling or reading): the message says which limit. */
function fromQueryFailed(err: unknown): Error {
  const timedOut = err instanceof ServiceError && err.code === ERROR_CODES.TIMEOUT;
  return new Error(
    `The FROM query failed: ${err instanceof Error ? err.message : String(err)}${timedOut ? ' (STATEMENT_TIMEOUT_MS)' : ''}`,
    { cause: err },
  );
}

export class TrainingData {
  /**
   * @param timeoutMs how long reading a FROM query may take (STATEMENT_TIMEOUT_MS, like every
   *   read of the instance); past it the read is interrupted and the training fails saying so
   */
  constructor(
    private readonly catalog: ModelCatalog,
    private readonly remote: RemoteDataSource,
    private readonly timeoutMs: number,
    /** Rows read whole; larger sources are sampled where they live (training-sample.ts). */
    private readonly rowBudget = DEFAULT_ROW_BUDGET,
  ) {}

  /**
   * Checks the FROM query without fetching its rows (`LIMIT 0`): it must run, and the PREDICT
   * column must be among its columns. Returns the target as spelled in the data.
   */
  async check(
    source: TrainingSource,
    target: string,
    /** Other columns the model needs (a time-series model's ORDER BY and GROUP BY). */
    also: { clause: string; name: string }[] = [],
  ): Promise<string> {
    let columns: string[];
    try {
      const r = await this.run(
        source.fromDb,
        `SELECT * FROM (\n${source.select}\n) AS __training_data LIMIT 0`,
        { maxRows: 0, timeoutMs: this.timeoutMs },
      );
      columns = r.columns;
    } catch (err) {
      if (err instanceof ServiceError) {
        throw new ServiceError(err.code, `The FROM query failed: ${err.message}`);
      }
      throw err;
    }
    const find = (name: string, clause: string) => {
      const c = columns.find((x) => x.toLowerCase() === name.toLowerCase());
      if (c === undefined) {
        throw badInput(
          `Column '${name}' named in ${clause} is not in the result of the FROM query; its columns are: ${columns.join(', ')}`,
        );
      }
      return c;
    };
    const found = find(target, 'PREDICT');
    for (const a of also) find(a.name, a.clause);
    return found;
  }

  /**
   * Runs a version's FROM query in its database and returns its rows in columnar form (typed
   * arrays, handed to the worker without a copy). Rows from an integration go into the columns
   * chunk by chunk as the cursor delivers them, so the rows are never all held as JS arrays here.
   * Sets the record's target to its spelling in the data.
   */
  async fetch(rec: ModelVersionRecord, signal?: AbortSignal): Promise<ColumnarDataset> {
    let b: ColumnarBuilder | undefined;
    let truncated = false;
    // Named in the status's list of long-running work.
    const label = `training data of ${rec.project}.${rec.name} (version ${rec.version})`;
    const source = sampleSourceOf(
      this.catalog,
      this.remote,
      rec.fromDb,
      this.timeoutMs,
      signal,
      label,
    );
    // Past the row budget only a sample drawn in the source is read (never a time series).
    const plan = rec.timeseries
      ? null
      : await planSample(
          source,
          rec.selectQuery,
          rec.target,
          rowBudget(rec.using, this.rowBudget),
        ).catch((err: unknown) => {
          throw fromQueryFailed(err);
        });
    const select = plan?.sql ?? rec.selectQuery;
    const cap = plan ? plan.sample.budget : MAX_TRAINING_ROWS;
    try {
      if (this.remote.isRemote(rec.fromDb)) {
        let builder: ColumnarBuilder | undefined;
        const { columns } = await this.remote.readRows(
          rec.fromDb,
          select,
          (chunk, cols) => {
            builder ??= new ColumnarBuilder(cols.map((c) => c.name));
            for (const r of chunk) {
              if (builder.rowCount >= cap) {
                truncated = true;
                return;
              }
              builder.push(r);
            }
          },
          { timeoutMs: this.timeoutMs, signal },
        );
        b = builder ?? new ColumnarBuilder(columns.map((c) => c.name));
      } else {
        const r = await this.catalog.engine.query(select, {
          db: this.engineDb(rec.fromDb),
          maxRows: cap,
          timeoutMs: this.timeoutMs,
          signal,
          label,
        });
        if (r.kind === 'table') {
          truncated = r.truncated;
          b = new ColumnarBuilder(r.columns);
          for (const row of r.rows) b.push(row);
        }
      }
    } catch (err) {
      throw fromQueryFailed(err);
    }
    if (!b) throw new Error('The FROM query returned no result table');
    // A sample a little over its budget is cut at the budget (the draw is random).
    if (truncated && !plan) {
      throw new Error(
        `The FROM query returned more than ${MAX_TRAINING_ROWS} rows; sample or aggregate the data (e.g. with LIMIT or USING SAMPLE)`,
      );
    }
    if (b.rowCount === 0)
      throw new Error('The FROM query returned no rows; there is nothing to train on');
    if (b.rowCount === 1)
      throw new Error('The FROM query returned 1 row; a model needs many rows to learn from');
    const ti = b.columns.findIndex((c) => c.toLowerCase() === rec.target.toLowerCase());
    if (ti < 0)
      throw new Error(
        `Column '${rec.target}' named in PREDICT is not in the result of the FROM query`,
      );
    if (b.allNull(ti)) {
      throw new Error(
        `Column '${rec.target}' named in PREDICT is NULL in every row of the FROM query`,
      );
    }
    rec.target = b.columns[ti];
    if (plan) rec.sample = { ...plan.sample, rowsUsed: b.rowCount };
    else delete rec.sample;
    return b.finish();
  }

  /** Runs the `LIMIT 0` check where the data lives. */
  private async run(
    fromDb: string,
    sql: string,
    o: { maxRows: number; timeoutMs?: number },
  ): Promise<{ columns: string[] }> {
    if (this.remote.isRemote(fromDb)) return this.remote.query(fromDb, sql, o);
    return this.catalog.engine.query(sql, {
      db: this.engineDb(fromDb),
      maxRows: o.maxRows,
      timeoutMs: o.timeoutMs,
    });
  }

  /** The DuckDB catalog a query runs in (none for system databases). */
  private engineDb(db: string): string | undefined {
    const info = this.catalog.requireDatabase(db);
    return info.type === 'system' ? undefined : info.name;
  }
}
