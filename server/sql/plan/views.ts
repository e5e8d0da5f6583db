/**
 * Views created with MindsDB's CREATE VIEW, which may read models, integrations and native
 * queries: their query must run again through the planner every time the view is read (so a
 * view over a model re-predicts on the current data with the current model version). Each one is
 * kept as a DuckDB view of the right columns and no rows (so listings, DESCRIBE and the explorer
 * see it) whose COMMENT holds the query and the database it runs in; the planner expands it.
 */
import type { Engine } from '../../engine/duckdb';
import { quoteIdent, quoteString } from '../../engine/quote';

export interface StoredView {
  catalog: string;
  schema: string;
  name: string;
  /** The database the query runs in (its bare names resolve there). */
  db: string;
  sql: string;
}

const MARK = 'mindsdb_view';
const key = (catalog: string, schema: string, name: string) =>
  `${catalog}.${schema}.${name}`.toLowerCase();

export class ViewStore {
  private readonly views = new Map<string, StoredView>();
  private loaded: Promise<void> | null = null;

  constructor(private readonly engine: Engine) {}

  /** Reads the views of every attached database (once; later calls wait for the first). */
  load(): Promise<void> {
    this.loaded ??= (async () => {
      const rows = await this.engine.rows(
        `SELECT database_name, schema_name, view_name, comment FROM duckdb_views()
         WHERE NOT internal AND comment LIKE '{"${MARK}"%'`,
      );
      this.views.clear();
      for (const [catalog, schema, name, comment] of rows) {
        const v = parseComment(String(comment));
        if (v)
          this.remember({
            catalog: String(catalog),
            schema: String(schema),
            name: String(name),
            ...v,
          });
      }
    })();
    return this.loaded;
  }

  /** Forgets everything and reads again (after DROP PROJECT, DROP DATABASE). */
  reload(): Promise<void> {
    this.loaded = null;
    return this.load();
  }

  find(catalog: string, name: string, schema = 'main'): StoredView | undefined {
    return this.views.get(key(catalog, schema, name));
  }

  list(catalog?: string): StoredView[] {
    return [...this.views.values()].filter(
      (v) => catalog === undefined || v.catalog.toLowerCase() === catalog.toLowerCase(),
    );
  }

  remember(v: StoredView): void {
    this.views.set(key(v.catalog, v.schema, v.name), v);
  }

  forget(catalog: string, schema: string, name: string): void {
    this.views.delete(key(catalog, schema, name));
  }

  /** The DDL of the stand-in view and its comment. */
  static ddl(
    v: StoredView,
    columns: { name: string; type: string }[],
    orReplace: boolean,
  ): string[] {
    const target = `${quoteIdent(v.catalog)}.${quoteIdent(v.schema)}.${quoteIdent(v.name)}`;
    const cols = columns.length
      ? columns.map((c) => `CAST(NULL AS ${c.type}) AS ${quoteIdent(c.name)}`).join(', ')
      : 'NULL AS "?"';
    const comment = JSON.stringify({ [MARK]: 1, db: v.db, sql: v.sql });
    return [
      `CREATE ${orReplace ? 'OR REPLACE ' : ''}VIEW ${target} AS SELECT ${cols} WHERE FALSE`,
      `COMMENT ON VIEW ${target} IS ${quoteString(comment)}`,
    ];
  }
}

function parseComment(comment: string): { db: string; sql: string } | null {
  try {
    const o = JSON.parse(comment) as Record<string, unknown>;
    if (o[MARK] !== 1 || typeof o.db !== 'string' || typeof o.sql !== 'string') return null;
    return { db: o.db, sql: o.sql };
  } catch {
    return null;
  }
}
