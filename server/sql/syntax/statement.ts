/**
 * The shapes MindsDB's own statements parse into (what `parseMindsStatement` in grammar.ts
 * returns); the statement handlers and the planner read these.
 */
import type { Literal } from './tokens';

/** Text embedded in a statement (a query, a WHERE expression), with its offset in it. */
export interface Embedded {
  text: string;
  start: number;
}

/** `FROM db (query)`, `FROM db.table`, `FROM (query)`: the data a model learns from. */
export interface ModelSource {
  /** Database the query runs in (null: the current one). */
  db: string | null;
  query: Embedded;
  /** The query was written as `db.table` (the text is generated). */
  table?: string[];
}

export interface TimeSeriesClauses {
  orderBy: string[];
  groupBy: string[];
  window?: number;
  horizon?: number;
}

export interface ShowFilter {
  like?: string;
  where?: Embedded;
}

export type UsingValue = Literal | UsingValue[] | { [k: string]: UsingValue };

export type MindsStatement =
  | { kind: 'use'; name: string[] }
  | {
      kind: 'show';
      what: string;
      full: boolean;
      from?: string[];
      filter: ShowFilter;
      /** Offset of the statement's filter (WHERE/LIKE) or its end. */
      filterStart: number;
    }
  | {
      kind: 'create-model';
      name: string[];
      orReplace: boolean;
      ifNotExists: boolean;
      source?: ModelSource;
      targets: { name: string; alias?: string }[];
      timeSeries?: TimeSeriesClauses;
      using?: Record<string, UsingValue>;
    }
  | {
      kind: 'retrain';
      name: string[];
      source?: ModelSource;
      target?: string;
      using?: Record<string, UsingValue>;
    }
  | { kind: 'finetune'; name: string[]; source: ModelSource; using?: Record<string, UsingValue> }
  | { kind: 'drop-model'; name: string[]; ifExists: boolean }
  | {
      kind: 'describe';
      object: string | null;
      name: string[];
      /** `DESCRIBE m.drift FROM db (query)`: the data a monitoring attribute reads. */
      source?: ModelSource;
      using?: Record<string, UsingValue>;
    }
  | {
      kind: 'create-database';
      name: string[];
      ifNotExists: boolean;
      orReplace: boolean;
      engine?: string;
      parameters?: Record<string, UsingValue>;
    }
  | { kind: 'create-project'; name: string[]; ifNotExists: boolean }
  | { kind: 'drop-database'; name: string[]; ifExists: boolean; word: string }
  | {
      kind: 'create-view';
      alter: boolean;
      orReplace: boolean;
      ifNotExists: boolean;
      name: string[];
      fromDb?: string;
      query: Embedded;
    }
  | { kind: 'drop-view'; names: string[][]; ifExists: boolean }
  | {
      kind: 'create-ml-engine';
      name: string[];
      handler: string;
      ifNotExists: boolean;
      using?: Record<string, UsingValue>;
    }
  | { kind: 'drop-ml-engine'; name: string[]; ifExists: boolean }
  | { kind: 'set-active'; name: string[] }
  | { kind: 'set-session'; what: string }
  | { kind: 'evaluate'; metric: string; query: Embedded; using?: Record<string, UsingValue> }
  | {
      kind: 'create-table';
      name: string[];
      orReplace: boolean;
      ifNotExists: boolean;
      temp: boolean;
      query: Embedded;
    }
  | { kind: 'insert'; name: string[]; columns?: string[]; query: Embedded }
  | { kind: 'drop-table'; name: string[]; ifExists: boolean }
  | {
      kind: 'update-versions';
      table: string[];
      set: Record<string, Literal>;
      where?: Embedded;
    }
  | { kind: 'delete-versions'; table: string[]; where?: Embedded }
  /** MindsDB's `UPDATE t ON k1, k2 FROM (SELECT ...)`: rows matched on the keys get the rest. */
  | { kind: 'update-on'; name: string[]; keys: string[]; query: Embedded }
  | { kind: 'refused'; construct: string; hint?: string };
