/**
 * Statements the instance answers itself, in the shapes the real service uses: USE, SHOW
 * DATABASES, SHOW TABLES, SHOW PROJECTS, CREATE/DROP PROJECT. Listings become virtual tables so
 * LIKE and WHERE behave exactly as in DuckDB.
 */
import type { Catalog } from '../catalog/catalog';
import { Cursor } from './cursor';
import { quoteString } from './lexer';
import type { SqlService } from './service';
import type { ExecContext, Outcome, Statement, StatementHandler } from './types';
import { valuesRelation, type VirtualColumn } from './virtual';
import type { JsonValue } from '../engine/values';

const startsWith = (st: Statement, ...words: string[]) =>
  new Cursor(st.tokens, st.text).isWord(...words);

/** Parses an optional `LIKE 'pattern'` or `WHERE <expr>` tail into SQL for a virtual table. */
export function filterTail(c: Cursor, likeColumn: string): string {
  if (c.done()) return '';
  if (c.acceptWord('LIKE')) {
    const pattern = c.literal();
    if (!c.done()) c.fail('unexpected text after LIKE pattern');
    return ` WHERE "${likeColumn}" ILIKE ${quoteString(String(pattern))}`;
  }
  if (c.isWord('WHERE')) return ` ${c.rest()}`;
  return c.fail('expected LIKE or WHERE');
}

/** Runs `SELECT * FROM (<rows>) <tail>` on the engine: filters and orders a computed listing. */
export async function queryVirtual(
  svc: SqlService,
  columns: VirtualColumn[],
  rows: JsonValue[][],
  tail = '',
  ctx?: ExecContext,
): Promise<Outcome> {
  const r = await svc.catalog.engine.query(
    `SELECT * FROM (${valuesRelation(columns, rows)}) AS v${tail}`,
    {
      signal: ctx?.signal,
    },
  );
  return {
    result: { type: 'table', column_names: r.columns, data: r.rows, column_types: r.types },
  };
}

/** Tables, views and other relations of a database, for SHOW TABLES and the explorer. */
export type TableLister = (db: string) => Promise<{ name: string; type: string }[] | null>;

export function builtinHandlers(
  svc: SqlService,
  extraTables: TableLister[] = [],
): StatementHandler[] {
  const catalog: Catalog = svc.catalog;

  async function duckdbTables(db: string) {
    const rows = await catalog.engine.rows(
      `SELECT table_schema, table_name, table_type FROM information_schema.tables
       WHERE table_catalog = $db ORDER BY table_schema, table_name`,
      { db },
    );
    return rows.map(([schema, name, type]) => ({
      name: schema === 'main' ? String(name) : `${schema}.${name}`,
      type: String(type),
    }));
  }

  return [
    {
      name: 'use',
      match: (st) => startsWith(st, 'USE'),
      async run(st) {
        const c = new Cursor(st.tokens, st.text);
        c.expectWord('USE');
        const [name] = c.dottedName('database name');
        if (!c.done()) c.fail('unexpected text after the database name');
        const info = catalog.requireDatabase(name);
        return { result: { type: 'ok', affected_rows: null }, db: info.name };
      },
    },
    {
      name: 'show-databases',
      match: (st) =>
        startsWith(st, 'SHOW', 'DATABASES') ||
        startsWith(st, 'SHOW', 'FULL', 'DATABASES') ||
        startsWith(st, 'SHOW', 'SCHEMAS'),
      async run(st, ctx) {
        const c = new Cursor(st.tokens, st.text);
        c.expectWord('SHOW');
        const full = c.acceptWord('FULL');
        if (!c.acceptWord('DATABASES')) c.expectWord('SCHEMAS');
        const tail = filterTail(c, 'Database');
        const dbs = catalog.listDatabases();
        const columns: VirtualColumn[] = full
          ? [
              { name: 'Database', type: 'VARCHAR' },
              { name: 'TYPE', type: 'VARCHAR' },
              { name: 'ENGINE', type: 'VARCHAR' },
            ]
          : [{ name: 'Database', type: 'VARCHAR' }];
        const rows = dbs.map((d) => (full ? [d.name, d.type, d.engine] : [d.name]));
        return queryVirtual(svc, columns, rows, tail, ctx);
      },
    },
    {
      name: 'show-projects',
      match: (st) => startsWith(st, 'SHOW', 'PROJECTS'),
      async run(st, ctx) {
        const c = new Cursor(st.tokens, st.text);
        c.expectWord('SHOW', 'PROJECTS');
        const tail = filterTail(c, 'project');
        return queryVirtual(
          svc,
          [{ name: 'project', type: 'VARCHAR' }],
          catalog.listProjects().map((p) => [p]),
          tail,
          ctx,
        );
      },
    },
    {
      name: 'show-tables',
      match: (st) => startsWith(st, 'SHOW', 'TABLES') || startsWith(st, 'SHOW', 'FULL', 'TABLES'),
      async run(st, ctx) {
        const c = new Cursor(st.tokens, st.text);
        c.expectWord('SHOW');
        const full = c.acceptWord('FULL');
        c.expectWord('TABLES');
        let db = ctx.db;
        if (c.acceptWord('FROM') || c.acceptWord('IN')) db = c.dottedName('database name')[0];
        const info = catalog.requireDatabase(db);
        const col = `Tables_in_${info.name}`;
        const tail = filterTail(c, col);
        let tables: { name: string; type: string }[] = [];
        if (info.type === 'system') {
          const rows = await catalog.engine.rows(
            `SELECT DISTINCT table_name FROM information_schema.tables WHERE table_schema = 'information_schema' ORDER BY 1`,
          );
          tables = rows.map((r) => ({ name: String(r[0]), type: 'SYSTEM VIEW' }));
        } else {
          for (const lister of extraTables) {
            const extra = await lister(info.name);
            if (extra) tables.push(...extra);
          }
          tables.push(...(await duckdbTables(info.name)));
        }
        const columns: VirtualColumn[] = full
          ? [
              { name: col, type: 'VARCHAR' },
              { name: 'Table_type', type: 'VARCHAR' },
            ]
          : [{ name: col, type: 'VARCHAR' }];
        return queryVirtual(
          svc,
          columns,
          tables.map((t) => (full ? [t.name, t.type] : [t.name])),
          tail,
          ctx,
        );
      },
    },
    {
      name: 'create-project',
      match: (st) =>
        startsWith(st, 'CREATE', 'PROJECT') ||
        (startsWith(st, 'CREATE', 'DATABASE') && isProjectDatabase(st)),
      async run(st) {
        const c = new Cursor(st.tokens, st.text);
        c.expectWord('CREATE');
        if (!c.acceptWord('PROJECT')) c.expectWord('DATABASE');
        const ifNotExists = c.acceptWord('IF', 'NOT', 'EXISTS');
        const [name] = c.dottedName('project name');
        if (c.acceptWord('WITH')) {
          c.expectWord('ENGINE');
          c.acceptPunct('=');
          c.literal();
        }
        if (!c.done()) c.fail('unexpected text after the project name');
        await catalog.createProject(name, ifNotExists);
        return { result: { type: 'ok', affected_rows: null } };
      },
    },
    {
      name: 'drop-project',
      match: (st) =>
        startsWith(st, 'DROP', 'PROJECT') ||
        (startsWith(st, 'DROP', 'DATABASE') && dropsProject(st, catalog)),
      async run(st) {
        const c = new Cursor(st.tokens, st.text);
        c.expectWord('DROP');
        if (!c.acceptWord('PROJECT')) c.expectWord('DATABASE');
        const ifExists = c.acceptWord('IF', 'EXISTS');
        const [name] = c.dottedName('project name');
        if (!c.done()) c.fail('unexpected text after the project name');
        await catalog.dropProject(name, ifExists);
        return { result: { type: 'ok', affected_rows: null } };
      },
    },
  ];
}

/** `CREATE DATABASE x` without an engine, or `WITH ENGINE = 'mindsdb'`, creates a project. */
function isProjectDatabase(st: Statement): boolean {
  const engineIdx = st.tokens.findIndex(
    (t) => t.kind === 'word' && t.value.toUpperCase() === 'ENGINE',
  );
  if (engineIdx === -1)
    return !st.tokens.some((t) => t.kind === 'word' && t.value.toUpperCase() === 'PARAMETERS');
  const v = st.tokens
    .slice(engineIdx + 1)
    .find((t) => t.kind === 'string' || t.kind === 'ident' || t.kind === 'word');
  return v?.value.toLowerCase() === 'mindsdb';
}

function dropsProject(st: Statement, catalog: Catalog): boolean {
  const c = new Cursor(st.tokens, st.text);
  c.expectWord('DROP', 'DATABASE');
  c.acceptWord('IF', 'EXISTS');
  const name = c.namePart();
  return !!name && catalog.isProject(name);
}
