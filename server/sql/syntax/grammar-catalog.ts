/**
 * The grammar of catalog statements: CREATE DATABASE ... WITH ENGINE / PARAMETERS, CREATE / ALTER
 * VIEW, and the MindsDB forms of saving query results (INSERT INTO t (SELECT ...)).
 */
import { QUERY_START, ifNotExists, isQueryParen, tableQuery, usingValue } from './clauses';
import type { Embedded, MindsStatement, UsingValue } from './statement';
import { type Cursor, isOp } from './tokens';

export function parseDatabaseTail(
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
      engine = t.value;
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

export function parseView(c: Cursor, alter: boolean, orReplace: boolean): MindsStatement {
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

export function parseInsert(c: Cursor): MindsStatement | null {
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
