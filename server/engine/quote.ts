/** Quoting for SQL text the instance generates (DuckDB dialect). */

/** Quotes an identifier for DuckDB. */
export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
/** Quotes a string literal for DuckDB. */
export const quoteString = (s: string) => `'${s.replaceAll("'", "''")}'`;
