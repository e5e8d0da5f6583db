/**
 * What a client's SQL may do to the engine. Every request runs on a fresh connection (see
 * duckdb.ts), so connection state cannot leak; what remains is state that belongs to the whole
 * DuckDB instance and therefore to every client:
 *
 * - statement kinds with instance-wide effects (ATTACH, SET, INSTALL, transactions that would
 *   outlive the acknowledgement, ...), decided on DuckDB's own classification of the prepared
 *   statement, also when wrapped in EXPLAIN ANALYZE (which runs what it explains);
 * - secrets (`CREATE SECRET`), which DuckDB keeps per instance;
 * - table functions that reconfigure the instance (logging, the parser, FORCE CHECKPOINT, which
 *   aborts other clients' transactions) or run SQL from a string and so escape this guard
 *   (`query`, `json_execute_serialized_sql`);
 * - macros and functions named like DuckDB's built-ins: a persistent `CREATE MACRO round(x, n)`
 *   would change `round` for every client. That one is decided on the effect, not on the text:
 *   CREATE statements run in a transaction that is rolled back when DuckDB's own function list
 *   shows a new user function whose name (any case, any catalog or schema) is a built-in's (see
 *   `SHADOWING_FUNCTIONS`).
 *
 * The text checks use a small scanner that knows DuckDB's quoting (strings, E'' strings,
 * dollar-quoted strings, quoted identifiers, nested block comments), so names inside literals
 * and comments are ignored and no quoting hides a name from it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StatementType } from '@duckdb/node-api';
import { ERROR_CODES, ServiceError } from '../errors';

/** Statement kinds a client may not run, with why (the message the client sees). */
const REFUSED: Partial<Record<StatementType, string>> = {
  [StatementType.TRANSACTION]:
    'Transaction control (BEGIN, COMMIT, ROLLBACK) is not supported: every statement commits on its own when it succeeds',
  [StatementType.ATTACH]:
    "ATTACH is not allowed: use CREATE DATABASE ... WITH ENGINE = 'duckdb' (or another engine) to connect data",
  [StatementType.DETACH]: 'DETACH is not allowed: use DROP DATABASE to remove an integration',
  [StatementType.SET]:
    'SET/RESET would change engine settings for every client and is not allowed (USE <database> is supported)',
  [StatementType.VARIABLE_SET]: 'SET VARIABLE is not allowed',
  [StatementType.LOAD]: 'INSTALL and LOAD of engine extensions are not allowed',
  [StatementType.EXTENSION]: 'Extension statements are not allowed',
  [StatementType.UPDATE_EXTENSIONS]: 'UPDATE EXTENSIONS is not allowed',
  [StatementType.PRAGMA]: 'PRAGMA statements change engine settings and are not allowed',
  [StatementType.EXPORT]: 'EXPORT DATABASE / IMPORT DATABASE are not allowed',
  [StatementType.COPY_DATABASE]: 'COPY FROM DATABASE is not allowed',
  [StatementType.PREPARE]: 'PREPARE/EXECUTE are not supported: use :name parameters',
  [StatementType.EXECUTE]: 'PREPARE/EXECUTE are not supported: use :name parameters',
};

/** Table functions a client may not call (lower case), with why. */
const REFUSED_FUNCTIONS: Record<string, string> = {
  enable_logging: 'changes the engine log for every client',
  disable_logging: 'changes the engine log for every client',
  truncate_duckdb_logs: 'clears the engine log of every client',
  enable_peg_parser: 'changes the SQL parser for every client',
  enable_profiling: 'writes profiling output to files',
  disable_profiling: 'belongs with enable_profiling',
  disable_peg_parser: 'changes the SQL parser for every client',
  force_checkpoint: "aborts other clients' transactions",
  query: 'runs SQL from a string, which bypasses the statement checks',
  query_table: 'reads tables named by a string, which bypasses the statement checks',
  json_execute_serialized_sql: 'runs serialized SQL, which bypasses the statement checks',
};

/**
 * Rows (catalog, schema, name) of user functions whose name is a built-in's. A CREATE that adds
 * one is undone.
 */
export const SHADOWING_FUNCTIONS = `SELECT DISTINCT database_name, schema_name, function_name
  FROM duckdb_functions()
  WHERE NOT internal
    AND lower(function_name) IN (SELECT lower(function_name) FROM duckdb_functions() WHERE internal)
  ORDER BY ALL`;

/** A significant token: its kind, its value (literals unquoted) and where it starts and ends. */
export type Token = {
  kind: 'word' | 'ident' | 'string' | 'punct';
  value: string;
  start: number;
  end: number;
};

/**
 * The text quoted from `open` (the opening quote) to its closing quote: a doubled quote is one
 * quote, and in an E'' string a backslash escapes the next character.
 */
function readQuoted(sql: string, open: number, quote: string, backslash: boolean) {
  let value = '';
  let i = open + 1;
  while (i < sql.length) {
    if (backslash && sql[i] === '\\') {
      value += sql[i + 1] ?? '';
      i += 2;
    } else if (sql[i] === quote && sql[i + 1] === quote) {
      value += quote;
      i += 2;
    } else if (sql[i] === quote) {
      return { value, end: i + 1 };
    } else value += sql[i++];
  }
  return { value, end: i };
}

/**
 * The significant tokens of DuckDB SQL: bare words (as written), quoted identifiers and string
 * literals (unquoted values) and punctuation; numbers, whitespace and comments are dropped. Never
 * throws: an unterminated literal or comment swallows the rest, as DuckDB would refuse it anyway.
 */
export function scanSql(sql: string): Token[] {
  const out: Token[] = [];
  const n = sql.length;
  let i = 0;
  while (i < n) {
    const c = sql[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? n : nl + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      // Block comments nest in DuckDB (as in PostgreSQL).
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (sql[i] === '/' && sql[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (sql[i] === '*' && sql[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
    } else if (c === "'" || ((c === 'e' || c === 'E') && sql[i + 1] === "'")) {
      const q = readQuoted(sql, c === "'" ? i : i + 1, "'", c !== "'");
      out.push({ kind: 'string', value: q.value, start: i, end: q.end });
      i = q.end;
    } else if (c === '"') {
      const q = readQuoted(sql, i, '"', false);
      out.push({ kind: 'ident', value: q.value, start: i, end: q.end });
      i = q.end;
    } else if (c === '$') {
      const tag = /^\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(
        sql.slice(i, i + 200),
      );
      if (tag) {
        const close = sql.indexOf(tag[0], i + tag[0].length);
        const end = close < 0 ? n : close;
        const next = close < 0 ? n : close + tag[0].length;
        out.push({ kind: 'string', value: sql.slice(i + tag[0].length, end), start: i, end: next });
        i = next;
      } else {
        // `$1`, `$name`: a parameter
        i++;
        while (i < n && /[A-Za-z0-9_]/.test(sql[i])) i++;
      }
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      const start = i;
      while (i < n && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[i])) i++;
      out.push({ kind: 'word', value: sql.slice(start, i), start, end: i });
    } else if (/[0-9]/.test(c)) {
      // Only digits, a point and an exponent: a letter after a number starts a word (and is seen).
      const m = /^[0-9]*\.?[0-9]*(?:[eE][+-]?[0-9]+)?/.exec(sql.slice(i, i + 400))!;
      i += Math.max(1, m[0].length);
    } else {
      out.push({ kind: 'punct', value: c, start: i, end: i + 1 });
      i++;
    }
  }
  return out;
}

const isPunct = (t: Token | undefined, p: string) => t?.kind === 'punct' && t.value === p;

/** The index after the parenthesis that closes the one at `open`. */
function afterParens(ts: Token[], open: number): number {
  let depth = 0;
  for (let k = open; k < ts.length; k++) {
    if (isPunct(ts[k], '(')) depth++;
    if (isPunct(ts[k], ')') && --depth === 0) return k + 1;
  }
  return ts.length;
}

const isName = (t: Token | undefined): t is Token & { kind: 'word' | 'ident' } =>
  !!t && (t.kind === 'word' || t.kind === 'ident');
const word = (t: Token | undefined) => (t?.kind === 'word' ? t.value.toUpperCase() : '');

/** Throws FORBIDDEN when a client statement of this kind may not run (see REFUSED). */
export function guardStatementType(type: StatementType): void {
  const why = REFUSED[type];
  if (why) throw new ServiceError(ERROR_CODES.FORBIDDEN, why);
}

/**
 * The checks on a client statement's text: refused table functions, secrets, FORCE CHECKPOINT. Returns the statement that EXPLAIN wraps (to be guarded by its own kind), or
 * null.
 */
export function guardStatementText(sql: string): string | null {
  const ts = scanSql(sql);
  for (let k = 0; k < ts.length; k++) {
    const t = ts[k];
    if (!isName(t)) continue;
    const name = t.value.toLowerCase();
    const why = REFUSED_FUNCTIONS[name];
    if (why && ts[k + 1]?.kind === 'punct' && ts[k + 1].value === '(') {
      throw new ServiceError(ERROR_CODES.FORBIDDEN, `${t.value}() is not allowed: it ${why}`);
    }
  }
  let k = 0;
  const lead = () => word(ts[k]);
  if (lead() === 'FORCE' && word(ts[k + 1]) === 'CHECKPOINT') {
    throw new ServiceError(
      ERROR_CODES.FORBIDDEN,
      `FORCE CHECKPOINT is not allowed: it ${REFUSED_FUNCTIONS.force_checkpoint}`,
    );
  }
  if (lead() === 'CREATE') {
    k++;
    if (lead() === 'OR' && word(ts[k + 1]) === 'REPLACE') k += 2;
    while (['TEMP', 'TEMPORARY', 'PERSISTENT'].includes(lead())) k++;
    if (lead() === 'SECRET') {
      throw new ServiceError(
        ERROR_CODES.FORBIDDEN,
        'CREATE SECRET is not allowed: secrets are shared by every client of the instance',
      );
    }
  }
  k = 0;
  if (lead() === 'EXPLAIN') {
    k++;
    if (ts[k]?.kind === 'punct' && ts[k].value === '(') {
      k = afterParens(ts, k);
    } else {
      while (['ANALYZE', 'ANALYSE', 'VERBOSE'].includes(lead())) k++;
    }
    return ts[k] ? sql.slice(ts[k].start) : null;
  }
  return null;
}

/** Where a client's `COPY ... TO` may write, and the files it must never write over. */
export interface WriteRules {
  /** Folders writes may go to; null: anywhere (ALLOW_HOST_FILES=1) but `own`. */
  folders: string[] | null;
  /** The instance's own folder (DATA_DIR), closed to writes except `except` (uploads, exports). */
  own?: { dir: string; except: string[] };
  /** The database files the engine has open (each with its .wal and the like). */
  databases: string[];
}

const inside = (dir: string, p: string) => {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** The real path of `p`, resolving symlinks of its existing part (the rest may not exist yet). */
function realish(p: string): string {
  let head = p;
  const tail: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(head), ...tail.reverse());
    } catch {
      const parent = path.dirname(head);
      if (parent === head) return p;
      tail.push(path.basename(head));
      head = parent;
    }
  }
}

const forbiddenCopy = (why: string) => new ServiceError(ERROR_CODES.FORBIDDEN, why);

/**
 * `COPY ... TO` is the one statement that writes files, and DuckDB's sandbox must leave the
 * database files it has open writable (it checkpoints through the same checks), so this decides
 * where a client's COPY may write: the file name must be a string literal inside `rules.folders`
 * (symbolic links resolved), never a database file, and FILENAME_PATTERN / FILE_EXTENSION may not
 * climb out of it. `COPY ... FROM` only reads and is left to the sandbox.
 */
export function guardCopy(sql: string, rules: WriteRules): void {
  const ts = scanSql(sql);
  let k = 0;
  if (word(ts[k]) !== 'COPY') return;
  k++;
  if (ts[k]?.kind === 'punct' && ts[k].value === '(') {
    k = afterParens(ts, k);
  } else {
    while (isName(ts[k]) && word(ts[k]) !== 'TO' && word(ts[k]) !== 'FROM') {
      k++;
      if (ts[k]?.kind === 'punct' && ts[k].value === '.') k++;
    }
    if (ts[k]?.kind === 'punct' && ts[k].value === '(') {
      while (k < ts.length && !(ts[k].kind === 'punct' && ts[k].value === ')')) k++;
      k++;
    }
  }
  if (word(ts[k]) !== 'TO') return;
  const target = ts[k + 1];
  if (target?.kind !== 'string') {
    throw forbiddenCopy(
      "COPY ... TO takes the file name as a quoted string, e.g. COPY t TO 'exports/t.csv'",
    );
  }
  const raw = target.value.startsWith('~/')
    ? path.join(os.homedir(), target.value.slice(2))
    : target.value;
  const file = realish(path.resolve(raw));
  for (let j = k + 2; j < ts.length; j++) {
    const opt = word(ts[j]);
    if (opt !== 'FILENAME_PATTERN' && opt !== 'FILE_EXTENSION') continue;
    const v = ts[j + 1]?.kind === 'string' ? ts[j + 1] : ts[j + 2];
    if (v?.kind !== 'string' || /[\\/]|\.\./.test(v.value)) {
      throw forbiddenCopy(`${opt} must be a plain name (no folders, no '..')`);
    }
  }
  const dbFiles = rules.databases.flatMap((d) => {
    const r = realish(path.resolve(d));
    return [r, `${r}.wal`, `${r}.wal.checkpoint`, `${r}.wal.recovery`, `${r}.tmp`];
  });
  if (dbFiles.some((d) => file === d || inside(`${d}`, file) || inside(file, d))) {
    throw forbiddenCopy(`COPY ... TO may not write over the instance's database files`);
  }
  const within = (dirs: string[]) => dirs.some((f) => inside(realish(path.resolve(f)), file));
  if (rules.own && within([rules.own.dir]) && !within(rules.own.except)) {
    throw forbiddenCopy(`COPY ... TO may not write the instance's own files`);
  }
  if (rules.folders && !within(rules.folders)) {
    throw forbiddenCopy(
      `COPY ... TO may write only inside ${rules.folders.join(', ')} (set ALLOW_HOST_FILES to open more)`,
    );
  }
}
