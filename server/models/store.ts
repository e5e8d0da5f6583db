/**
 * The durable list of model versions: one record per (project, model, version) in
 * `DATA_DIR/models/models.json`, rewritten atomically on every state change, and the artifact
 * paths `DATA_DIR/models/<project>/<model>/<version>.json` (and `<version>.evidence.json`). Pure bookkeeping: no training, no
 * DuckDB. Kept apart from the registry so the file format is readable in one place.
 */
import type { TrainingSample } from './training-sample';
import fs from 'node:fs';
import path from 'node:path';
import { readJsonFile, sweepTempFiles, writeFileAtomic } from '../engine/atomic';

type ModelStatus = 'generating' | 'training' | 'complete' | 'error';

interface TrainingPhase {
  current: number;
  total: number;
  name: string;
}

/** `ORDER BY ... [GROUP BY ...] WINDOW n HORIZON h` of a time-series model, kept per version. */
export interface TimeSeriesSettings {
  orderBy: string;
  groupBy: string[];
  window: number;
  horizon: number;
}

export interface ModelVersionRecord {
  project: string;
  name: string;
  version: number;
  active: boolean;
  status: ModelStatus;
  /** The PREDICT column as it is spelled in the training data. */
  target: string;
  /**
   * `PREDICT target AS alias`: the name of the prediction columns (`alias`, `alias_confidence`,
   * ...) in SQL and REST answers. Absent: the target's name.
   */
  targetAlias?: string | null;
  /** The database the FROM query runs in (`FROM example_db (SELECT ...)`). */
  fromDb: string;
  selectQuery: string;
  /** USING options as given (without `engine` / `tag`), passed to the engine. */
  using: Record<string, unknown>;
  /** A time-series model's clauses (absent or null: a tabular model). */
  timeseries?: TimeSeriesSettings | null;
  /** `train` starts from scratch; `finetune` continues from `baseVersion`'s artifact. */
  mode: 'train' | 'finetune';
  baseVersion: number | null;
  tag: string | null;
  /**
   * RETRAIN/FINETUNE `USING active = 0`: the version stays inactive when it completes (MindsDB's
   * option). Absent or true: a completed version becomes the active one.
   */
  activateOnComplete?: boolean;
  /** The engine's primary accuracy (r2_score or balanced_accuracy_score) once complete. */
  accuracy: number | null;
  /** The name of that accuracy (`r2_score`, ...); absent in records written before it existed. */
  accuracyMetric?: string | null;
  error: string | null;
  phase: TrainingPhase | null;
  createdAt: string;
  /** Seconds from the start of training (data fetch included) to complete/error. */
  trainingTime: number | null;
  /** Trained on a sample drawn in the source (training-sample.ts); absent: every row. */
  sample?: TrainingSample;
}

interface ModelsFile {
  version: 1;
  models: ModelVersionRecord[];
}

/** Written into ERROR for trainings a restart cut off, so they never show `training` forever. */
export const INTERRUPTED_ERROR = 'interrupted by a restart of the instance';

export class ModelStore {
  readonly dir: string;
  private readonly file: string;
  records: ModelVersionRecord[];

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'models');
    this.file = path.join(this.dir, 'models.json');
    fs.mkdirSync(this.dir, { recursive: true });
    sweepTempFiles(this.dir);
    this.records = readJsonFile<ModelsFile>(this.file)?.models ?? [];
    let changed = false;
    for (const r of this.records) {
      if (r.status === 'generating' || r.status === 'training') {
        // The worker that trained it died with the previous process; nothing will finish it.
        r.status = 'error';
        r.error = INTERRUPTED_ERROR;
        changed = true;
      }
      sweepTempFiles(this.modelDir(r.project, r.name));
    }
    if (changed) this.save();
  }

  /** Persists every record; called after each state change (not on progress ticks, see registry). */
  save(): void {
    const body: ModelsFile = { version: 1, models: this.records };
    writeFileAtomic(this.file, JSON.stringify(body, null, 1));
  }

  modelDir(project: string, name: string): string {
    return path.join(this.dir, project, name);
  }

  artifactFile(project: string, name: string, version: number): string {
    return path.join(this.modelDir(project, name), `${version}.json`);
  }

  /** The held-out rows and training sample a version kept (docs/evaluation.md); may not exist. */
  evidenceFile(project: string, name: string, version: number): string {
    return path.join(this.modelDir(project, name), `${version}.evidence.json`);
  }

  /** All versions of one model, oldest first (names compare case-insensitively, as in SQL). */
  versions(project: string, name: string): ModelVersionRecord[] {
    const p = project.toLowerCase();
    const n = name.toLowerCase();
    return this.records
      .filter((r) => r.project.toLowerCase() === p && r.name.toLowerCase() === n)
      .sort((a, b) => a.version - b.version);
  }

  /** Adds a version; when it cannot be stored (a full disk) it is not added at all. */
  add(rec: ModelVersionRecord): void {
    this.records.push(rec);
    try {
      this.save();
    } catch (err) {
      this.records = this.records.filter((r) => r !== rec);
      throw err;
    }
  }

  remove(recs: ModelVersionRecord[]): void {
    const set = new Set(recs);
    this.records = this.records.filter((r) => !set.has(r));
    this.save();
    for (const r of recs) {
      fs.rmSync(this.artifactFile(r.project, r.name, r.version), { force: true });
      fs.rmSync(this.evidenceFile(r.project, r.name, r.version), { force: true });
    }
  }

  /** Removes a project's folder once it has no model left. */
  removeProjectDir(project: string): void {
    fs.rmSync(path.join(this.dir, project), { recursive: true, force: true });
  }

  /** Removes a model's folder once it has no version left. */
  removeModelDir(project: string, name: string): void {
    fs.rmSync(this.modelDir(project, name), { recursive: true, force: true });
  }
}
