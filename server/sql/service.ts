/**
 * The SQL layer's entry point: splits a request's script into statements (with the scanner the
 * playground shares), parses each one (MindsDB's own statements with their grammar, everything
 * else with DuckDB's parser), hands it to the handler its kind names (statements/index.ts),
 * carries the current database from statement to statement, and returns the last statement's
 * result. Every statement runs on the request's engine session; the TEMP tables a statement's plan
 * makes are dropped when it is done. It knows nothing about HTTP.
 */
import { ScoringJobs } from './plan/progress';
import { scanSegments, type SqlSegment } from '../../contract/sql-split';
import type { Catalog } from '../catalog/catalog';
import type { Monitoring } from '../models/monitoring';
import type { ModelRegistry } from '../models/registry';
import type { EngineResult } from '../engine/results';
import type { EngineSession } from '../engine/session';
import type { Timings } from '../engine/timings';
import { lineColumn } from '../engine/position';
import type { JsonValue } from '../engine/values';
import { didYouMean, ERROR_CODES, ServiceError, type ErrorPosition } from '../errors';
import type { IntegrationRegistry } from '../integrations';
import { resolveOrigins, type ColumnOrigin } from './plan/column-origins';
import { rowResult, runSteps } from './plan/execute';
import { scoreInBatches } from './plan/stream';
import type { PlannedQuery } from './plan/steps';
import { MlEngineStore } from './plan/system';
import { ViewStore } from './plan/views';
import { StatementSource } from './syntax/source';
import { Tokens } from './syntax/tokens';
import { parseMindsStatement } from './syntax/grammar';
import { runStatement } from './statements';
import { classifyScript } from './classify';
import type { Classification } from '../../contract/classify';
import type { StatementOutput } from './statements/output';
import {
  newExecContext,
  type ExecContext,
  type SqlResult,
  type StatementEnv,
  type Warning,
} from './types';
import { paramsOf } from './plan/state';

export interface ExecuteRequest {
  query: string;
  db?: string;
  params?: Record<string, unknown>;
  signal?: AbortSignal;
  /** The client's id of the request (`context.query_id`): its place in line shows in the status. */
  queryId?: string;
  /** Where the request's time goes on the engine (the route's Server-Timing header). */
  timings?: Timings;
  /** Ends the request's mark as short work once it runs as heavy (SessionOptions.endShortTurn). */
  endShortTurn?: () => void;
}

export type ExecuteResponse =
  | (SqlResult & { db: string })
  | {
      type: 'error';
      error_code: number;
      error_message: string;
      /** Where in the script; the HTTP edge formats it into the message and sends it as a field. */
      error_position?: ErrorPosition;
      db: string;
    };

/** Turns an engine result into the wire's table/ok shape. */
export function toSqlResult(r: EngineResult): SqlResult {
  const changed = isCatalogChange(r.statementType);
  if (r.kind === 'ok') {
    return {
      type: 'ok',
      affected_rows: r.affectedRows,
      ...(changed ? { catalog_changed: true } : {}),
    };
  }
  return {
    type: 'table',
    column_names: r.columns,
    data: r.rows,
    ...(r.truncated ? { truncated: true } : {}),
    column_types: r.types,
    ...(changed ? { catalog_changed: true } : {}),
  };
}

/** DuckDB statement kinds that change what the catalog lists. */
const isCatalogChange = (statementType: string | undefined) =>
  statementType === 'CREATE' || statementType === 'DROP' || statementType === 'ALTER';

/** Receives a streamed result: a header, row chunks, then the end; or ok; or an error. */
export interface ResultSink {
  header(
    columns: string[],
    types: string[],
    db: string,
    catalogChanged: boolean,
    /** Which model produced each column, when any did (plan/column-origins.ts). */
    origins?: (ColumnOrigin | null)[],
  ): Promise<void> | void;
  rows(rows: JsonValue[][]): Promise<void> | void;
  end(rowCount: number, truncated: boolean): Promise<void> | void;
  ok(affectedRows: number | null, db: string, catalogChanged: boolean): Promise<void> | void;
  error(code: number, message: string, db: string, position?: ErrorPosition): Promise<void> | void;
}

export interface SqlServiceDeps {
  catalog: Catalog;
  models: ModelRegistry;
  /** Drift, effects and version diffs (`DESCRIBE m.drift|effects|diff`); absent: refused. */
  monitoring?: Monitoring;
  integrations: IntegrationRegistry;
  version: string;
  /** SCORING_BATCH_ROWS: source rows a batch of a scoring statement reads (0: never batched). */
  scoringBatchRows?: number;
}

/** Source rows a batch of a statement scoring a big table reads (SCORING_BATCH_ROWS). */
const DEFAULT_SCORING_BATCH_ROWS = 100_000;

/** Rows one statement reads from PostgreSQL to save elsewhere. */
const MAX_SAVED_ROWS = 5_000_000;

/** The most rows a step of a short request's plan may expect (the engine's short lane). */
const SHORT_LANE_ROWS = 100_000;

const UNTERMINATED = { string: 'string', comment: 'comment', identifier: 'quoted identifier' };

export class SqlService implements StatementEnv {
  readonly catalog: Catalog;
  readonly models: ModelRegistry;
  readonly monitoring: Monitoring | null;
  readonly integrations: IntegrationRegistry;
  readonly views: ViewStore;
  readonly mlEngines: MlEngineStore;
  readonly version: string;
  readonly scoring = new ScoringJobs();
  /** SCORING_BATCH_ROWS (0: never in batches; the scale bench switches it to time both paths). */
  scoringBatchRows: number;

  constructor(deps: SqlServiceDeps) {
    this.scoringBatchRows = deps.scoringBatchRows ?? DEFAULT_SCORING_BATCH_ROWS;
    this.catalog = deps.catalog;
    this.models = deps.models;
    this.monitoring = deps.monitoring ?? null;
    this.integrations = deps.integrations;
    this.version = deps.version;
    this.views = new ViewStore(deps.catalog.engine);
    this.mlEngines = new MlEngineStore(deps.catalog.dataDir);
  }

  /** Runs a request's statements in one engine session (a fresh connection, closed after). */
  execute(req: ExecuteRequest): Promise<ExecuteResponse> {
    return this.catalog.engine.session((session) => this.executeIn(session, req), {
      limited: true,
      short: () => this.isShort(req),
      queryId: req.queryId,
      signal: req.signal,
      timings: req.timings,
      endShortTurn: req.endShortTurn,
    });
  }

  /**
   * Like `execute`, but the last statement's rows go to `sink` chunk by chunk when DuckDB produces
   * them (the memory-safe path behind `response_format: "jsonlines"`). Results the instance
   * computes itself are small and come as one chunk.
   */
  executeStream(req: ExecuteRequest, sink: ResultSink, maxRows: number): Promise<void> {
    return this.catalog.engine.session((session) => this.streamIn(session, req, sink, maxRows), {
      limited: true,
      short: () => this.isShort(req),
      queryId: req.queryId,
      signal: req.signal,
      timings: req.timings,
      endShortTurn: req.endShortTurn,
    });
  }

  /**
   * Whether a request may take the engine's short lane while the pool is full: every statement
   * only reads, predicts nothing, and DuckDB's plan expects at most SHORT_LANE_ROWS rows at any
   * step (classify.ts; planning runs nothing). Without an estimate (no table at all, system
   * tables, a remote database's table, whose work is not DuckDB's) a plain read is short too.
   */
  private async isShort(req: ExecuteRequest): Promise<boolean> {
    const verdict = await this.catalog.engine.session(async (session) => {
      await this.views.load();
      return classifyScript(this, session, { query: req.query, db: req.db, params: req.params });
    });
    return verdict.statements.every(
      (s) =>
        s.effect === 'read' &&
        s.reasons.length === 0 &&
        s.models.length === 0 &&
        (s.estimated_rows ?? 0) <= SHORT_LANE_ROWS,
    );
  }

  /**
   * What the request's statements would do, judged without running any (classify.ts): the
   * playground's question before it runs a shared link.
   */
  classify(req: ExecuteRequest): Promise<Classification> {
    return this.catalog.engine.session(
      async (session) => {
        if (req.db !== undefined) this.catalog.requireDatabase(req.db);
        await this.views.load();
        return classifyScript(this, session, req);
      },
      // Judging runs nothing (parse, bind, EXPLAIN): short by nature, it never waits behind
      // heavy queries (a shared link's dialog waited 58 s for them in e2e).
      { limited: true, short: () => Promise.resolve(true), signal: req.signal },
    );
  }

  private startDb(req: ExecuteRequest): string {
    return this.catalog.databaseInfo(req.db ?? 'mindsdb')?.name ?? req.db ?? 'mindsdb';
  }

  private segments(query: string): SqlSegment[] {
    const segs = scanSegments(query).filter((s) => s.hasCode);
    if (segs.length === 0) {
      throw new ServiceError(
        ERROR_CODES.BAD_INPUT,
        'The query holds no SQL statement (only whitespace or comments)',
      );
    }
    return segs;
  }

  private context(session: EngineSession, req: ExecuteRequest, db: string): ExecContext {
    return newExecContext(session, db, req);
  }

  /** Parses and plans one statement; the result is either computed or a query to run. */
  private async prepare(
    seg: SqlSegment,
    script: string,
    ctx: ExecContext,
  ): Promise<StatementOutput> {
    // The crash journal records the statement as written; one that crashed the engine before is
    // refused here.
    ctx.session.clientStatement(seg.sql);
    const src = new StatementSource(seg.sql, seg.start, script);
    if (seg.unterminated) {
      const p = lineColumn(script, seg.unterminatedAt ?? seg.start);
      throw new ServiceError(
        ERROR_CODES.SYNTAX,
        `Unterminated ${UNTERMINATED[seg.unterminated]} from here to the end`,
        undefined,
        p,
      );
    }
    const tokens = new Tokens(seg.sql);
    const minds = parseMindsStatement(tokens, src, ctx.params);
    return runStatement(this, minds, { src, tokens, ctx });
  }

  /**
   * Runs a planned query to completion. `whole`: every row, whatever the row and byte caps of a
   * client's answer (for the instance's own use of a result: saving it, evaluating it).
   */
  async runPlanned(q: PlannedQuery, ctx: ExecContext, whole = false): Promise<SqlResult> {
    await runSteps(this, ctx, q.steps);
    const one = rowResult(q, ctx);
    if (one) return one;
    const caps = whole
      ? { maxRows: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER }
      : {};
    if (q.target.kind === 'remote') {
      const r = await this.integrations.query(q.target.db, q.sql, {
        values: q.target.values.length ? q.target.values : undefined,
        signal: ctx.signal,
        position: (o) => q.src.position(q.rw.toSource(o)),
        ...(whole ? { maxRows: MAX_SAVED_ROWS } : {}),
      });
      return toSqlResult(r);
    }
    const r = await ctx.session.query(q.sql, {
      db: q.target.db,
      params: paramsOf(q.sql, ctx.params),
      signal: ctx.signal,
      sourceOffset: q.src.scriptOffset(q.rw),
      script: q.src.script,
      ...caps,
    });
    return toSqlResult(r);
  }

  private async dropTemps(ctx: ExecContext): Promise<void> {
    const names = ctx.temps.splice(0);
    for (const name of names) {
      await ctx.session
        .query(`DROP TABLE IF EXISTS temp.main."${name}"`, { internal: true })
        .catch(() => undefined);
    }
  }

  /** A table the engine does not know may be a misspelt model: the closest model name as a hint. */
  private hinted(err: ServiceError): ServiceError {
    const m = /^Catalog Error: Table with name "?([^" ]+)"? does not exist!$/.exec(err.message);
    const hint = m ? didYouMean(m[1], new Set(this.models.list().map((r) => r.name))) : '';
    return hint
      ? new ServiceError(err.code, err.message + hint, err.httpStatus, err.position)
      : err;
  }

  private async executeIn(session: EngineSession, req: ExecuteRequest): Promise<ExecuteResponse> {
    let db = this.startDb(req);
    try {
      if (req.db !== undefined) this.catalog.requireDatabase(req.db);
      await this.views.load();
      const segs = this.segments(req.query);
      const ctx = this.context(session, req, db);
      let last: SqlResult = { type: 'ok', affected_rows: null };
      let previous: Warning[] = [];
      for (const seg of segs) {
        ctx.db = db;
        ctx.warnings = [];
        ctx.previousWarnings = previous;
        try {
          const out = await this.prepare(seg, req.query, ctx);
          if (out.kind === 'query') {
            last = withOrigins(await this.runPlanned(out.planned, ctx), out.planned);
            if (out.catalogChanged) last = { ...last, catalog_changed: true };
          } else {
            last = out.result;
            if (out.db) db = out.db;
          }
        } finally {
          await this.dropTemps(ctx);
        }
        previous = ctx.warnings;
      }
      return { ...last, db };
    } catch (err) {
      if (err instanceof ServiceError) {
        const e = this.hinted(err);
        return {
          type: 'error',
          error_code: e.code,
          error_message: e.message,
          ...(e.position ? { error_position: e.position } : {}),
          db,
        };
      }
      throw err;
    }
  }

  private async streamIn(
    session: EngineSession,
    req: ExecuteRequest,
    sink: ResultSink,
    maxRows: number,
  ): Promise<void> {
    let db = this.startDb(req);
    let segs: SqlSegment[];
    try {
      segs = this.segments(req.query);
    } catch (err) {
      if (err instanceof ServiceError)
        return void (await sink.error(err.code, err.message, db, err.position));
      throw err;
    }
    const last = segs[segs.length - 1];
    if (segs.length > 1) {
      const before = await this.executeIn(session, {
        ...req,
        query: req.query.slice(0, last.segmentStart),
      });
      if (before.type === 'error')
        return void (await sink.error(
          before.error_code,
          before.error_message,
          before.db,
          before.error_position,
        ));
      db = before.db;
    }
    const ctx = { ...this.context(session, req, db), answerInBatches: true };
    try {
      if (req.db !== undefined && segs.length === 1) this.catalog.requireDatabase(req.db);
      await this.views.load();
      const out = await this.prepare(last, req.query, ctx);
      const emit = async (r: SqlResult, at: string) => {
        const changed = !!r.catalog_changed;
        if (r.type === 'ok') return sink.ok(r.affected_rows ?? null, at, changed);
        await sink.header(r.column_names, r.column_types ?? [], at, changed, r.column_origins);
        if (r.data.length) await sink.rows(r.data);
        await sink.end(r.data.length, !!r.truncated);
      };
      if (out.kind === 'result') return void (await emit(out.result, out.db ?? db));
      const q = out.planned;
      if (q.stream) return void (await this.streamInBatches(ctx, q, sink, maxRows, db, last));
      await runSteps(this, ctx, q.steps);
      const one = rowResult(q, ctx);
      if (one) return void (await emit(withOrigins(one, q), db));
      if (q.target.kind === 'remote') {
        const r = withOrigins(await this.runPlanned({ ...q, steps: [] }, ctx), q);
        return void (await emit(out.catalogChanged ? { ...r, catalog_changed: true } : r, db));
      }
      let headerSent = false;
      const { rowCount, truncated } = await session.stream(
        q.sql,
        {
          db: q.target.db,
          params: paramsOf(q.sql, ctx.params),
          signal: req.signal,
          maxRows,
          sourceOffset: q.src.scriptOffset(q.rw),
          script: q.src.script,
        },
        {
          header: (columns, types) => {
            headerSent = true;
            const origins = resolveOrigins(q.origins, columns) ?? undefined;
            return sink.header(columns, types, db, !!out.catalogChanged, origins);
          },
          rows: (rows) => sink.rows(rows),
          ok: (n, type) => sink.ok(n, db, !!out.catalogChanged || isCatalogChange(type)),
        },
      );
      if (headerSent) await sink.end(rowCount, truncated);
    } catch (err) {
      if (err instanceof ServiceError) {
        const e = this.hinted(err);
        return void (await sink.error(e.code, e.message, db, e.position));
      }
      throw err;
    } finally {
      await this.dropTemps(ctx);
    }
  }

  /**
   * A streamed SELECT ... JOIN model over one big table (plan/stream-plan.ts): the data is read,
   * predicted and sent chunk by chunk (plan/stream.ts), so memory stays flat whatever the
   * table's size; the rows, values and order are the unbatched answer's. Stops at `maxRows`
   * (`truncated`), as any streamed answer.
   */
  private async streamInBatches(
    ctx: ExecContext,
    q: PlannedQuery,
    sink: ResultSink,
    maxRows: number,
    db: string,
    seg: SqlSegment,
  ): Promise<void> {
    const job = this.scoring.start(seg.sql, `${q.stream?.source ?? 'data'} -> client`);
    let headerSent = false;
    let sent = 0;
    let truncated = false;
    const full = new ServiceError(ERROR_CODES.TOO_LARGE, 'enough rows');
    const send = async () => {
      const r = await ctx.session.stream(
        q.sql,
        {
          db: q.target.kind === 'duckdb' ? q.target.db : undefined,
          params: paramsOf(q.sql, ctx.params),
          signal: ctx.signal,
          maxRows: maxRows - sent,
          sourceOffset: q.src.scriptOffset(q.rw),
          script: q.src.script,
        },
        {
          header: (columns, types) => {
            if (headerSent) return;
            headerSent = true;
            const origins = resolveOrigins(q.origins, columns) ?? undefined;
            return sink.header(columns, types, db, false, origins);
          },
          rows: (rows) => sink.rows(rows),
          ok: () => undefined,
        },
      );
      sent += r.rowCount;
      if (r.truncated) {
        truncated = true;
        throw full;
      }
    };
    try {
      await scoreInBatches(this, ctx, q, this.scoringBatchRows, job, send);
      // No chunk at all (an empty table): the header of the empty answer.
      if (!headerSent) await send();
    } catch (err) {
      if (err !== full) throw err;
    } finally {
      job.end();
    }
    await sink.end(sent, truncated);
  }
}

/** A table result with the models its columns come from (plan/column-origins.ts), when any. */
function withOrigins(r: SqlResult, q: PlannedQuery): SqlResult {
  if (r.type !== 'table') return r;
  const origins = resolveOrigins(q.origins, r.column_names);
  return origins ? { ...r, column_origins: origins } : r;
}
