// What the planner hands the executor: the SQL that finally runs, where it runs, and how it maps
// to what the user wrote. A leaf module, so the planner's parts and the statements can share it.
import type { Rewrite, StatementSource } from '../syntax/source';

export interface PlannedQuery {
  /** DuckDB in `db`'s catalog, or a PostgreSQL integration running the query whole. */
  target:
    { kind: 'duckdb'; db: string | undefined } | { kind: 'remote'; db: string; values: unknown[] };
  sql: string;
  /** `sql` mapped to the statement the user wrote. */
  rw: Rewrite;
  src: StatementSource;
}
