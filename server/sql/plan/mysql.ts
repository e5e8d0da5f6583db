/**
 * MindsDB's MySQL-flavoured expression dialect, applied on DuckDB's tree (so it follows what the
 * parser read, not what the text looks like):
 *
 * - MindsDB's double-quote rule: `"x"` is a string wherever a value can stand (`WHERE location =
 *   "good"`, `select "a"`, function arguments, IN lists, ORDER/GROUP BY), and a name where only a
 *   name can stand (a table, an alias, a function name, either side of a dot: `"t"."c"`). On the
 *   tree: a double-quoted single-part column reference becomes a string constant. Backticks are
 *   always names.
 * - `select 'a'` names its column `a` (MySQL's naming of a string literal), as does `select "a"`.
 * - `@@version_comment` and the other server variables MySQL clients read, `DATABASE()`,
 *   `SCHEMA()`, `USER()`, `CONNECTION_ID()`: answered as constants named as written.
 */
import { quoteIdent, quoteString } from '../../engine/quote';
import { ERROR_CODES } from '../../errors';
import { NO_LOCATION, type JNode } from '../syntax/tree';
import type { PlanState } from './state';

/** Server variables as MindsDB answers them (MySQL clients read these on connect). */
export const SERVER_VARIABLES: Record<string, string | number> = {
  auto_increment_increment: 1,
  character_set_client: 'utf8',
  character_set_connection: 'utf8',
  character_set_results: 'utf8',
  character_set_server: 'latin1',
  collation_connection: 'utf8_general_ci',
  collation_server: 'latin1_swedish_ci',
  default_storage_engine: 'InnoDB',
  default_tmp_storage_engine: 'InnoDB',
  event_scheduler: 'OFF',
  init_connect: '',
  interactive_timeout: 28800,
  license: 'GPL',
  lower_case_table_names: 0,
  max_allowed_packet: 16777216,
  net_buffer_length: 16384,
  net_write_timeout: 60,
  performance_schema: 1,
  query_cache_size: 16777216,
  query_cache_type: 'OFF',
  sql_mode:
    'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION',
  system_time_zone: 'UTC',
  time_zone: 'SYSTEM',
  transaction_isolation: 'REPEATABLE-READ',
  tx_isolation: 'REPEATABLE-READ',
  tx_read_only: '0',
  version: '8.0.17',
  version_comment: '(MindsDB)',
  wait_timeout: 28800,
  autocommit: 1,
};

/** A variable's value: `@@x`, `@@session.x`, `@@global.x`; user variables (`@x`) are NULL. */
function variableValue(name: string): string | number | null {
  if (!name.startsWith('@@')) return null;
  const bare = name
    .slice(2)
    .replace(/^(session|global|local)\./i, '')
    .toLowerCase();
  return SERVER_VARIABLES[bare] ?? null;
}

const literal = (v: string | number | null) =>
  v === null ? 'NULL' : typeof v === 'number' ? String(v) : quoteString(v);

/** A constant standing where `at` was written (its position kept for spans and errors). */
function constantNode(v: string | number | null, alias: string, at: JNode): JNode {
  const type = v === null ? 'SQLNULL' : typeof v === 'number' ? 'BIGINT' : 'VARCHAR';
  return {
    class: 'CONSTANT',
    type: 'VALUE_CONSTANT',
    alias,
    query_location: at.query_location ?? NO_LOCATION,
    value: { type: { id: type, type_info: null }, is_null: v === null, value: v },
  };
}

/** Functions MySQL clients call that DuckDB does not have (or answers differently). */
function functionValue(name: string, db: string): { value: string | number } | null {
  switch (name.toLowerCase()) {
    case 'database':
    case 'schema':
      return { value: db };
    case 'user':
    case 'current_user':
    case 'session_user':
    case 'system_user':
      return { value: 'mindsdb' };
    case 'connection_id':
      return { value: 1 };
    default:
      return null;
  }
}

/** Applies the expression dialect to every SELECT of the query (text and tree alike). */
export function applyExpressionDialect(
  st: PlanState,
  original: (offset: number) => { kind: string; quote?: string; word?: string } | undefined,
): void {
  for (const sel of st.index.selects) {
    for (const e of sel.exprs) {
      const n = e.node;
      const at = st.loc(n);
      if (n.class === 'COLUMN_REF' && at !== undefined) {
        const names = n.column_names as string[];
        const tok = original(at);
        if (names.length !== 1 || !tok) continue;
        const span = st.nameSpan(at);
        if (!span) continue;
        const name = names[0];
        if (tok.kind === 'word' && tok.word === 'LATEST') {
          // MindsDB's keyword: read by the forecast of a time-series model (plan/forecast.ts).
          st.latest.add(n);
          continue;
        }
        if (tok.kind === 'word' && tok.word === 'LAST') {
          // MindsDB's keyword for the value a job or trigger read last time (`id > LAST`).
          throw st.src.error(
            ERROR_CODES.BAD_INPUT,
            'LAST (the last value a job or trigger read) is not supported by this instance (it has no jobs or triggers); compare with a value instead',
            st.rw.toSource(at),
          );
        }
        let value: string | number | null;
        if (tok.kind === 'variable') value = variableValue(name);
        else if (tok.kind === 'quoted' && tok.quote === '"') value = name;
        else continue;
        const alias =
          e.selectItem && !n.alias ? (tok.kind === 'variable' ? name : String(value)) : '';
        st.edit(
          span.start,
          span.end,
          alias ? `${literal(value)} AS ${quoteIdent(alias)}` : literal(value),
        );
        (e.holder as Record<string | number, unknown>)[e.key] = constantNode(
          value,
          alias || String(n.alias ?? ''),
          n,
        );
        continue;
      }
      if (n.class === 'FUNCTION' && at !== undefined && (n.children as unknown[]).length === 0) {
        const f = functionValue(String(n.function_name), st.db);
        if (!f) continue;
        const i = st.tokens.indexAt(at);
        const close = st.tokens.sig[i + 2];
        if (!close || close.raw !== ')') continue;
        const written = st.tokens.text.slice(at, close.end);
        const alias = e.selectItem && !n.alias ? written.toUpperCase() : '';
        st.edit(
          at,
          close.end,
          alias ? `${literal(f.value)} AS ${quoteIdent(alias)}` : literal(f.value),
        );
        (e.holder as Record<string | number, unknown>)[e.key] = constantNode(
          f.value,
          alias || String(n.alias ?? ''),
          n,
        );
        continue;
      }
      // select 'a' is named a (MySQL), not 'a' (DuckDB).
      if (
        e.selectItem &&
        n.class === 'CONSTANT' &&
        !n.alias &&
        at !== undefined &&
        (n.value as JNode)?.type &&
        ((n.value as JNode).type as JNode).id === 'VARCHAR'
      ) {
        const tok = original(at);
        const span = st.exprSpan(n);
        if (!span || (tok?.kind !== 'string' && !(tok?.kind === 'quoted' && tok.quote === '"')))
          continue;
        const value = String((n.value as JNode).value);
        st.edit(span.end, span.end, ` AS ${quoteIdent(value)}`);
        n.alias = value;
      }
    }
  }
}
