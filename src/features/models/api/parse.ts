/**
 * Turns the SQL answers about models into typed values: rows of `<project>.models` (every
 * version, upper- or lower-case column names) and `DESCRIBE` tables (the fallback when a server
 * has no REST describe endpoint). Shared by the model page and the create-model form.
 */
import type { SqlTableResponse } from '../../../../contract';

type Table = Pick<SqlTableResponse, 'column_names' | 'data'>;

interface TrainingPhase {
  current: number | null;
  total: number | null;
  name: string | null;
}

/** One version of a model: a row of `<project>.models`. */
export interface ModelVersion {
  name: string;
  project: string;
  engine: string | null;
  version: number;
  active: boolean;
  status: string;
  accuracy: number | null;
  predict: string | null;
  error: string | null;
  selectDataQuery: string | null;
  trainingOptions: Record<string, unknown> | null;
  phase: TrainingPhase;
  tag: string | null;
  createdAt: string | null;
  trainingTime: number | null;
}

/** Statuses during which the model changes by itself (poll while one is shown). */
export function isBusyStatus(status: string | undefined): boolean {
  return !!status && /generating|training|creating|retraining/i.test(status);
}

function colIndex(t: Table, name: string): number {
  const lower = name.toLowerCase();
  return t.column_names.findIndex((c) => c.toLowerCase() === lower);
}

const asString = (v: unknown): string | null =>
  v === null || v === undefined || v === '' ? null : String(v);

const asNumber = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

const asBool = (v: unknown): boolean => v === true || v === 1 || v === 'true' || v === '1';

function asObject(v: unknown): Record<string, unknown> | null {
  if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  if (typeof v === 'string') {
    try {
      const o: unknown = JSON.parse(v);
      if (o && typeof o === 'object' && !Array.isArray(o)) return o as Record<string, unknown>;
    } catch {
      return null;
    }
  }
  return null;
}

/** Rows of `SELECT * FROM <project>.models [WHERE name = ...]`, oldest version first. */
export function parseModelVersions(project: string, t: Table): ModelVersion[] {
  const get = (row: unknown[], name: string) => {
    const i = colIndex(t, name);
    return i >= 0 ? row[i] : undefined;
  };
  return t.data
    .map((r) => ({
      name: asString(get(r, 'NAME')) ?? '',
      project: asString(get(r, 'PROJECT')) ?? project,
      engine: asString(get(r, 'ENGINE')),
      version: asNumber(get(r, 'VERSION')) ?? 1,
      active: colIndex(t, 'ACTIVE') >= 0 ? asBool(get(r, 'ACTIVE')) : true,
      status: (asString(get(r, 'STATUS')) ?? 'unknown').toLowerCase(),
      accuracy: asNumber(get(r, 'ACCURACY')),
      predict: asString(get(r, 'PREDICT')),
      error: asString(get(r, 'ERROR')),
      selectDataQuery: asString(get(r, 'SELECT_DATA_QUERY')),
      trainingOptions: asObject(get(r, 'TRAINING_OPTIONS')),
      phase: {
        current: asNumber(get(r, 'CURRENT_TRAINING_PHASE')),
        total: asNumber(get(r, 'TOTAL_TRAINING_PHASES')),
        name: asString(get(r, 'TRAINING_PHASE_NAME')),
      },
      tag: asString(get(r, 'TAG')),
      createdAt: asString(get(r, 'CREATED_AT')),
      trainingTime: asNumber(get(r, 'TRAINING_TIME')),
    }))
    .filter((v) => v.name !== '')
    .sort((a, b) => a.version - b.version);
}

/** The version a bare model name means: the active one, else the newest. */
export function activeVersion(versions: readonly ModelVersion[]): ModelVersion | undefined {
  return versions.find((v) => v.active) ?? versions.at(-1);
}

/**
 * A newer version that is not active yet: training after RETRAIN, or failed. The active version
 * keeps answering meanwhile.
 */
export function pendingVersion(versions: readonly ModelVersion[]): ModelVersion | undefined {
  const latest = versions.at(-1);
  const active = activeVersion(versions);
  if (!latest || latest === active || !active || latest.version < active.version) return undefined;
  return isBusyStatus(latest.status) || latest.status === 'error' ? latest : undefined;
}

/**
 * A `DESCRIBE` answer as objects. Cells holding JSON text (some servers send objects and lists
 * as strings) are parsed so the result matches the REST describe endpoint's shapes.
 */
export function describeTableToObjects(t: Table): Record<string, unknown>[] {
  return t.data.map((r) => {
    const o: Record<string, unknown> = {};
    t.column_names.forEach((c, i) => {
      let v = r[i];
      if (typeof v === 'string' && /^\s*[[{]/.test(v)) {
        try {
          v = JSON.parse(v);
        } catch {
          /* keep the text */
        }
      }
      o[c.toLowerCase()] = v;
    });
    return o;
  });
}
