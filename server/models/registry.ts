/**
 * The model registry: every model version of every project, found by name and version, with one
 * active version per model, and the statements that change them (create, retrain, finetune, drop,
 * activate). It is the model layer's one entry point: training (trainer.ts), persistence
 * (store.ts), prediction (predict.ts), DESCRIBE (describe.ts) and the models-table rows
 * (models-table.ts) are reached through it. Both the SQL layer and the HTTP routes call it; it
 * knows neither SQL syntax nor HTTP.
 *
 * A new version made by RETRAIN/FINETUNE becomes the active one only when it completes, so
 * predictions keep using the previous version meanwhile.
 */
import fs from 'node:fs';
import type { DriftReport, EffectsReport } from '../../contract';
import {
  ALLOWED_USING_KEYS,
  COMPILE_BATCH_ROWS,
  decideWithThreshold,
  deserializeArtifact,
  descriptionWarnings,
  isForecaster,
  type ModelEvidence,
  type Predictor,
  serializeArtifact,
  serializeEvidence,
} from '../automl/index';
import { writeFileAtomic } from '../engine/atomic';
import type { JsonValue } from '../engine/values';
import { assertValidName } from '../engine/names';
import { ERROR_CODES, ServiceError, badInput, didYouMean, notFound } from '../errors';
import { describeAttribute, describeModel, describeProgress, type DescribeForm } from './describe';
import { EvidenceCache } from './evaluation/evidence-store';
import { EVALUATION_ATTRIBUTES, describeEvaluation } from './evaluation/describe-views';
import { ModelEvaluation } from './evaluation/service';
import { modelRow } from './models-table';
import { exportVersion, type OnnxFile } from './onnx';
import { rowBudget, trainingDataInfo } from './training-sample';
import {
  columnsOfRows,
  isRowArray,
  type InputCells,
  type RowsAsColumns,
  predictBatch,
  cellArrays,
  predictionRows,
  predictInSlices,
  type ColumnarPrediction,
  type PredictOptions,
} from './predict/batch';
import { PredictorCache, stepBetweenTurns } from './predict/cache';
import { predictionJsonPieces, rowObjectPieces } from './predict/json-rows';
import { PREDICT_THREAD_MIN_ROWS, PredictThread } from './predict-thread/index';
import {
  forecastBatch,
  forecastRows,
  type ColumnarForecast,
  type ForecastRequest,
} from './predict/forecast';
import type { ModelCatalog, RemoteDataSource } from './ports';
import { ModelStore, type ModelVersionRecord, type TimeSeriesSettings } from './store';
import { Trainer } from './trainer';
import { TrainingCache } from './training-cache';
import { TrainingData, type TrainingSource } from './training-data';
import { WarmupGate } from './warmup-gate';

/** What card parts may add to the model card's input. */
export interface CardExtras {
  drift: DriftReport | null;
  effects: EffectsReport | null;
}

export interface ModelRef {
  project: string;
  name: string;
  /** A specific version; the active one when omitted. */
  version?: number;
}

export interface CreateModelSpec extends TrainingSource {
  project: string;
  name: string;
  target: string;
  /** `PREDICT target AS alias` (see ModelVersionRecord.targetAlias). */
  targetAlias?: string | null;
  using?: Record<string, unknown>;
  /** ORDER BY / GROUP BY / WINDOW / HORIZON: a time-series model. */
  timeseries?: TimeSeriesSettings | null;
  tag?: string | null;
  orReplace?: boolean;
  ifNotExists?: boolean;
}

export interface RetrainSpec extends Partial<TrainingSource> {
  target?: string;
  using?: Record<string, unknown>;
  tag?: string | null;
}

const ACTIVE_STATES = new Set(['generating', 'training']);
const label = (r: { project: string; name: string }) => `${r.project}.${r.name}`;

export interface ModelRegistryOptions {
  catalog: ModelCatalog;
  /** Where FROM queries on databases outside DuckDB run (the integrations). */
  remote: RemoteDataSource;
  maxConcurrentTrainings: number;
  /** Rows a training reads whole; past it, a sample drawn in the source (training-sample.ts). */
  trainingRowBudget?: number;
  /**
   * Warm a training worker up once HTTP traffic has settled: `quietMs` after the last request was
   * answered, or `unvisitedMs` after start if none came (warmup-gate.ts); null: never.
   */
  trainingWarmup?: { quietMs: number; unvisitedMs: number } | null;
  /** Reuse finished trainings of identical requests from this folder (training-cache.ts). */
  trainingCacheDir?: string | null;
  /** Only models whose name this regular expression matches use that cache; null: every model. */
  trainingCacheModels?: string | null;
  /** Reported in MINDSDB_VERSION. */
  version: string;
  /** How long reading a training's FROM query may take (STATEMENT_TIMEOUT_MS). */
  readTimeoutMs: number;
}

export class ModelRegistry {
  readonly store: ModelStore;
  private readonly catalog: ModelCatalog;
  private readonly data: TrainingData;
  private readonly trainer: Trainer;
  private readonly warmupGate: WarmupGate | null;
  /** On this thread a predictor warms in steps between requests (predict/cache.ts). */
  private readonly predictors = new PredictorCache((p) => p.warmInSteps?.(stepBetweenTurns));
  /** Where big batches are predicted, off the thread that answers requests (predict-thread/). */
  readonly predictThread = new PredictThread();
  private readonly evidences = new EvidenceCache();
  /**
   * Rows explained since start. Explanations cost far more than predictions, so callers ask for
   * them only when needed; this makes "only when needed" observable (tests, diagnostics).
   */
  readonly stats = { explainedRows: 0 };
  /** The evaluation views of a version (docs/evaluation.md). */
  readonly evaluation: ModelEvaluation;
  /**
   * Extra parts of the model card from services built on the registry (server/models/monitoring.ts
   * adds the drift snapshot and the feature effects); wired by server/instance.ts.
   */
  readonly cardParts: ((rec: ModelVersionRecord) => Promise<Partial<CardExtras>>)[] = [];

  constructor(private readonly opts: ModelRegistryOptions) {
    this.catalog = opts.catalog;
    this.store = new ModelStore(opts.catalog.dataDir);
    this.data = new TrainingData(
      opts.catalog,
      opts.remote,
      opts.readTimeoutMs,
      opts.trainingRowBudget,
    );
    this.warmupGate = opts.trainingWarmup ? new WarmupGate(opts.trainingWarmup) : null;
    this.trainer = new Trainer({
      store: this.store,
      data: this.data,
      maxConcurrent: opts.maxConcurrentTrainings,
      warmupGate: this.warmupGate,
      cache: opts.trainingCacheDir
        ? new TrainingCache(opts.trainingCacheDir, opts.trainingCacheModels ?? null)
        : null,
      // Warms the cache for the first prediction, and the prediction thread for the first big one.
      onComplete: (rec) => void this.warmPredictor(rec),
    });
    this.evaluation = new ModelEvaluation(this, opts.catalog.engine);
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

  /** A model that does not exist, with the project's closest model name as a suggestion. */
  unknownModel(project: string, name: string): ServiceError {
    const hint = didYouMean(name, this.modelNames(project));
    return notFound(`Model '${project}.${name}' does not exist${hint ? `.${hint}` : ''}`);
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
    if (all.length === 0) throw this.unknownModel(project, ref.name);
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
    return modelRow(r, this.opts.version);
  }

  rows(project?: string | null): JsonValue[][] {
    return this.list(project).map((r) => this.row(r));
  }

  // ---- statements that change models ---------------------------------------------------------

  async create(spec: CreateModelSpec): Promise<{ record: ModelVersionRecord; created: boolean }> {
    const project = this.catalog.requireProject(spec.project);
    assertValidName('model', spec.name);
    const { using, tag } = splitUsing(spec.using, spec.tag);
    rowBudget(using, 0); // a bad USING sample_rows fails the statement, not the training
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
    const ts = spec.timeseries ?? null;
    const target = await this.data.check(spec, spec.target, clauseColumns(ts));
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
      ...(spec.targetAlias ? { targetAlias: spec.targetAlias } : {}),
      fromDb: this.catalog.requireDatabase(spec.fromDb).name,
      selectQuery: spec.select,
      using,
      ...(ts ? { timeseries: ts } : {}),
      mode: 'train',
      baseVersion: null,
      tag,
    });
    this.store.add(rec);
    this.trainer.enqueue(rec);
    return { record: rec, created: true };
  }

  /** RETRAIN: a new version with the same query/target/options unless overridden. */
  async retrain(ref: ModelRef, spec: RetrainSpec = {}): Promise<ModelVersionRecord> {
    const base = this.get({ project: ref.project, name: ref.name });
    this.assertNotTraining(base);
    const source = { fromDb: spec.fromDb ?? base.fromDb, select: spec.select ?? base.selectQuery };
    const target = await this.data.check(
      source,
      spec.target ?? base.target,
      clauseColumns(base.timeseries),
    );
    this.assertNotTraining(base); // again: a RETRAIN may have started while the query ran
    const split = spec.using
      ? splitUsing(spec.using, spec.tag)
      : { using: base.using, tag: spec.tag ?? base.tag, activate: true };
    return this.addVersion(base, {
      target,
      // A RETRAIN that names another PREDICT column names its predictions after it.
      targetAlias: spec.target === undefined ? (base.targetAlias ?? null) : null,
      fromDb: this.catalog.requireDatabase(source.fromDb).name,
      selectQuery: source.select,
      using: split.using,
      mode: 'train',
      baseVersion: null,
      tag: split.tag,
      activateOnComplete: split.activate,
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
    const target = await this.data.check(source, base.target, clauseColumns(base.timeseries));
    this.assertNotTraining(base);
    const split = splitUsing(using, base.tag);
    return this.addVersion(base, {
      target,
      targetAlias: base.targetAlias ?? null,
      fromDb: this.catalog.requireDatabase(source.fromDb).name,
      selectQuery: source.select,
      using: split.using,
      mode: 'finetune',
      baseVersion: base.version,
      tag: split.tag,
      activateOnComplete: split.activate,
    });
  }

  /** DROP MODEL: every version; a training in progress is cancelled (the only way to stop one). */
  drop(ref: ModelRef, ifExists = false): boolean {
    const project = this.catalog.projectInfo(ref.project)?.name;
    const all = project ? this.store.versions(project, ref.name) : [];
    if (all.length === 0) {
      if (ifExists) return false;
      this.catalog.requireProject(ref.project);
      throw this.unknownModel(project ?? ref.project, ref.name);
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
    this.store.removeProjectDir(project);
  }

  // ---- prediction and description ------------------------------------------------------------

  /**
   * Loads a version's predictor here and, for a tabular model, has the prediction thread load it
   * and warm its compiled trees (predict-thread/): started for it when the instance warms up its
   * trainer too (not in tests), else only when it runs already.
   */
  private async warmPredictor(rec: ModelVersionRecord): Promise<void> {
    const p = await this.predictor(rec).catch(() => null);
    if (!p || isForecaster(p)) return;
    const file = this.store.artifactFile(rec.project, rec.name, rec.version);
    this.predictThread.warm(rec, file, this.warmupGate !== null);
  }

  /**
   * The cached predictor of a complete version (artifacts are read once, on first use). An
   * artifact that cannot be read or is damaged puts the version in `error` with the reason (it will
   * not heal by itself: retrain it), and the caller gets the 409 a model in error gives.
   */
  async predictor(rec: ModelVersionRecord): Promise<Predictor> {
    const file = this.store.artifactFile(rec.project, rec.name, rec.version);
    try {
      const p = await this.predictors.get(rec, file);
      // Records written before the metric's name was kept learn it from their artifact.
      if (rec.accuracyMetric === undefined)
        rec.accuracyMetric = Object.keys(p.description.accuracies)[0] ?? null;
      return p;
    } catch (err) {
      if (rec.status === 'complete') {
        rec.status = 'error';
        rec.error = `its stored artifact ${file} is missing or damaged (${err instanceof Error ? err.message : String(err)}); retrain the model`;
        try {
          this.store.save();
        } catch {
          // The state in memory says error; nothing else to do on a full disk.
        }
      }
      this.ready(rec);
      throw err;
    }
  }

  /**
   * The evidence a complete version kept at training (docs/evaluation.md): held-out rows with
   * their predictions, a training sample, the candidates. Null when the version has none.
   */
  async evidence(ref: ModelRef): Promise<ModelEvidence | null> {
    const rec = this.ready(ref);
    return this.evidences.get(rec, this.store.evidenceFile(rec.project, rec.name, rec.version));
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
    const p = isForecaster(predictor)
      ? predictBatch(record, predictor, columns, n, opts)
      : await this.predictTabular(record, predictor, columns, n, opts);
    if (p.explained) this.stats.explainedRows += n;
    return p;
  }

  /**
   * A tabular batch: small ones here, big ones on the prediction thread in slices, so the thread
   * that answers every request is not held by a prediction (predict-thread/).
   */
  private predictTabular(
    record: ModelVersionRecord,
    predictor: Predictor,
    columns: Record<string, InputCells>,
    n: number,
    opts: PredictOptions,
  ): Promise<ColumnarPrediction> {
    // A batch big enough for the compiled trees goes to the prediction thread while this thread
    // still warms them in steps (walking them meanwhile, several times slower): the thread warmed
    // them in one go when it loaded the model, off the thread that answers requests.
    const here =
      n < PREDICT_THREAD_MIN_ROWS &&
      !(n >= COMPILE_BATCH_ROWS && predictor.stillWarming?.() === true);
    if (here) return Promise.resolve(predictBatch(record, predictor, columns, n, opts));
    const file = this.store.artifactFile(record.project, record.name, record.version);
    return predictInSlices(record, predictor, columns, n, opts, (slice, m) =>
      this.predictThread.predict(record, file, predictor.description, slice, m, opts),
    );
  }

  /**
   * Predicts rows given as objects (the HTTP predict body, a SQL WHERE): one object per row with
   * each model input (null when not supplied), the prediction columns, `__service_row_id`,
   * `select_data_query` and `when_data` (docs/DESIGN.md 3.2).
   */
  async predict(
    ref: ModelRef,
    rows: readonly unknown[],
    opts: PredictOptions & Pick<ForecastRequest, 'horizon'> = {},
  ): Promise<Record<string, JsonValue>[]> {
    const p = await this.predictObjects(
      ref,
      { columns: columnsOfRows(rows), n: rows.length },
      opts,
    );
    return p.kind === 'forecast'
      ? forecastRows(p.forecast)
      : predictionRows(p.tabular, rows.length);
  }

  /**
   * The REST predict answer of `predict`'s rows, each with MindsDB's `__mindsdb_row_id` beside
   * `__service_row_id`, as JSON text in pieces: a tabular model's rows are written from the
   * columns (predict/json-rows.ts), never built as objects. The rows may come as columns already
   * (`RowsAsColumns`: the HTTP body read into columns), as `columnsOfRows` would make them.
   */
  async predictJson(
    ref: ModelRef,
    rows: readonly unknown[] | RowsAsColumns,
    opts: PredictOptions & Pick<ForecastRequest, 'horizon'> = {},
  ): Promise<Iterable<string | Uint8Array>> {
    const input = isRowArray(rows) ? { columns: columnsOfRows(rows), n: rows.length } : rows;
    const p = await this.predictObjects(ref, input, { ...opts, texts: true });
    return p.kind === 'forecast'
      ? rowObjectPieces(forecastRows(p.forecast))
      : predictionJsonPieces(p.tabular, input.n, input.text && { ...input.text, input });
  }

  private async predictObjects(
    ref: ModelRef,
    { columns, n }: RowsAsColumns,
    opts: PredictOptions & Pick<ForecastRequest, 'horizon'>,
  ): Promise<
    | { kind: 'forecast'; forecast: ColumnarForecast }
    | { kind: 'tabular'; tabular: ColumnarPrediction }
  > {
    const record = this.ready(ref);
    const predictor = await this.predictor(record);
    // A time-series model reads the rows as history and answers its forecast after each group.
    if (isForecaster(predictor)) {
      const forecast = forecastBatch(record, predictor, cellArrays(columns), n, {
        horizon: opts.horizon,
      });
      return { kind: 'forecast', forecast };
    }
    if (opts.horizon !== undefined) {
      throw badInput(
        `Model '${record.project}.${record.name}' is not a time-series model; params.horizon applies only to models trained with ORDER BY ... WINDOW ... HORIZON`,
      );
    }
    return {
      kind: 'tabular',
      tabular: await this.predictTabular(record, predictor, columns, n, opts),
    };
  }

  /**
   * Forecasts with a time-series model from history rows in columns (see `forecastBatch`); a
   * tabular model is a BAD_INPUT saying how to predict with it.
   */
  async forecast(
    ref: ModelRef,
    columns: Record<string, readonly unknown[]>,
    n: number,
    opts: ForecastRequest = {},
  ): Promise<ColumnarForecast> {
    const record = this.ready(ref);
    const predictor = await this.predictor(record);
    if (!isForecaster(predictor)) {
      throw badInput(
        `Model '${record.project}.${record.name}' is not a time-series model (it was not trained with ORDER BY ... WINDOW ... HORIZON)`,
      );
    }
    return forecastBatch(record, predictor, columns, n, opts);
  }

  /**
   * DESCRIBE (docs/DESIGN.md 3.3). `progress` works in any status; the other forms need a complete model.
   * Values are JSON values (objects and arrays stay structured); `text` shows the metrics and
   * warnings as sentences (SQL DESCRIBE).
   */
  async describe(
    ref: ModelRef,
    attribute?: string | null,
    form: DescribeForm = 'json',
  ): Promise<Record<string, JsonValue>[]> {
    const lower = attribute?.toLowerCase() ?? '';
    if ((EVALUATION_ATTRIBUTES as readonly string[]).includes(lower))
      return describeEvaluation(this.evaluation, ref, lower);
    const attr = describeAttribute(attribute);
    if (attr === 'progress') return describeProgress(this.get(ref));
    const rec = this.ready(ref);
    const rows = describeModel(
      (await this.predictor(rec)).description,
      attr,
      form,
      rec.targetAlias,
    );
    if (attr === '' || attr === 'info') rows[0].training_data = trainingDataInfo(rec.sample, form);
    return rows;
  }

  /**
   * The model card of a complete version: one self-contained HTML page (models/card/) and the
   * file name to save it under. The card module (and its chart library) loads on first use.
   */
  async card(
    ref: ModelRef,
    opts: { groups?: string[]; threshold?: number } = {},
  ): Promise<{ html: string; fileName: string }> {
    const rec = this.ready(ref);
    const description = (await this.predictor(rec)).description;
    const evaluation = await this.evaluation.card({ ...ref, version: rec.version }, opts);
    const { renderModelCard } = await import('./card/card');
    const parts = await Promise.all(this.cardParts.map((part) => part(rec)));
    const html = renderModelCard({
      record: rec,
      versions: this.versions(rec.project, rec.name),
      description,
      warnings: descriptionWarnings(description),
      instanceVersion: this.opts.version,
      generatedAt: new Date(),
      evaluation,
      ...Object.assign({}, ...parts),
    });
    return { html, fileName: `${rec.project}.${rec.name}.v${rec.version}.html` };
  }

  /**
   * A new complete version made from `base` without training: its artifact and evidence with the
   * decision changed (a saved threshold), `using` recording how. It becomes the active version,
   * so activating `base` again undoes it.
   */
  async deriveVersion(
    base: ModelVersionRecord,
    using: Record<string, unknown>,
    change: { threshold: number; positive: string | number | boolean },
  ): Promise<ModelVersionRecord> {
    this.assertNotTraining(base);
    const artifact = deserializeArtifact(
      await fs.promises.readFile(
        this.store.artifactFile(base.project, base.name, base.version),
        'utf8',
      ),
    );
    if ('kind' in artifact)
      throw badInput('A threshold applies to binary classifiers, not to forecasts');
    const evidence = await this.evidence({ ...base, version: base.version });
    const next = decideWithThreshold(artifact, evidence, change);
    const all = this.store.versions(base.project, base.name);
    const rec: ModelVersionRecord = {
      ...this.newRecord({
        project: base.project,
        name: base.name,
        version: Math.max(...all.map((x) => x.version)) + 1,
        active: false,
        target: base.target,
        fromDb: base.fromDb,
        selectQuery: base.selectQuery,
        using,
        ...(base.timeseries ? { timeseries: base.timeseries } : {}),
        mode: 'train',
        baseVersion: null,
        tag: base.tag,
      }),
      status: 'complete',
      accuracy: primaryOf(next.artifact.description.accuracies),
      accuracyMetric: Object.keys(next.artifact.description.accuracies)[0] ?? null,
      trainingTime: 0,
    };
    if (next.evidence)
      writeFileAtomic(
        this.store.evidenceFile(rec.project, rec.name, rec.version),
        serializeEvidence(next.evidence),
      );
    writeFileAtomic(
      this.store.artifactFile(rec.project, rec.name, rec.version),
      serializeArtifact(next.artifact),
    );
    this.store.add(rec);
    for (const v of this.store.versions(rec.project, rec.name)) v.active = v === rec;
    this.store.save();
    return rec;
  }

  /**
   * The ONNX model of a complete tabular version (see onnx.ts); a model ONNX cannot express is a
   * 422 naming the part. Its artifact is checked through the predictor first, as for predictions.
   */
  async onnx(ref: ModelRef): Promise<OnnxFile> {
    const rec = this.ready(ref);
    await this.predictor(rec);
    const file = this.store.artifactFile(rec.project, rec.name, rec.version);
    return exportVersion(rec, file, this.opts.version);
  }

  /** Resolves when no training is queued or running (tests, shutdown). */
  idle(): Promise<void> {
    return this.trainer.idle();
  }

  /**
   * An HTTP request arrived (the training warm-up waits for requests to settle); returns what to
   * call once it is answered or abandoned.
   */
  requestSeen(): () => void {
    return this.warmupGate?.request() ?? (() => undefined);
  }

  /** Resolves once the warm-up's moment has come and it started a worker or stood aside. */
  warmupDecided(): Promise<void> {
    return this.trainer.warmupDecided;
  }

  /** Training workers started so far, and whether one is idle, kept for the next training. */
  trainingWorkers(): { started: number; idle: boolean } {
    return this.trainer.workers();
  }

  /** The most trainings that ran at once so far (MAX_CONCURRENT_TRAININGS bounds it). */
  peakTrainings(): number {
    return this.trainer.peakConcurrency();
  }

  /**
   * Stops the workers. Their records keep `generating`/`training` on disk, which the next start
   * turns into `error: interrupted by a restart of the instance`.
   */
  async close(): Promise<void> {
    await Promise.all([this.trainer.close(), this.evaluation.close(), this.predictThread.close()]);
  }

  // ---- internals -----------------------------------------------------------------------------

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
      | 'target'
      | 'targetAlias'
      | 'fromDb'
      | 'selectQuery'
      | 'using'
      | 'mode'
      | 'baseVersion'
      | 'tag'
      | 'activateOnComplete'
    >,
  ): ModelVersionRecord {
    const all = this.store.versions(base.project, base.name);
    if (all.length === 0) throw notFound(`Model '${label(base)}' was dropped meanwhile`);
    const rec = this.newRecord({
      ...r,
      // RETRAIN and FINETUNE keep a time-series model's clauses.
      ...(base.timeseries ? { timeseries: base.timeseries } : {}),
      project: base.project,
      name: base.name,
      version: Math.max(...all.map((x) => x.version)) + 1,
      active: false,
    });
    this.store.add(rec);
    this.trainer.enqueue(rec);
    return rec;
  }

  private removeVersions(recs: ModelVersionRecord[]): void {
    for (const r of recs) {
      this.trainer.cancel(r);
      this.predictors.delete(r);
      this.predictThread.forget(r);
      this.evidences.delete(r);
    }
    this.store.remove(recs);
  }
}

const primaryOf = (acc: Record<string, number>) => Object.values(acc)[0] ?? null;

/** The columns a time-series model's clauses name, for the FROM query check. */
function clauseColumns(ts: TimeSeriesSettings | null | undefined) {
  if (!ts) return [];
  return [
    { clause: 'ORDER BY', name: ts.orderBy },
    ...ts.groupBy.map((g) => ({ clause: 'GROUP BY', name: g })),
  ];
}

/**
 * Takes `engine`, `tag` and `active` out of USING: they are ours to interpret, not the engine's.
 * `active = 0` (RETRAIN/FINETUNE) keeps the new version inactive when it completes.
 */
function splitUsing(
  using: Record<string, unknown> | undefined,
  tag: string | null | undefined,
): { using: Record<string, unknown>; tag: string | null; activate: boolean } {
  const rest: Record<string, unknown> = {};
  let t = tag ?? null;
  let activate = true;
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
    if (key === 'active') {
      activate = activeFlag(v);
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
  return { using: rest, tag: t, activate };
}

/** MindsDB's `active = 0/1` (also true/false, '0'/'1'). */
function activeFlag(v: unknown): boolean {
  if (v === 1 || v === true || v === '1' || (typeof v === 'string' && v.toLowerCase() === 'true'))
    return true;
  if (v === 0 || v === false || v === '0' || (typeof v === 'string' && v.toLowerCase() === 'false'))
    return false;
  throw badInput(`USING active must be 0 or 1, got ${JSON.stringify(v)}`);
}
