/**
 * The model registry: every model version of every project, their training (a queue of worker
 * threads, at most MAX_CONCURRENT_TRAININGS at once), persistence across restarts, and the two
 * things callers do with a complete model: predict and describe. Both the SQL layer and the HTTP
 * routes call this module; it knows neither SQL syntax nor HTTP.
 *
 * Life of a version: `generating` (queued, then fetching its FROM query) -> `training` (worker
 * running, phases from the engine's onProgress) -> `complete` | `error` (reason in ERROR). A new
 * version made by RETRAIN/FINETUNE becomes the active one only when it completes, so predictions
 * keep using the previous version meanwhile.
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import {
  ALLOWED_USING_KEYS,
  AutoMLError,
  deserializeArtifact,
  loadPredictor,
  type CellValue,
  type ModelDescription,
  type Predictor,
} from '../automl/index';
import type { TrainMessage, TrainRequest } from '../automl-worker/protocol';
import type { EngineResult } from '../engine/duckdb';
import type { JsonValue } from '../engine/values';
import { isRemoteIntegration, queryIntegration, readIntegrationRows } from '../integrations';
import { ERROR_CODES, ServiceError, badInput, notFound } from '../errors';
import type { VirtualColumn } from '../sql/virtual';
import { assertValidName, type Catalog } from '../catalog/catalog';
import {
  castColumns,
  inputColumns,
  predictionColumns,
  predictionValues,
  unknownColumns,
  type OutputColumn,
} from './predict';
import { ModelStore, type ModelVersionRecord } from './store';
import { ColumnarBuilder, transferables, type ColumnarDataset } from './training-columns';

export type { ModelVersionRecord, ModelStatus } from './store';

/**
 * What the ENGINE column says. The models come from our own AutoML engine, but MindsDB clients
 * (the JS SDK, the real editor) know 'lightwood' as the default engine and branch on it.
 */
export const ENGINE_NAME = 'lightwood';
/** Rows a training FROM query may return; more fail the training with a clear message. */
export const MAX_TRAINING_ROWS = 5_000_000;
const TRAINING_QUERY_TIMEOUT_MS = 10 * 60_000;
export const DESCRIBE_ATTRIBUTES = ['info', 'features', 'model', 'progress'] as const;

const WORKER_BOOTSTRAP = new URL('../automl-worker/bootstrap.mjs', import.meta.url);
const WORKER_ENTRY = new URL('../automl-worker/train.ts', import.meta.url).href;

/** The 19 columns of `<project>.models` / `models_versions` (DESIGN 3.5), in MindsDB's order. */
export const MODEL_COLUMNS: VirtualColumn[] = [
  { name: 'NAME', type: 'VARCHAR' },
  { name: 'ENGINE', type: 'VARCHAR' },
  { name: 'PROJECT', type: 'VARCHAR' },
  { name: 'ACTIVE', type: 'BOOLEAN' },
  { name: 'VERSION', type: 'BIGINT' },
  { name: 'STATUS', type: 'VARCHAR' },
  { name: 'ACCURACY', type: 'DOUBLE' },
  { name: 'PREDICT', type: 'VARCHAR' },
  { name: 'UPDATE_STATUS', type: 'VARCHAR' },
  { name: 'MINDSDB_VERSION', type: 'VARCHAR' },
  { name: 'ERROR', type: 'VARCHAR' },
  { name: 'SELECT_DATA_QUERY', type: 'VARCHAR' },
  { name: 'TRAINING_OPTIONS', type: 'JSON' },
  { name: 'CURRENT_TRAINING_PHASE', type: 'BIGINT' },
  { name: 'TOTAL_TRAINING_PHASES', type: 'BIGINT' },
  { name: 'TRAINING_PHASE_NAME', type: 'VARCHAR' },
  { name: 'TAG', type: 'VARCHAR' },
  { name: 'CREATED_AT', type: 'TIMESTAMP' },
  { name: 'TRAINING_TIME', type: 'DOUBLE' },
];

/**
 * An ISO instant as DuckDB prints a TIMESTAMP ("2026-01-02 03:04:05.63": trailing zeros of the
 * fraction dropped), so the REST listings and the SQL models table show the same text.
 */
export function timestampText(iso: string): string {
  return iso
    .replace('T', ' ')
    .replace('Z', '')
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}

export interface ModelRef {
  project: string;
  name: string;
  /** A specific version; the active one when omitted. */
  version?: number;
}

export interface TrainingSource {
  /** Database the FROM query runs in. */
  fromDb: string;
  select: string;
}

export interface CreateModelSpec extends TrainingSource {
  project: string;
  name: string;
  target: string;
  using?: Record<string, unknown>;
  tag?: string | null;
  orReplace?: boolean;
  ifNotExists?: boolean;
}

export interface RetrainSpec extends Partial<TrainingSource> {
  target?: string;
  using?: Record<string, unknown>;
  tag?: string | null;
}

export interface PredictOptions {
  /**
   * What to do with columns the model does not know. `error` (default) catches typos such as
   * `sqfeet = 823`, which would otherwise silently predict from a missing value; batch joins pass
   * `ignore` because a table naturally has other columns.
   */
  unknownColumns?: 'error' | 'ignore';
}

export interface ColumnarPrediction {
  record: ModelVersionRecord;
  description: ModelDescription;
  /** The cast input columns (model inputs, null when not supplied). */
  inputs: Record<string, CellValue[]>;
  /** `<target>`, `<target>_confidence`, ... (see predict.ts) and their values. */
  columns: OutputColumn[];
  values: JsonValue[][];
}

interface Job {
  rec: ModelVersionRecord;
  cancelled: boolean;
  worker?: Worker;
}

const ACTIVE_STATES = new Set(['generating', 'training']);
const label = (r: { project: string; name: string }) => `${r.project}.${r.name}`;

/** The primary accuracy: the first metric the engine reports (r2_score or balanced_accuracy_score). */
function primaryAccuracy(acc: Record<string, number>): number | null {
  const v = Object.values(acc)[0];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export interface ModelRegistryOptions {
  catalog: Catalog;
  maxConcurrentTrainings: number;
  /** Reported in MINDSDB_VERSION. */
  version: string;
}

export class ModelRegistry {
  readonly store: ModelStore;
  private readonly catalog: Catalog;
  private readonly predictors = new Map<string, Promise<Predictor>>();
  private readonly queue: Job[] = [];
  private readonly running = new Set<Job>();
  private readonly jobs = new Map<ModelVersionRecord, Job>();
  private readonly waiters = new Set<() => void>();
  private closed = false;

  constructor(private readonly opts: ModelRegistryOptions) {
    this.catalog = opts.catalog;
    this.store = new ModelStore(opts.catalog.dataDir);
  }

  // ---- lookups -------------------------------------------------------------------------------

  /** Every version, optionally of one project, ordered by project, name, version. */
  list(project?: string | null): ModelVersionRecord[] {
    const p = project?.toLowerCase();
    return this.store.records
      .filter((r) => p === undefined || r.project.toLowerCase() === p)
      .sort(
        (a, b) =>
          a.project.localeCompare(b.project) ||
          a.name.localeCompare(b.name) ||
          a.version - b.version,
      );
  }

  /** Distinct model names of a project (for SHOW TABLES and name resolution). */
  modelNames(project: string): string[] {
    return [...new Set(this.list(project).map((r) => r.name))];
  }

  versions(project: string, name: string): ModelVersionRecord[] {
    return this.store.versions(project, name);
  }

  exists(project: string, name: string): boolean {
    return this.store.versions(project, name).length > 0;
  }

  /** True when any project has a model of this name (cheap pre-check for SQL routing). */
  isModelName(name: string): boolean {
    const n = name.toLowerCase();
    return this.store.records.some((r) => r.name.toLowerCase() === n);
  }

  /** The version a reference names (the active one without a version), whatever its status. */
  get(ref: ModelRef): ModelVersionRecord {
    const project = this.catalog.requireProject(ref.project);
    const all = this.store.versions(project, ref.name);
    if (all.length === 0) throw notFound(`Model '${project}.${ref.name}' does not exist`);
    if (ref.version !== undefined) {
      const r = all.find((x) => x.version === ref.version);
      if (!r) {
        throw notFound(
          `Model '${label(all[0])}' has no version ${ref.version}; its versions are ${all.map((x) => x.version).join(', ')}`,
        );
      }
      return r;
    }
    return all.find((x) => x.active) ?? all[all.length - 1];
  }

  /** Like `get`, but only a `complete` version: anything else is MODEL_NOT_READY with the reason. */
  ready(ref: ModelRef): ModelVersionRecord {
    const r = this.get(ref);
    if (r.status === 'complete') return r;
    const which = `Model '${label(r)}' (version ${r.version})`;
    if (r.status === 'error') {
      throw new ServiceError(
        ERROR_CODES.MODEL_NOT_READY,
        `${which} cannot be used: its status is error: ${r.error ?? 'unknown error'}`,
      );
    }
    const phase = r.phase ? ` (phase ${r.phase.current} of ${r.phase.total}: ${r.phase.name})` : '';
    throw new ServiceError(
      ERROR_CODES.MODEL_NOT_READY,
      `${which} is not ready yet: its status is ${r.status}${phase}; wait until it is complete`,
    );
  }

  // ---- the models table ----------------------------------------------------------------------

  /** One row of `<project>.models` (aligned with MODEL_COLUMNS). */
  row(r: ModelVersionRecord): JsonValue[] {
    const options: Record<string, JsonValue> = { target: r.target, using: r.using as JsonValue };
    if (r.mode === 'finetune') options.finetuned_from_version = r.baseVersion;
    return [
      r.name,
      ENGINE_NAME,
      r.project,
      r.active,
      r.version,
      r.status,
      r.accuracy,
      r.target,
      'up_to_date',
      this.opts.version,
      r.error,
      r.selectQuery,
      JSON.stringify(options),
      r.phase?.current ?? null,
      r.phase?.total ?? null,
      r.phase?.name ?? null,
      r.tag,
      timestampText(r.createdAt),
      r.trainingTime,
    ];
  }

  rows(project?: string | null): JsonValue[][] {
    return this.list(project).map((r) => this.row(r));
  }

  // ---- statements that change models ---------------------------------------------------------

  async create(spec: CreateModelSpec): Promise<{ record: ModelVersionRecord; created: boolean }> {
    const project = this.catalog.requireProject(spec.project);
    assertValidName('model', spec.name);
    const { using, tag } = splitUsing(spec.using, spec.tag);
    const existing = () => {
      const all = this.store.versions(project, spec.name);
      if (all.length === 0 || spec.orReplace) return all;
      if (spec.ifNotExists) return this.get({ project, name: spec.name });
      throw new ServiceError(
        ERROR_CODES.CONFLICT,
        `Model '${project}.${all[0].name}' already exists; use CREATE OR REPLACE MODEL, RETRAIN, or DROP MODEL first`,
      );
    };
    const before = existing();
    if (!Array.isArray(before)) return { record: before, created: false };
    // Validate before replacing, so a typo in the new query keeps the old model.
    const target = await this.checkSource(spec, spec.target);
    // Checked again: another statement may have created the name while the query ran.
    const now = existing();
    if (!Array.isArray(now)) return { record: now, created: false };
    if (now.length > 0) this.removeVersions(now);
    const rec = this.newRecord({
      project,
      name: spec.name,
      version: 1,
      active: true,
      target,
      fromDb: this.catalog.requireDatabase(spec.fromDb).name,
      selectQuery: spec.select,
      using,
      mode: 'train',
      baseVersion: null,
      tag,
    });
    this.store.add(rec);
    this.enqueue(rec);
    return { record: rec, created: true };
  }

  /** RETRAIN: a new version with the same query/target/options unless overridden. */
  async retrain(ref: ModelRef, spec: RetrainSpec = {}): Promise<ModelVersionRecord> {
    const base = this.get({ project: ref.project, name: ref.name });
    this.assertNotTraining(base);
    const source = { fromDb: spec.fromDb ?? base.fromDb, select: spec.select ?? base.selectQuery };
    const target = await this.checkSource(source, spec.target ?? base.target);
    this.assertNotTraining(base); // again: a RETRAIN may have started while the query ran
    const split = spec.using
      ? splitUsing(spec.using, spec.tag)
      : { using: base.using, tag: spec.tag ?? base.tag };
    return this.addVersion(base, {
      target,
      fromDb: this.catalog.requireDatabase(source.fromDb).name,
      selectQuery: source.select,
      using: split.using,
      mode: 'train',
      baseVersion: null,
      tag: split.tag,
    });
  }

  /** FINETUNE: a new version continuing from the active (complete) one on new rows. */
  async finetune(
    ref: ModelRef,
    source: TrainingSource,
    using?: Record<string, unknown>,
  ): Promise<ModelVersionRecord> {
    const base = this.ready({ project: ref.project, name: ref.name });
    this.assertNotTraining(base);
    const target = await this.checkSource(source, base.target);
    this.assertNotTraining(base);
    const split = splitUsing(using, base.tag);
    return this.addVersion(base, {
      target,
      fromDb: this.catalog.requireDatabase(source.fromDb).name,
      selectQuery: source.select,
      using: split.using,
      mode: 'finetune',
      baseVersion: base.version,
      tag: split.tag,
    });
  }

  /** DROP MODEL: every version; a training in progress is cancelled (the only way to stop one). */
  drop(ref: ModelRef, ifExists = false): boolean {
    const project = this.catalog.projectInfo(ref.project)?.name;
    const all = project ? this.store.versions(project, ref.name) : [];
    if (all.length === 0) {
      if (ifExists) return false;
      this.catalog.requireProject(ref.project);
      throw notFound(`Model '${project}.${ref.name}' does not exist`);
    }
    this.removeVersions(all);
    this.store.removeModelDir(all[0].project, all[0].name);
    return true;
  }

  /** DROP MODEL p.m.n: one version, never the active one (that would leave the model headless). */
  dropVersion(ref: ModelRef & { version: number }): void {
    const r = this.get(ref);
    if (r.active) {
      throw badInput(
        `Version ${r.version} is the active version of model '${label(r)}'; activate another version first, or drop the whole model with DROP MODEL ${label(r)}`,
      );
    }
    this.removeVersions([r]);
  }

  /** Makes a complete version the one used when no version is named. */
  setActive(ref: ModelRef & { version: number }): ModelVersionRecord {
    const r = this.ready(ref);
    for (const v of this.store.versions(r.project, r.name)) v.active = v === r;
    this.store.save();
    return r;
  }

  /** Hook for DROP PROJECT: refuses while one of its models trains, else removes them all. */
  async dropProject(project: string): Promise<void> {
    const recs = this.list(project);
    const busy = recs.find((r) => ACTIVE_STATES.has(r.status));
    if (busy) {
      throw new ServiceError(
        ERROR_CODES.CONFLICT,
        `Project '${project}' cannot be dropped while model '${label(busy)}' (version ${busy.version}) is ${busy.status}; wait for it or DROP MODEL it first`,
      );
    }
    this.removeVersions(recs);
    fs.rmSync(`${this.store.dir}/${project}`, { recursive: true, force: true });
  }

  // ---- prediction and description ------------------------------------------------------------

  /** The cached predictor of a complete version (artifacts are read once, on first use). */
  predictor(rec: ModelVersionRecord): Promise<Predictor> {
    const key = `${rec.project}/${rec.name}/${rec.version}`.toLowerCase();
    let p = this.predictors.get(key);
    if (!p) {
      const file = this.store.artifactFile(rec.project, rec.name, rec.version);
      p = fs.promises
        .readFile(file, 'utf8')
        .then((s) => loadPredictor(deserializeArtifact(s)))
        .catch((err: unknown) => {
          this.predictors.delete(key);
          throw new ServiceError(
            ERROR_CODES.INTERNAL,
            `The artifact of model '${label(rec)}' version ${rec.version} cannot be loaded: ${err instanceof Error ? err.message : String(err)}`,
          );
        });
      this.predictors.set(key, p);
    }
    return p;
  }

  /**
   * Predicts a columnar batch. `columns` are keyed by any spelling of the model's column names
   * (matched case-insensitively); values are cast to the training types first.
   */
  async predictColumns(
    ref: ModelRef,
    columns: Record<string, readonly unknown[]>,
    n: number,
    opts: PredictOptions = {},
  ): Promise<ColumnarPrediction> {
    const record = this.ready(ref);
    const predictor = await this.predictor(record);
    const desc = predictor.description;
    if ((opts.unknownColumns ?? 'error') === 'error') {
      const unknown = unknownColumns(desc, Object.keys(columns));
      if (unknown.length > 0) {
        throw badInput(
          `Model '${label(record)}' has no input column ${unknown.map((c) => `'${c}'`).join(', ')}; its inputs are: ${desc.inputs.join(', ')}`,
        );
      }
    }
    const byLower = new Map(Object.keys(columns).map((k) => [k.toLowerCase(), k]));
    const canonical: Record<string, readonly unknown[]> = {};
    for (const c of [...desc.inputs, desc.target]) {
      const k = byLower.get(c.toLowerCase());
      if (k !== undefined) canonical[c] = columns[k];
    }
    const { inputs, truth } = castColumns(desc, canonical, n);
    const engineCols: Record<string, CellValue[]> = { ...inputs };
    if (truth) engineCols[desc.target] = truth;
    let preds;
    try {
      if (predictor.predictColumns) preds = predictor.predictColumns(engineCols, n);
      else {
        const rows: Record<string, CellValue>[] = new Array(n);
        const names = Object.keys(engineCols);
        for (let i = 0; i < n; i++) {
          const o: Record<string, CellValue> = {};
          for (const c of names) o[c] = engineCols[c][i];
          rows[i] = o;
        }
        preds = predictor.predict(rows);
      }
    } catch (err) {
      if (err instanceof AutoMLError) throw badInput(err.message);
      throw err;
    }
    return {
      record,
      description: desc,
      inputs,
      columns: predictionColumns(desc),
      values: predictionValues(desc, preds, truth),
    };
  }

  /**
   * Predicts rows given as objects (the HTTP predict body, a SQL WHERE): one object per row with
   * each model input (null when not supplied), the prediction columns, `__service_row_id`,
   * `select_data_query` and `when_data` (DESIGN 3.2).
   */
  async predict(
    ref: ModelRef,
    rows: readonly unknown[],
    opts: PredictOptions = {},
  ): Promise<Record<string, JsonValue>[]> {
    const n = rows.length;
    const columns: Record<string, unknown[]> = {};
    rows.forEach((row, i) => {
      if (row === null || typeof row !== 'object' || Array.isArray(row)) {
        throw badInput(`Row ${i + 1} is not an object of column values`);
      }
      for (const [k, v] of Object.entries(row)) (columns[k] ??= new Array(n).fill(null))[i] = v;
    });
    const p = await this.predictColumns(ref, columns, n, opts);
    const inCols = inputColumns(p.description);
    const out: Record<string, JsonValue>[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const o: Record<string, JsonValue> = {};
      for (const c of inCols) o[c.name] = p.inputs[c.name][i];
      p.columns.forEach((c, j) => (o[c.name] = p.values[j][i]));
      o.__service_row_id = i;
      o.select_data_query = null;
      o.when_data = null;
      out[i] = o;
    }
    return out;
  }

  /**
   * DESCRIBE (DESIGN 3.3). `progress` works in any status; the other forms need a complete model.
   * Values are JSON values (objects and arrays stay structured).
   */
  async describe(ref: ModelRef, attribute?: string | null): Promise<Record<string, JsonValue>[]> {
    const attr = attribute ? attribute.toLowerCase() : '';
    if (attr !== '' && !(DESCRIBE_ATTRIBUTES as readonly string[]).includes(attr)) {
      throw badInput(
        `Unknown attribute '${attribute}' to describe; allowed: ${DESCRIBE_ATTRIBUTES.join(', ')}`,
      );
    }
    if (attr === 'progress') {
      const r = this.get(ref);
      const done = r.status === 'complete';
      // A finished training reports its last phase as done, named by the outcome.
      const total = r.phase?.total ?? (done ? 1 : null);
      return [
        {
          current: done ? total : (r.phase?.current ?? null),
          total,
          name: done || r.status === 'error' ? r.status : (r.phase?.name ?? r.status),
        },
      ];
    }
    const rec = this.ready(ref);
    const d = (await this.predictor(rec)).description;
    if (attr === 'features') {
      return d.features.map((f) => ({
        column: f.column,
        type: f.type,
        encoder: f.encoder,
        role: f.role,
      }));
    }
    if (attr === 'model') {
      return d.candidates.map((c) => ({
        name: c.name,
        performance: c.performance,
        training_time: c.training_time,
        selected: c.selected,
        accuracy_functions: c.accuracy_functions,
      }));
    }
    const info: Record<string, JsonValue> = {
      accuracies: d.accuracies,
      column_importances: d.columnImportances,
      inputs: d.inputs,
      outputs: [d.target],
    };
    if (attr === '') info.model = d.summary;
    return [info];
  }

  /** Resolves when no training is queued or running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.queue.length > 0 || this.running.size > 0) {
      await new Promise<void>((resolve) => this.waiters.add(resolve));
    }
  }

  /**
   * Stops the workers. Their records keep `generating`/`training` on disk, which the next start
   * turns into `error: interrupted by a restart of the instance`.
   */
  async close(): Promise<void> {
    this.closed = true;
    const jobs = [...this.jobs.values()];
    for (const j of jobs) j.cancelled = true;
    this.queue.length = 0;
    await Promise.all(jobs.map((j) => j.worker?.terminate()));
  }

  // ---- internals -----------------------------------------------------------------------------

  private engineDb(db: string): string | undefined {
    const info = this.catalog.requireDatabase(db);
    return info.type === 'system' ? undefined : info.name;
  }

  /**
   * Runs a FROM query where its data lives: in DuckDB, or on a remote integration (PostgreSQL) in
   * its own dialect. Training data does not come through here (`fetchTrainingData` reads an
   * integration chunk by chunk through a server-side cursor); this serves the `LIMIT 0` check.
   */
  private async runSource(
    fromDb: string,
    sql: string,
    o: { maxRows: number; timeoutMs?: number },
  ): Promise<EngineResult> {
    if (isRemoteIntegration(this.catalog, fromDb))
      return queryIntegration(this.catalog, fromDb, sql, o);
    return this.catalog.engine.query(sql, {
      db: this.engineDb(fromDb),
      maxRows: o.maxRows,
      timeoutMs: o.timeoutMs,
    });
  }

  /**
   * Checks the FROM query without fetching its rows (`LIMIT 0`): it must run, and the PREDICT
   * column must be among its columns. Returns the target as spelled in the data.
   */
  private async checkSource(source: TrainingSource, target: string): Promise<string> {
    let columns: string[];
    try {
      const r = await this.runSource(
        source.fromDb,
        `SELECT * FROM (\n${source.select}\n) AS __training_data LIMIT 0`,
        { maxRows: 0 },
      );
      columns = r.columns;
    } catch (err) {
      if (err instanceof ServiceError) {
        throw new ServiceError(
          err.code,
          `The FROM query failed: ${err.message.replace(/ \(line \d+, column \d+\)$/, '')}`,
        );
      }
      throw err;
    }
    const found = columns.find((c) => c.toLowerCase() === target.toLowerCase());
    if (!found) {
      throw badInput(
        `Column '${target}' named in PREDICT is not in the result of the FROM query; its columns are: ${columns.join(', ')}`,
      );
    }
    return found;
  }

  private assertNotTraining(any: ModelVersionRecord): void {
    const busy = this.store
      .versions(any.project, any.name)
      .find((r) => ACTIVE_STATES.has(r.status));
    if (busy) {
      throw new ServiceError(
        ERROR_CODES.CONFLICT,
        `Model '${label(busy)}' is already training (version ${busy.version} is ${busy.status}); wait until it is complete or failed`,
      );
    }
  }

  private newRecord(
    r: Omit<
      ModelVersionRecord,
      'status' | 'accuracy' | 'error' | 'phase' | 'createdAt' | 'trainingTime'
    >,
  ): ModelVersionRecord {
    return {
      ...r,
      status: 'generating',
      accuracy: null,
      error: null,
      phase: null,
      createdAt: new Date().toISOString(),
      trainingTime: null,
    };
  }

  private addVersion(
    base: ModelVersionRecord,
    r: Pick<
      ModelVersionRecord,
      'target' | 'fromDb' | 'selectQuery' | 'using' | 'mode' | 'baseVersion' | 'tag'
    >,
  ): ModelVersionRecord {
    const all = this.store.versions(base.project, base.name);
    if (all.length === 0) throw notFound(`Model '${label(base)}' was dropped meanwhile`);
    const rec = this.newRecord({
      ...r,
      project: base.project,
      name: base.name,
      version: Math.max(...all.map((x) => x.version)) + 1,
      active: false,
    });
    this.store.add(rec);
    this.enqueue(rec);
    return rec;
  }

  private removeVersions(recs: ModelVersionRecord[]): void {
    for (const r of recs) {
      const job = this.jobs.get(r);
      if (job) {
        job.cancelled = true;
        const i = this.queue.indexOf(job);
        if (i >= 0) this.queue.splice(i, 1);
        void job.worker?.terminate();
        this.jobs.delete(r);
      }
      this.predictors.delete(`${r.project}/${r.name}/${r.version}`.toLowerCase());
    }
    this.store.remove(recs);
  }

  private enqueue(rec: ModelVersionRecord): void {
    const job: Job = { rec, cancelled: false };
    this.jobs.set(rec, job);
    this.queue.push(job);
    this.pump();
  }

  private pump(): void {
    while (
      !this.closed &&
      this.running.size < this.opts.maxConcurrentTrainings &&
      this.queue.length > 0
    ) {
      const job = this.queue.shift()!;
      this.running.add(job);
      void this.runJob(job).finally(() => {
        this.running.delete(job);
        this.jobs.delete(job.rec);
        this.pump();
        if (this.queue.length === 0 && this.running.size === 0) {
          for (const w of [...this.waiters]) w();
          this.waiters.clear();
        }
      });
    }
  }

  private async runJob(job: Job): Promise<void> {
    const rec = job.rec;
    const started = Date.now();
    let outcome: { ok: true; accuracy: number | null } | { ok: false; error: string };
    try {
      const data = await this.fetchTrainingData(rec);
      if (job.cancelled) return;
      rec.status = 'training';
      this.store.save();
      const request: TrainRequest = {
        mode: rec.mode,
        data,
        target: rec.target,
        using: rec.using,
        artifactFile: this.store.artifactFile(rec.project, rec.name, rec.version),
        baseArtifactFile:
          rec.baseVersion !== null
            ? this.store.artifactFile(rec.project, rec.name, rec.baseVersion)
            : undefined,
      };
      const msg = await this.runWorker(job, request);
      outcome =
        msg.type === 'done'
          ? { ok: true, accuracy: primaryAccuracy(msg.accuracies) }
          : {
              ok: false,
              error: msg.user ? msg.message : `Training failed unexpectedly: ${msg.message}`,
            };
    } catch (err) {
      outcome = { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    // A dropped model or a shutdown owns the record now: nothing to report.
    if (job.cancelled || this.closed) return;
    rec.trainingTime = Math.round((Date.now() - started) / 10) / 100;
    if (outcome.ok) {
      rec.status = 'complete';
      rec.accuracy = outcome.accuracy;
      rec.error = null;
      // The newest complete version takes over (the previous one served predictions meanwhile).
      for (const v of this.store.versions(rec.project, rec.name)) v.active = v === rec;
      void this.predictor(rec).catch(() => undefined); // warm the cache for the first prediction
    } else {
      rec.status = 'error';
      rec.error = outcome.error;
    }
    this.store.save();
  }

  /**
   * Runs the FROM query in its database and returns its rows in columnar form (typed arrays,
   * handed to the worker without a copy). Rows from an integration go into the columns chunk by
   * chunk as the cursor delivers them, so the rows are never all held as JS arrays here.
   */
  private async fetchTrainingData(rec: ModelVersionRecord): Promise<ColumnarDataset> {
    let b: ColumnarBuilder | undefined;
    let truncated = false;
    try {
      if (isRemoteIntegration(this.catalog, rec.fromDb)) {
        let builder: ColumnarBuilder | undefined;
        const { columns } = await readIntegrationRows(
          this.catalog,
          rec.fromDb,
          rec.selectQuery,
          (chunk, cols) => {
            builder ??= new ColumnarBuilder(cols.map((c) => c.name));
            for (const r of chunk) {
              if (builder.rowCount >= MAX_TRAINING_ROWS) {
                truncated = true;
                return;
              }
              builder.push(r);
            }
          },
          { timeoutMs: TRAINING_QUERY_TIMEOUT_MS },
        );
        b = builder ?? new ColumnarBuilder(columns.map((c) => c.name));
      } else {
        const r = await this.runSource(rec.fromDb, rec.selectQuery, {
          maxRows: MAX_TRAINING_ROWS,
          timeoutMs: TRAINING_QUERY_TIMEOUT_MS,
        });
        if (r.kind === 'table') {
          truncated = r.truncated;
          b = new ColumnarBuilder(r.columns);
          for (const row of r.rows) b.push(row);
        }
      }
    } catch (err) {
      throw new Error(
        `The FROM query failed: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
    if (!b) throw new Error('The FROM query returned no result table');
    if (truncated) {
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
    return b.finish();
  }

  private runWorker(
    job: Job,
    request: TrainRequest,
  ): Promise<Exclude<TrainMessage, { type: 'progress' }>> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (m: Exclude<TrainMessage, { type: 'progress' }>) => {
        if (!settled) {
          settled = true;
          resolve(m);
        }
      };
      // The column buffers move to the worker (no copy); they are unusable here afterwards.
      const worker = new Worker(WORKER_BOOTSTRAP, {
        workerData: { entry: WORKER_ENTRY, request },
        transferList: transferables(request.data),
      });
      job.worker = worker;
      worker.on('message', (m: TrainMessage) => {
        if (m.type === 'progress') {
          // Progress is kept in memory only: rewriting the catalog file on every tick buys nothing
          // (a restart turns an unfinished training into an error anyway).
          job.rec.phase = {
            current: m.progress.phase,
            total: m.progress.total,
            name: m.progress.name,
          };
        } else settle(m);
      });
      worker.on('error', (err) => settle({ type: 'error', message: err.message, user: false }));
      worker.on('exit', (code) =>
        settle({
          type: 'error',
          message: `the training worker stopped (exit code ${code})`,
          user: false,
        }),
      );
    });
  }
}

/** Takes `engine` and `tag` out of USING: they are ours to interpret, not the engine's. */
function splitUsing(
  using: Record<string, unknown> | undefined,
  tag: string | null | undefined,
): { using: Record<string, unknown>; tag: string | null } {
  const rest: Record<string, unknown> = {};
  let t = tag ?? null;
  for (const [k, v] of Object.entries(using ?? {})) {
    const key = k.toLowerCase();
    if (key === 'engine') {
      const e = String(v).toLowerCase();
      if (e !== 'lightwood' && e !== 'automl') {
        throw badInput(
          `ML engine '${String(v)}' is not available in this instance; models train with the built-in AutoML engine (engine 'lightwood')`,
        );
      }
      continue;
    }
    if (key === 'tag') {
      t = v === null ? null : String(v);
      continue;
    }
    // Unknown keys fail the statement now; bad values of known keys fail the training (the engine
    // validates them) and show in ERROR.
    if (!(ALLOWED_USING_KEYS as readonly string[]).includes(key)) {
      throw badInput(
        `Unknown USING option '${k}'; allowed options are: ${ALLOWED_USING_KEYS.join(', ')}`,
      );
    }
    rest[k] = v;
  }
  return { using: rest, tag: t };
}
