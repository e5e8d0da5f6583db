/**
 * The grammar of statements about the session and what it sees: USE, SHOW, DESCRIBE, SET
 * model_active, and the MySQL session settings clients send on connect.
 */
import { QUERY_START, end, parseUsing, refusedObject } from './clauses';
import { modelSource } from './grammar-models';
import type { MindsStatement, ShowFilter } from './statement';
import { type Cursor, isOp } from './tokens';

export function parseUse(c: Cursor): MindsStatement {
  c.expectWord('USE');
  const name = c.dottedName('database name');
  end(c, 'USE');
  return { kind: 'use', name };
}

function showFilter(c: Cursor): { filter: ShowFilter; filterStart: number } {
  const filterStart = c.offset();
  if (c.done()) return { filter: {}, filterStart };
  if (c.acceptWord('LIKE')) {
    const like = String(c.literal('a LIKE pattern'));
    // MindsDB's `SHOW MODELS FROM p LIKE '%ai%' WHERE engine = 'openai'`: both apply.
    if (c.acceptWord('WHERE')) {
      const r = c.rest();
      if (!r.text) c.fail('expected a condition after WHERE');
      return { filter: { like, where: r }, filterStart };
    }
    end(c, 'SHOW ... LIKE');
    return { filter: { like }, filterStart };
  }
  if (c.acceptWord('WHERE')) {
    const r = c.rest();
    if (!r.text) c.fail('expected a condition after WHERE');
    return { filter: { where: r }, filterStart };
  }
  return c.fail('expected LIKE or WHERE');
}

export function parseShow(c: Cursor): MindsStatement {
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

const DESCRIBE_OBJECTS = new Set([
  'MODEL',
  'PREDICTOR',
  'PROJECT',
  'DATABASE',
  'VIEW',
  'ML_ENGINE',
  'TABLE',
]);

export function parseDescribe(c: Cursor): MindsStatement | null {
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
  // `DESCRIBE m.drift FROM db (SELECT ...) [USING ...]`: a monitoring attribute's data and options.
  const modelOnly = object === null || object === 'MODEL';
  const source = modelOnly && c.acceptWord('FROM') ? modelSource(c) : undefined;
  const using = modelOnly && c.acceptWord('USING') ? parseUsing(c) : undefined;
  if (!c.done()) {
    if (object || source || using) c.fail('unexpected text after the name');
    return null;
  }
  return {
    kind: 'describe',
    object,
    name,
    ...(source ? { source } : {}),
    ...(using ? { using } : {}),
  };
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

export function parseSet(c: Cursor): MindsStatement | null {
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
  // MindsDB's session flag for showing connection secrets: they are never shown here.
  if (t.word === 'SHOW_SECRETS') {
    c.i++;
    c.acceptOp('=');
    const v = c.literal('TRUE or FALSE');
    end(c, 'SET SHOW_SECRETS');
    if (v === false || v === 0 || String(v).toLowerCase() === 'false') {
      return { kind: 'set-session', what: 'SHOW_SECRETS' };
    }
    return {
      kind: 'refused',
      construct: 'SET SHOW_SECRETS = TRUE',
      hint: 'connection secrets are never shown',
    };
  }
  const scoped = SCOPES.has(t.word) ? c.peek(1) : t;
  if (!scoped) return null;
  // MindsDB's `SET @v = from_env("NAME")` reads the server's environment into a variable.
  if (scoped.kind === 'variable' && c.sig.some((x, k) => k > c.i && x.word === 'FROM_ENV')) {
    return {
      kind: 'refused',
      construct: 'from_env()',
      hint: "this instance does not read its server's environment into SQL",
    };
  }
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
