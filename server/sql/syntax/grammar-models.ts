/**
 * The grammar of model statements: CREATE MODEL / PREDICTOR (with the time-series clauses),
 * RETRAIN, FINETUNE, EVALUATE, and UPDATE / DELETE on a project's models_versions table.
 */
import { ERROR_CODES } from '../../errors';
import { end, ifNotExists, parseUsing } from './clauses';
import type {
  Embedded,
  MindsStatement,
  ModelSource,
  TimeSeriesClauses,
  UsingValue,
} from './statement';
import type { Cursor, Literal } from './tokens';

/** `FROM db (query)`, `FROM db.table`, `FROM (query)`, `FROM table`. */
export function modelSource(c: Cursor): ModelSource {
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
  // `FROM income_table` (MindsDB's AI-tables page): a table of the current database.
  if (parts.length < 2) return { db: null, query: { text: '', start: at }, table: parts };
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

export function parseCreateModel(c: Cursor, orReplace: boolean): MindsStatement {
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

export function parseRetrain(c: Cursor): MindsStatement {
  c.expectWord('RETRAIN');
  if (!c.acceptWord('MODEL')) c.acceptWord('PREDICTOR');
  const name = c.dottedName('model name');
  const source = c.acceptWord('FROM') ? modelSource(c) : undefined;
  const target = c.acceptWord('PREDICT') ? targetList(c)[0].name : undefined;
  const using = c.acceptWord('USING') ? parseUsing(c) : undefined;
  end(c, 'RETRAIN');
  return { kind: 'retrain', name, source, target, using };
}

export function parseFinetune(c: Cursor): MindsStatement {
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

export function parseEvaluate(c: Cursor): MindsStatement {
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

/**
 * UPDATE <project>.models_versions SET active = 1 WHERE ... (model versions), and MindsDB's
 * `UPDATE t ON k1, k2 FROM (SELECT ...)`; any other UPDATE is DuckDB's.
 */
export function parseUpdateVersions(c: Cursor): MindsStatement | null {
  c.expectWord('UPDATE');
  const t = c.peek();
  if (!t || !(t.kind === 'word' || t.kind === 'quoted')) return null;
  const table = c.dottedName('table name');
  if (c.acceptWord('ON')) {
    const keys = nameList(c, 'key column');
    c.expectWord('FROM');
    if (!c.isOp('(')) c.fail('expected FROM (SELECT ...)');
    const query = c.parenthesized();
    end(c, 'UPDATE ... ON');
    return { kind: 'update-on', name: table, keys, query };
  }
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
export function parseDeleteVersions(c: Cursor): MindsStatement | null {
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
