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
 * Purely syntactic: what names mean is decided by the statement handlers. This module dispatches
 * on the first words; the statement families are in grammar-models.ts, grammar-catalog.ts and
 * grammar-session.ts, shared clauses in clauses.ts, the parsed shapes in statement.ts.
 */
import { end, ifExists, ifNotExists, parseUsing, refusedObject, tableQuery } from './clauses';
import { parseDatabaseTail, parseInsert, parseView } from './grammar-catalog';
import {
  parseCreateModel,
  parseDeleteVersions,
  parseEvaluate,
  parseFinetune,
  parseRetrain,
  parseUpdateVersions,
} from './grammar-models';
import { parseDescribe, parseSet, parseShow, parseUse } from './grammar-session';
import type { StatementSource } from './source';
import type { MindsStatement } from './statement';
import { Cursor, type Tokens } from './tokens';

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
