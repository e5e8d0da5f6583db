/**
 * The grammar of MindsDB's own statements, which DuckDB's parser does not know: models (CREATE
 * MODEL/PREDICTOR with the time-series clauses, RETRAIN, FINETUNE, DESCRIBE, DROP MODEL, SET
 * model_active), databases and projects (CREATE DATABASE ... WITH ENGINE/PARAMETERS, CREATE/DROP
 * PROJECT, USE), views (CREATE VIEW p.v (SELECT ...), CREATE VIEW v FROM db (...), ALTER VIEW,
 * DROP VIEW), SHOW, EVALUATE, CREATE ML_ENGINE, MySQL session statements (SET NAMES, SET @@x),
 * and the MindsDB forms of saving query results (CREATE TABLE t (SELECT ...), INSERT INTO t
 * (SELECT ...)). Embedded queries are kept as text with their offset: they go back through the
 * query planner (and DuckDB's parser) as they are.
 *
 * `parseMindsStatement` returns null for anything else: DuckDB's SQL, passed on to DuckDB.
 * Purely syntactic: what names mean is decided by the statement handlers.
 */
import { ERROR_CODES } from '../../errors';
import { Cursor, isOp, type Literal, type Tokens } from './tokens';
import type { StatementSource } from './source';

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
  | { kind: 'describe'; object: string | null; name: string[] }
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
  | { kind: 'refused'; construct: string; hint?: string };

/** MindsDB objects this instance does not have: refused by name instead of a parser error. */
const UNSUPPORTED_OBJECTS: Record<string, string> = {
  JOB: 'jobs',
  JOBS: 'jobs',
  TRIGGER: 'triggers',
  TRIGGERS: 'triggers',
  CHATBOT: 'chatbots',
  CHATBOTS: 'chatbots',
  AGENT: 'agents',
  AGENTS: 'agents',
  SKILL: 'skills',
  SKILLS: 'skills',
  KNOWLEDGE_BASE: 'knowledge bases',
  KNOWLEDGE_BASES: 'knowledge bases',
  DATASOURCE: 'datasources (use CREATE DATABASE)',
  DATASOURCES: 'datasources (use SHOW DATABASES)',
  INTEGRATION: 'integrations (use CREATE DATABASE)',
  PUBLICATION: 'publications',
  PUBLICATIONS: 'publications',
  STREAM: 'streams',
  STREAMS: 'streams',
  DATASET: 'datasets',
  DATASETS: 'datasets',
};

const QUERY_START = new Set(['SELECT', 'WITH', 'FROM', 'VALUES', 'TABLE']);

export function parseMindsStatement(
  tokens: Tokens,
  src: StatementSource,
  params?: Record<string, unknown>,
): MindsStatement | null {
  const c = new Cursor(tokens, src, params);
  const first = c.peek();
  if (!first) return null;
  switch (first.word) {
    case 'USE':
      return parseUse(c);
    case 'SHOW':
      return parseShow(c);
    case 'CREATE':
      return parseCreate(c);
    case 'DROP':
      return parseDrop(c);
    case 'ALTER':
      return parseAlter(c);
    case 'RETRAIN':
      return parseRetrain(c);
    case 'FINETUNE':
      return parseFinetune(c);
    case 'DESCRIBE':
    case 'DESC':
      return parseDescribe(c);
    case 'SET':
      return parseSet(c);
    case 'EVALUATE':
      return parseEvaluate(c);
    case 'INSERT':
      return parseInsert(c);
    case 'UPDATE':
      return parseUpdateVersions(c);
    case 'DELETE':
      return parseDeleteVersions(c);
    default:
      return null;
  }
}

function end(c: Cursor, what: string): void {
  if (!c.done()) c.fail(`unexpected text at the end of ${what}`);
}

function ifNotExists(c: Cursor): boolean {
  return c.acceptWord('IF', 'NOT', 'EXISTS');
}

function ifExists(c: Cursor): boolean {
  return c.acceptWord('IF', 'EXISTS');
}

function refusedObject(c: Cursor, verb: string): MindsStatement | null {
  let w = c.peek()?.word ?? '';
  if (w === 'KNOWLEDGE' && c.peek(1)?.word === 'BASE') w = 'KNOWLEDGE_BASE';
  if (w === 'KNOWLEDGE' && c.peek(1)?.word === 'BASES') w = 'KNOWLEDGE_BASES';
  if (w === 'ANOMALY' && c.peek(1)?.word === 'DETECTION') {
    return { kind: 'refused', construct: `${verb} ANOMALY DETECTION MODEL` };
  }
  const what = UNSUPPORTED_OBJECTS[w];
  if (!what) return null;
  return {
    kind: 'refused',
    construct: `${verb} ${w.replace('_', ' ')}`,
    hint: `this instance has no ${what}`,
  };
}

function parseUse(c: Cursor): MindsStatement {
  c.expectWord('USE');
  const name = c.dottedName('database name');
  end(c, 'USE');
  return { kind: 'use', name };
}

function showFilter(c: Cursor): { filter: ShowFilter; filterStart: number } {
  const filterStart = c.offset();
  if (c.done()) return { filter: {}, filterStart };
  if (c.acceptWord('LIKE')) {
    const v = c.literal('a LIKE pattern');
    end(c, 'SHOW ... LIKE');
    return { filter: { like: String(v) }, filterStart };
  }
  if (c.acceptWord('WHERE')) {
    const r = c.rest();
    if (!r.text) c.fail('expected a condition after WHERE');
    return { filter: { where: r }, filterStart };
  }
  return c.fail('expected LIKE or WHERE');
}

function parseShow(c: Cursor): MindsStatement {
  c.expectWord('SHOW');
  let full = false;
  while (c.isWord('FULL') || c.isWord('EXTENDED')) {
    if (c.peek()!.word === 'FULL') full = true;
    c.i++;
  }
  const refused = refusedObject(c, 'SHOW');
  if (refused) return refused;
  // Categories of one or two words (SHOW SESSION VARIABLES, SHOW CHARACTER SET).
  const words: string[] = [];
  const w0 = c.peek();
  if (!w0 || !w0.word) return c.fail('expected what to show, e.g. SHOW DATABASES');
  words.push(w0.word);
  c.i++;
  const two = new Set([
    'SESSION',
    'GLOBAL',
    'CHARACTER',
    'TABLE',
    'FUNCTION',
    'PROCEDURE',
    'MASTER',
    'SLAVE',
    'REPLICA',
    'CREATE',
    'KNOWLEDGE',
    'ML',
  ]);
  if (two.has(words[0]) && c.peek()?.word) {
    words.push(c.peek()!.word);
    c.i++;
  }
  const what = words.join(' ');
  let from: string[] | undefined;
  if (c.acceptWord('FROM') || c.acceptWord('IN')) {
    from = c.dottedName('database name');
    // SHOW COLUMNS FROM t FROM db
    if (c.acceptWord('FROM') || c.acceptWord('IN')) from = [...c.dottedName('database'), ...from];
  }
  return { kind: 'show', what, full, from, ...showFilter(c) };
}

/** USING k = v, a.b = v2 (dotted keys nest; values are literals, JSON, or bare words). */
export function parseUsing(c: Cursor): Record<string, UsingValue> {
  const out: Record<string, UsingValue> = {};
  // The Python SDK renders empty options as a bare `USING`.
  if (c.done()) return out;
  do {
    const key = c.dottedName('option name');
    c.expectOp('=');
    const value = usingValue(c);
    let o = out;
    for (const k of key.slice(0, -1)) {
      const next = o[k];
      o = (o[k] = next && typeof next === 'object' && !Array.isArray(next) ? next : {}) as Record<
        string,
        UsingValue
      >;
    }
    o[key[key.length - 1]] = value;
  } while (c.acceptOp(','));
  return out;
}

/** A JSON-ish value: objects and arrays with single or double quotes, literals, bare words. */
function usingValue(c: Cursor): UsingValue {
  if (c.acceptOp('{')) {
    const out: Record<string, UsingValue> = {};
    while (!c.acceptOp('}')) {
      const k = c.peek();
      if (!k || (k.kind !== 'string' && k.kind !== 'quoted' && k.kind !== 'word')) {
        c.fail(`expected a key in {...}`);
      }
      c.i++;
      const colon = c.peek();
      if (colon?.kind === 'param') {
        // `"ssl":true` scans as the key and a parameter `:true`.
        c.i++;
        const w = colon.value.toLowerCase();
        out[k!.value] = w === 'true' ? true : w === 'false' ? false : w === 'null' ? null : w;
      } else {
        if (!c.acceptOp(':') && !c.acceptOp('=')) c.fail(`expected ':' after '${k!.value}'`);
        out[k!.value] = usingValue(c);
      }
      if (!c.acceptOp(',') && !c.isOp('}')) c.fail(`expected ',' or '}'`);
    }
    return out;
  }
  if (c.acceptOp('[')) {
    const arr: UsingValue[] = [];
    while (!c.acceptOp(']')) {
      arr.push(usingValue(c));
      if (!c.acceptOp(',') && !c.isOp(']')) c.fail(`expected ',' or ']'`);
    }
    return arr;
  }
  const t = c.peek();
  if (t?.kind === 'word' && !['TRUE', 'FALSE', 'NULL'].includes(t.word)) {
    // A bare word, or a call such as Filter(x = 1): kept as text.
    c.i++;
    if (c.isOp('(')) {
      const p = c.parenthesized();
      return `${t.raw}(${p.text})`;
    }
    return t.value;
  }
  return c.literal('an option value');
}

/** `FROM db (query)`, `FROM db.table`, `FROM (query)`. */
function modelSource(c: Cursor): ModelSource {
  if (c.isOp('(')) {
    const p = c.parenthesized();
    return { db: null, query: p };
  }
  const at = c.offset();
  const parts = c.dottedName('database name');
  if (c.isOp('(')) {
    if (parts.length !== 1) c.fail('expected FROM <database> (SELECT ...)', undefined, at);
    const p = c.parenthesized();
    return { db: parts[0], query: p };
  }
  if (parts.length < 2) {
    c.fail('expected FROM <database> (SELECT ...) or FROM <database>.<table>', undefined, at);
  }
  return { db: parts[0], query: { text: '', start: at }, table: parts.slice(1) };
}

function targetList(c: Cursor): { name: string; alias?: string }[] {
  const out: { name: string; alias?: string }[] = [];
  do {
    const t = c.peek();
    // MindsDB reads PREDICT "col" as a string naming the column.
    const name = t?.kind === 'string' ? (c.i++, t.value) : c.dottedName('target column').at(-1)!;
    let alias: string | undefined;
    if (c.acceptWord('AS')) alias = c.dottedName('alias')[0];
    out.push({ name, alias });
  } while (c.acceptOp(','));
  return out;
}

function nameList(c: Cursor, what: string): string[] {
  const out: string[] = [];
  do {
    out.push(c.dottedName(what).at(-1)!);
    if (!c.acceptWord('ASC')) c.acceptWord('DESC');
  } while (c.acceptOp(','));
  return out;
}

function parseCreateModel(c: Cursor, orReplace: boolean): MindsStatement {
  if (!c.acceptWord('MODEL')) c.expectWord('PREDICTOR');
  const notExists = ifNotExists(c);
  orReplace = c.acceptWord('OR', 'REPLACE') || orReplace;
  const name = c.dottedName('model name');
  const source = c.acceptWord('FROM') ? modelSource(c) : undefined;
  c.expectWord('PREDICT');
  const targets = targetList(c);
  const ts: TimeSeriesClauses = { orderBy: [], groupBy: [] };
  let timeSeries = false;
  let using: Record<string, UsingValue> | undefined;
  while (!c.done()) {
    if (c.acceptWord('ORDER', 'BY')) ts.orderBy = nameList(c, 'column');
    else if (c.acceptWord('GROUP', 'BY')) ts.groupBy = nameList(c, 'column');
    else if (c.acceptWord('WINDOW')) ts.window = Number(c.literal('a window size'));
    else if (c.acceptWord('HORIZON')) ts.horizon = Number(c.literal('a horizon'));
    else if (c.acceptWord('USING')) {
      using = parseUsing(c);
      continue;
    } else c.fail('expected ORDER BY, GROUP BY, WINDOW, HORIZON or USING');
    timeSeries = true;
  }
  return {
    kind: 'create-model',
    name,
    orReplace,
    ifNotExists: notExists,
    source,
    targets,
    ...(timeSeries ? { timeSeries: ts } : {}),
    ...(using ? { using } : {}),
  };
}

function parseCreate(c: Cursor): MindsStatement | null {
  c.expectWord('CREATE');
  const orReplace = c.acceptWord('OR', 'REPLACE');
  const refused = refusedObject(c, 'CREATE');
  if (refused) return refused;
  const w = c.peek()?.word;
  if (w === 'MODEL' || w === 'PREDICTOR') return parseCreateModel(c, orReplace);
  if (w === 'DATABASE' || w === 'PROJECT') {
    c.i++;
    const notExists = ifNotExists(c);
    const name = c.dottedName(`${w.toLowerCase()} name`);
    if (w === 'PROJECT') {
      end(c, 'CREATE PROJECT');
      return { kind: 'create-project', name, ifNotExists: notExists };
    }
    return parseDatabaseTail(c, name, notExists, orReplace);
  }
  if (w === 'VIEW') return parseView(c, false, orReplace);
  if (w === 'ML_ENGINE') {
    c.i++;
    const notExists = ifNotExists(c);
    const name = c.dottedName('ML engine name');
    c.expectWord('FROM');
    const handler = c.dottedName('handler name').join('.');
    const using = c.acceptWord('USING') ? parseUsing(c) : undefined;
    end(c, 'CREATE ML_ENGINE');
    return { kind: 'create-ml-engine', name, handler, ifNotExists: notExists, using };
  }
  const temp = c.acceptWord('TEMP') || c.acceptWord('TEMPORARY');
  if (c.acceptWord('TABLE')) {
    const notExists = ifNotExists(c);
    const name = c.dottedName('table name');
    const query = tableQuery(c);
    if (!query) return null; // a column list: DuckDB's CREATE TABLE
    return { kind: 'create-table', name, orReplace, ifNotExists: notExists, temp, query };
  }
  return null;
}

/** `[AS] (query)`, `AS query` or MySQL's bare `query` after a table name; null for a column list. */
function tableQuery(c: Cursor): Embedded | null {
  const as = c.acceptWord('AS');
  if (c.isOp('(')) {
    const inner = c.peek(1);
    if (!as && !(inner?.word && QUERY_START.has(inner.word)) && !isOp(inner, '(')) return null;
    const start = c.i;
    const p = c.parenthesized();
    if (c.done()) return p;
    // `AS (SELECT ...) UNION (SELECT ...)`: the whole rest is the query.
    c.i = start;
  } else if (!as && !(c.peek()?.word && QUERY_START.has(c.peek()!.word))) return null;
  const r = c.rest();
  if (!r.text) c.fail('expected a query');
  return r;
}

function parseDatabaseTail(
  c: Cursor,
  name: string[],
  notExists: boolean,
  orReplace: boolean,
): MindsStatement {
  if (!c.acceptWord('WITH')) c.acceptWord('USING');
  let engine: string | undefined;
  let parameters: Record<string, UsingValue> | undefined;
  while (!c.done()) {
    if (c.acceptWord('ENGINE')) {
      c.acceptOp('=');
      const t = c.peek();
      if (!t || (t.kind !== 'string' && t.kind !== 'quoted' && t.kind !== 'word')) {
        c.fail('expected an engine name');
      }
      engine = t!.value;
      c.i++;
    } else if (c.acceptWord('PARAMETERS')) {
      c.acceptOp('=');
      if (!c.isOp('{')) c.fail('expected PARAMETERS = {"name": value, ...}');
      parameters = usingValue(c) as Record<string, UsingValue>;
    } else if (!c.acceptOp(',')) {
      c.fail(`expected ENGINE = '...' or PARAMETERS = {...}`);
    }
  }
  return {
    kind: 'create-database',
    name,
    ifNotExists: notExists,
    orReplace,
    ...(engine !== undefined ? { engine } : {}),
    ...(parameters ? { parameters } : {}),
  };
}

function parseView(c: Cursor, alter: boolean, orReplace: boolean): MindsStatement {
  c.expectWord('VIEW');
  const notExists = ifNotExists(c);
  const name = c.dottedName('view name');
  if (c.isOp('(') && !isQueryParen(c)) {
    c.fail('a column list after the view name is not supported; name the columns in the query');
  }
  let fromDb: string | undefined;
  if (c.acceptWord('FROM')) fromDb = c.dottedName('database name').join('.');
  const query = tableQuery(c);
  if (!query) return c.fail('expected AS (SELECT ...) or (SELECT ...)');
  let text = query.text;
  // MindsDB's `... (SELECT ...) USING k = v`: options for its own views, ignored here.
  const tail = /\)\s*USING\b[\s\S]*$/i.exec(text);
  if (tail && query.text.startsWith('(')) text = text.slice(0, tail.index + 1);
  return {
    kind: 'create-view',
    alter,
    orReplace,
    ifNotExists: notExists,
    name,
    ...(fromDb ? { fromDb } : {}),
    query: { text, start: query.start },
  };
}

function isQueryParen(c: Cursor): boolean {
  const inner = c.peek(1);
  return !!inner && ((!!inner.word && QUERY_START.has(inner.word)) || isOp(inner, '('));
}

function parseDrop(c: Cursor): MindsStatement | null {
  c.expectWord('DROP');
  const refused = refusedObject(c, 'DROP');
  if (refused) return refused;
  const w = c.peek()?.word;
  if (w === 'MODEL' || w === 'PREDICTOR') {
    c.i++;
    const exists = ifExists(c);
    const name = c.dottedName('model name');
    end(c, `DROP ${w}`);
    return { kind: 'drop-model', name, ifExists: exists };
  }
  if (w === 'DATABASE' || w === 'PROJECT' || w === 'SCHEMA') {
    c.i++;
    const exists = ifExists(c);
    const name = c.dottedName(`${w.toLowerCase()} name`);
    if (w === 'SCHEMA' && !c.done()) return null; // DuckDB's DROP SCHEMA ... CASCADE
    end(c, `DROP ${w}`);
    return { kind: 'drop-database', name, ifExists: exists, word: w };
  }
  if (w === 'VIEW') {
    c.i++;
    const exists = ifExists(c);
    const names: string[][] = [];
    do names.push(c.dottedName('view name'));
    while (c.acceptOp(','));
    end(c, 'DROP VIEW');
    return { kind: 'drop-view', names, ifExists: exists };
  }
  if (w === 'ML_ENGINE') {
    c.i++;
    const exists = ifExists(c);
    const name = c.dottedName('ML engine name');
    end(c, 'DROP ML_ENGINE');
    return { kind: 'drop-ml-engine', name, ifExists: exists };
  }
  if (w === 'TABLE') {
    c.i++;
    const exists = ifExists(c);
    const name = c.dottedName('table name');
    if (!c.done()) return null; // DROP TABLE a, b / CASCADE: DuckDB's
    return { kind: 'drop-table', name, ifExists: exists };
  }
  return null;
}

function parseAlter(c: Cursor): MindsStatement | null {
  c.expectWord('ALTER');
  if (c.isWord('VIEW')) return parseView(c, true, true);
  const refused = refusedObject(c, 'ALTER');
  if (refused) return refused;
  if (c.isWord('DATABASE') || c.isWord('MODEL') || c.isWord('PREDICTOR')) {
    return { kind: 'refused', construct: `ALTER ${c.peek()!.word}` };
  }
  return null;
}

function parseRetrain(c: Cursor): MindsStatement {
  c.expectWord('RETRAIN');
  if (!c.acceptWord('MODEL')) c.acceptWord('PREDICTOR');
  const name = c.dottedName('model name');
  const source = c.acceptWord('FROM') ? modelSource(c) : undefined;
  const target = c.acceptWord('PREDICT') ? targetList(c)[0].name : undefined;
  const using = c.acceptWord('USING') ? parseUsing(c) : undefined;
  end(c, 'RETRAIN');
  return { kind: 'retrain', name, source, target, using };
}

function parseFinetune(c: Cursor): MindsStatement {
  c.expectWord('FINETUNE');
  if (!c.acceptWord('MODEL')) c.acceptWord('PREDICTOR');
  const name = c.dottedName('model name');
  if (!c.acceptWord('FROM')) {
    c.fail(
      'FINETUNE needs new data: FINETUNE model FROM <database> (SELECT ...)',
      ERROR_CODES.BAD_INPUT,
    );
  }
  const source = modelSource(c);
  const using = c.acceptWord('USING') ? parseUsing(c) : undefined;
  end(c, 'FINETUNE');
  return { kind: 'finetune', name, source, using };
}

const DESCRIBE_OBJECTS = new Set([
  'MODEL',
  'PREDICTOR',
  'PROJECT',
  'DATABASE',
  'VIEW',
  'ML_ENGINE',
  'TABLE',
]);

function parseDescribe(c: Cursor): MindsStatement | null {
  c.i++;
  const refused = refusedObject(c, 'DESCRIBE');
  if (refused) return refused;
  const w = c.peek()?.word ?? '';
  let object: string | null = null;
  if (DESCRIBE_OBJECTS.has(w) && c.peek(1) && !isOp(c.peek(1), '.')) {
    object = w === 'PREDICTOR' ? 'MODEL' : w;
    c.i++;
  }
  const t = c.peek();
  if (!t || !(t.kind === 'word' || t.kind === 'quoted') || (t.word && QUERY_START.has(t.word))) {
    if (object) c.fail(`expected a ${object.toLowerCase()} name`);
    return null; // DESCRIBE SELECT ...: DuckDB's
  }
  const name = c.dottedName('name');
  if (!c.done()) {
    if (object) c.fail('unexpected text after the name');
    return null;
  }
  return { kind: 'describe', object, name };
}

/**
 * The MySQL session settings clients send on connect, accepted and ignored (nothing of them
 * applies to this engine). Any other SET is DuckDB's, which the engine refuses: engine settings
 * would change for every client.
 */
const MYSQL_SETTINGS = new Set([
  'AUTOCOMMIT',
  'SQL_MODE',
  'TIME_ZONE',
  'SQL_SELECT_LIMIT',
  'SQL_SAFE_UPDATES',
  'NET_WRITE_TIMEOUT',
  'NET_READ_TIMEOUT',
  'WAIT_TIMEOUT',
  'INTERACTIVE_TIMEOUT',
  'CHARACTER_SET_RESULTS',
  'CHARACTER_SET_CLIENT',
  'CHARACTER_SET_CONNECTION',
  'COLLATION_CONNECTION',
  'PROFILING',
  'MAX_EXECUTION_TIME',
  'TX_ISOLATION',
  'TRANSACTION_ISOLATION',
  'TX_READ_ONLY',
  'LC_MESSAGES',
  'SQL_NOTES',
  'UNIQUE_CHECKS',
  'FOREIGN_KEY_CHECKS',
  'AUTO_INCREMENT_INCREMENT',
  'SESSION_TRACK_SCHEMA',
  'SESSION_TRACK_STATE_CHANGE',
]);
const SCOPES = new Set(['SESSION', 'GLOBAL', 'LOCAL', 'PERSIST', 'PERSIST_ONLY']);

function parseSet(c: Cursor): MindsStatement | null {
  c.expectWord('SET');
  const t = c.peek();
  if (!t) return c.fail('expected what to set');
  // SET model_active = p.m.2 (MindsDB's docs) and SET active p.m.`1` (the Python SDK).
  if (t.word === 'MODEL_ACTIVE' || (t.word === 'ACTIVE' && !isOp(c.peek(1), '='))) {
    c.i++;
    c.acceptOp('=');
    const name = c.dottedName('model version');
    end(c, 'SET');
    return { kind: 'set-active', name };
  }
  const scoped = SCOPES.has(t.word) ? c.peek(1) : t;
  if (!scoped) return null;
  const w = scoped.word;
  const mysql =
    w === 'NAMES' ||
    w === 'CHARSET' ||
    (w === 'CHARACTER' && c.peek(SCOPES.has(t.word) ? 2 : 1)?.word === 'SET') ||
    w === 'TRANSACTION' ||
    MYSQL_SETTINGS.has(w) ||
    (scoped.kind === 'variable' &&
      (!scoped.value.startsWith('@@') ||
        MYSQL_SETTINGS.has(
          scoped.value.replace(/^@@((session|global|local)\.)?/i, '').toUpperCase(),
        )));
  return mysql
    ? { kind: 'set-session', what: scoped.kind === 'variable' ? scoped.value : w }
    : null;
}

function parseEvaluate(c: Cursor): MindsStatement {
  c.expectWord('EVALUATE');
  if (c.isWord('KNOWLEDGE_BASE') || c.isWord('KNOWLEDGE')) {
    return {
      kind: 'refused',
      construct: 'EVALUATE KNOWLEDGE_BASE',
      hint: 'this instance has no knowledge bases',
    };
  }
  const metric = c.dottedName('metric name').join('.');
  c.expectWord('FROM');
  if (!c.isOp('(')) c.fail('expected FROM (SELECT ... AS actual, ... AS prediction)');
  const query = c.parenthesized();
  const using = c.acceptWord('USING') ? parseUsing(c) : undefined;
  end(c, 'EVALUATE');
  return { kind: 'evaluate', metric, query, using };
}

function parseInsert(c: Cursor): MindsStatement | null {
  c.expectWord('INSERT');
  if (!c.acceptWord('INTO')) return null; // INSERT OR REPLACE ...: DuckDB's
  const name = c.dottedName('table name');
  let columns: string[] | undefined;
  if (c.isOp('(') && !isQueryParen(c)) {
    c.expectOp('(');
    columns = [];
    do columns.push(c.dottedName('column name').at(-1)!);
    while (c.acceptOp(','));
    c.expectOp(')');
  }
  const t = c.peek();
  if (!t) return c.fail('expected a query or VALUES');
  if (!(isOp(t, '(') || (t.word && QUERY_START.has(t.word)))) return null; // DEFAULT VALUES, BY NAME, ...
  let query: Embedded;
  if (isOp(t, '(')) {
    const at = c.i;
    const p = c.parenthesized();
    if (c.done()) query = p;
    else {
      c.i = at;
      query = c.rest();
    }
  } else query = c.rest();
  if (/\bRETURNING\b|\bON\s+CONFLICT\b/i.test(query.text)) return null; // DuckDB's own forms
  return { kind: 'insert', name, columns, query };
}

/** UPDATE <project>.models_versions SET active = 1 WHERE ... (model versions only). */
function parseUpdateVersions(c: Cursor): MindsStatement | null {
  c.expectWord('UPDATE');
  const t = c.peek();
  if (!t || !(t.kind === 'word' || t.kind === 'quoted')) return null;
  const table = c.dottedName('table name');
  const last = table[table.length - 1].toLowerCase();
  if (last !== 'models_versions' && last !== 'models') return null;
  c.expectWord('SET');
  const set: Record<string, Literal> = {};
  do {
    const col = c.dottedName('column').at(-1)!;
    c.expectOp('=');
    set[col.toLowerCase()] = c.literal();
  } while (c.acceptOp(','));
  let where: Embedded | undefined;
  if (c.acceptWord('WHERE')) where = c.rest();
  end(c, 'UPDATE');
  return { kind: 'update-versions', table, set, where };
}

/** DELETE FROM <project>.models_versions WHERE ... (model versions only). */
function parseDeleteVersions(c: Cursor): MindsStatement | null {
  c.expectWord('DELETE');
  if (!c.acceptWord('FROM')) return null;
  const t = c.peek();
  if (!t || !(t.kind === 'word' || t.kind === 'quoted')) return null;
  const table = c.dottedName('table name');
  const last = table[table.length - 1].toLowerCase();
  if (last !== 'models_versions' && last !== 'models') return null;
  let where: Embedded | undefined;
  if (c.acceptWord('WHERE')) where = c.rest();
  end(c, 'DELETE');
  return { kind: 'delete-versions', table, where };
}
