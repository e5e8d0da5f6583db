/**
 * Golden test of DuckDB's parse tree as the planner reads it (`json_serialize_sql`, issue 23): a
 * DuckDB upgrade that renames or drops a field, a node kind or an enum value the planner reads
 * fails here by name ("JOIN.join_type"), instead of quietly planning differently (a missed
 * `where_clause` would drop a filter; a missed `join_type` would batch an outer join). A second
 * check keeps the list honest: every snake_case field the planner's code reads (DuckDB's spelling;
 * the code's own names are camelCase) is either listed here or named as not a parse-tree field.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Each node kind (`class` of expressions, `type` of query nodes and table references): the fields read. */
const GOLDEN: Record<string, string[]> = {
  SELECT_NODE: [
    'type',
    'modifiers',
    'cte_map',
    'select_list',
    'from_table',
    'where_clause',
    'group_expressions',
    'group_sets',
    'aggregate_handling',
    'having',
    'qualify',
    'sample',
  ],
  SET_OPERATION_NODE: ['type', 'modifiers', 'cte_map', 'setop_type', 'setop_all', 'left', 'right'],
  JOIN: ['type', 'alias', 'left', 'right', 'condition', 'join_type', 'ref_type', 'using_columns'],
  BASE_TABLE: ['type', 'alias', 'query_location', 'catalog_name', 'schema_name', 'table_name'],
  SUBQUERY: ['type', 'alias', 'subquery'],
  TABLE_FUNCTION: ['type', 'alias', 'function'],
  'expr COLUMN_REF': ['class', 'alias', 'query_location', 'column_names'],
  'expr STAR': [
    'class',
    'relation_name',
    'exclude_list',
    'qualified_exclude_list',
    'replace_list',
    'rename_list',
    'columns',
  ],
  'expr FUNCTION': ['class', 'function_name', 'schema', 'children'],
  'expr CONSTANT': ['class', 'value', 'query_location'],
  'expr CAST': ['class', 'child', 'cast_type'],
  'expr COMPARISON': ['class', 'type', 'left', 'right'],
  'expr CONJUNCTION': ['class', 'type', 'children'],
  'expr SUBQUERY': ['class', 'subquery'],
  'expr WINDOW': ['class', 'function_name'],
  /** A CTE of a `cte_map.map`, and its body. */
  'cte entry': ['key', 'value', 'value.query', 'value.query.node'],
  /** A constant's value and its logical type. */
  'constant value': ['type', 'type.id', 'type.type_info', 'is_null', 'value'],
  DECIMAL_TYPE_INFO: ['scale'],
};

/** Enum values the planner compares fields with, per `kind.field`. */
const VALUES: Record<string, string[]> = {
  'JOIN.join_type': ['INNER', 'LEFT'],
  'JOIN.ref_type': ['REGULAR', 'NATURAL'],
  'SET_OPERATION_NODE.setop_type': ['UNION', 'UNION_BY_NAME'],
  'SELECT_NODE.aggregate_handling': ['STANDARD_HANDLING'],
};

/** snake_case names the planner's code reads that are not parse-tree fields (results, models). */
const NOT_TREE = new Set([
  'affected_rows',
  'catalog_changed',
  'changed_rows',
  'column_origins',
  'column_types',
  'computed_at',
  'demo_data',
  'drifted_importance',
  'error_code',
  'error_message',
  'error_position',
  'error_type',
  'estimated_rows',
  'extra_info',
  'home_rentals',
  'jobs_history',
  'llm_log',
  'mean_change',
  'ml_engines',
  'models_versions',
  'n_current',
  'n_decimals',
  'n_reference',
  'new_categories',
  'out_of_range',
  'p_value',
  'query_id',
  'rental_price',
]);

/** Statements that between them hold every kind and value above. */
const CORPUS = [
  `WITH c AS (SELECT 1 AS x) SELECT a.x, * EXCLUDE (y), b.* REPLACE (1 AS z), COLUMNS('x'),
     cast(a.x AS DECIMAL(10,2)), 1.5, NULL, 'red', sum(x) OVER (), (SELECT 1), lower('A')
   FROM c AS a JOIN main.t AS b ON a.x = b.x LEFT JOIN u USING (x), range(3) AS r, (SELECT 2) AS s
   WHERE x > 1 AND x IN (SELECT 1) GROUP BY ALL HAVING count(*) > 1 QUALIFY 1
   UNION ALL (SELECT 1 ORDER BY 1 LIMIT 2)`,
  'SELECT * FROM t NATURAL JOIN u UNION BY NAME SELECT t.* RENAME (a AS b) FROM t',
];

let db: DuckDBInstance;
let conn: DuckDBConnection;
const seen = new Map<string, Set<string>>();
const values = new Map<string, Set<string>>();

function note(kind: string, fields: Iterable<string>): void {
  const s = seen.get(kind) ?? new Set<string>();
  for (const f of fields) s.add(f);
  seen.set(kind, s);
}

function walk(v: unknown): void {
  if (!v || typeof v !== 'object') return;
  if (Array.isArray(v)) return v.forEach(walk);
  const n = v as Record<string, unknown>;
  const kind =
    typeof n.class === 'string' ? `expr ${n.class}` : typeof n.type === 'string' ? n.type : null;
  if (kind) {
    note(kind, Object.keys(n));
    for (const [k, x] of Object.entries(n))
      if (typeof x === 'string') {
        const s = values.get(`${kind}.${k}`) ?? new Set<string>();
        values.set(`${kind}.${k}`, s.add(x));
      }
  }
  if (kind === 'expr CONSTANT' && n.value && typeof n.value === 'object') {
    const c = n.value as Record<string, unknown>;
    note('constant value', [
      ...Object.keys(c),
      ...Object.keys((c.type as object | null) ?? {}).map((k) => `type.${k}`),
    ]);
  }
  const ctes = (n.cte_map as { map?: Record<string, unknown>[] } | undefined)?.map ?? [];
  for (const e of ctes) {
    const value = (e.value ?? {}) as Record<string, unknown>;
    const query = (value.query ?? {}) as Record<string, unknown>;
    note('cte entry', [
      ...Object.keys(e),
      ...Object.keys(value).map((k) => `value.${k}`),
      ...Object.keys(query).map((k) => `value.query.${k}`),
    ]);
  }
  Object.values(n).forEach(walk);
}

beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:');
  conn = await db.connect();
  for (const sql of CORPUS) {
    const r = await conn.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql]);
    const tree = JSON.parse(String(r.getRows()[0][0])) as Record<string, unknown>;
    expect(tree.error, String(tree.error_message)).toBe(false);
    walk(tree.statements);
  }
});

afterAll(() => {
  conn?.closeSync();
  db?.closeSync();
});

describe("DuckDB's parse tree still has what the planner reads", () => {
  it.each(Object.entries(GOLDEN))('%s', (kind, fields) => {
    const has = seen.get(kind);
    expect(has, `DuckDB wrote no ${kind} node for the corpus`).toBeDefined();
    const missing = fields.filter((f) => !has!.has(f)).map((f) => `${kind}.${f}`);
    expect(missing, 'fields the planner reads that DuckDB no longer writes').toEqual([]);
  });

  it.each(Object.entries(VALUES))('values of %s', (field, wanted) => {
    const has = values.get(field) ?? new Set<string>();
    const missing = wanted.filter((v) => !has.has(v)).map((v) => `${field} = '${v}'`);
    expect(missing, 'values the planner compares with that DuckDB no longer writes').toEqual([]);
  });

  it("lists every snake_case field the planner's code reads", () => {
    const root = path.resolve(__dirname, '..');
    const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter(
      (f) => f.endsWith('.ts') && !f.split(path.sep).includes('__tests__'),
    );
    const listed = new Set(Object.values(GOLDEN).flatMap((fs) => fs.flatMap((f) => f.split('.'))));
    const unlisted = new Set<string>();
    for (const f of files) {
      const text = fs.readFileSync(path.join(root, f), 'utf8');
      for (const m of text.matchAll(/\??\.([a-z]+(?:_[a-z0-9]+)+)\b/g))
        if (!listed.has(m[1]) && !NOT_TREE.has(m[1])) unlisted.add(`${m[1]} (${f})`);
    }
    expect([...unlisted], 'add each to GOLDEN (a tree field) or NOT_TREE').toEqual([]);
  });
});
