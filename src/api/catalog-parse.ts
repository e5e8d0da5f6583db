/**
 * Turns the answers of the catalog SQL (`SHOW FULL DATABASES`, `SHOW FULL TABLES FROM x`,
 * `information_schema.columns`, `<project>.models`) into typed values. Column names are matched
 * case-insensitively so both our instance and a real MindsDB server are understood.
 */
import type { SqlTableResponse } from '../../contract';

export interface DatabaseInfo {
  name: string;
  /** `project`, `data`, `system`, ... as the server reports it. */
  type: string;
  engine: string | null;
}

export type TableKind = 'table' | 'view' | 'model' | 'other';

export interface TableInfo {
  db: string;
  schema?: string;
  name: string;
  kind: TableKind;
  rawType: string;
}

export interface ColumnInfo {
  db: string;
  schema?: string;
  table: string;
  name: string;
  dataType: string;
}

export interface ModelInfo {
  project: string;
  name: string;
  status: string;
  version?: number;
  active?: boolean;
  predict?: string;
  accuracy?: number | null;
  error?: string | null;
}

type Table = Pick<SqlTableResponse, 'column_names' | 'data'>;

function col(t: Table, ...names: string[]): number {
  const lower = t.column_names.map((c) => c.toLowerCase());
  for (const n of names) {
    const i = lower.indexOf(n.toLowerCase());
    if (i >= 0) return i;
  }
  return -1;
}

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

export function parseDatabases(t: Table): DatabaseInfo[] {
  const name = Math.max(col(t, 'Database', 'name'), 0);
  const type = col(t, 'TYPE');
  const engine = col(t, 'ENGINE');
  return t.data
    .map((r) => ({
      name: str(r[name]),
      type: type >= 0 ? str(r[type]) || 'data' : 'data',
      engine: engine >= 0 && r[engine] != null ? str(r[engine]) : null,
    }))
    .filter((d) => d.name);
}

export function tableKind(rawType: string): TableKind {
  const t = rawType.toUpperCase();
  if (t.includes('MODEL') || t.includes('PREDICTOR')) return 'model';
  if (t.includes('VIEW')) return 'view';
  if (t === '' || t.includes('TABLE')) return 'table';
  return 'other';
}

/** `SHOW FULL TABLES FROM db`: non-main schemas come as `schema.table`. */
export function parseTables(db: string, t: Table): TableInfo[] {
  const nameIdx = Math.max(
    t.column_names.findIndex((c) => c.toLowerCase().startsWith('tables_in_')),
    0,
  );
  const typeIdx = col(t, 'Table_type', 'type');
  return t.data
    .map((r) => {
      const full = str(r[nameIdx]);
      const dot = full.indexOf('.');
      const rawType = typeIdx >= 0 ? str(r[typeIdx]) : '';
      const base = { db, kind: tableKind(rawType), rawType };
      return dot > 0
        ? { ...base, schema: full.slice(0, dot), name: full.slice(dot + 1) }
        : { ...base, name: full };
    })
    .filter((x) => x.name);
}

/**
 * `information_schema.columns`: our instance reports the database as `table_catalog` and the
 * schema as `table_schema`; MindsDB reports `def` as the catalog and the database as the schema.
 */
export function parseColumns(t: Table): ColumnInfo[] {
  const cat = col(t, 'table_catalog');
  const sch = col(t, 'table_schema');
  const tab = col(t, 'table_name');
  const name = col(t, 'column_name');
  const typ = col(t, 'data_type', 'column_type');
  if (tab < 0 || name < 0) return [];
  const out: ColumnInfo[] = [];
  for (const r of t.data) {
    const catalog = cat >= 0 ? str(r[cat]) : '';
    const schema = sch >= 0 ? str(r[sch]) : '';
    const hasCatalog = catalog !== '' && catalog.toLowerCase() !== 'def';
    out.push({
      db: hasCatalog ? catalog : schema,
      ...(hasCatalog && schema && schema !== 'main' ? { schema } : {}),
      table: str(r[tab]),
      name: str(r[name]),
      dataType: typ >= 0 ? str(r[typ]) : '',
    });
  }
  return out;
}

export function parseModels(project: string, t: Table): ModelInfo[] {
  const name = col(t, 'NAME');
  const status = col(t, 'STATUS');
  if (name < 0) return [];
  const version = col(t, 'VERSION');
  const active = col(t, 'ACTIVE');
  const predict = col(t, 'PREDICT');
  const accuracy = col(t, 'ACCURACY');
  const error = col(t, 'ERROR');
  const proj = col(t, 'PROJECT');
  const models: ModelInfo[] = t.data.map((r) => ({
    project: proj >= 0 && r[proj] ? str(r[proj]) : project,
    name: str(r[name]),
    status: status >= 0 ? str(r[status]) || 'unknown' : 'unknown',
    ...(version >= 0 && r[version] != null ? { version: Number(r[version]) } : {}),
    ...(active >= 0 && r[active] != null
      ? { active: r[active] === true || r[active] === 'true' || r[active] === 1 }
      : {}),
    ...(predict >= 0 && r[predict] != null ? { predict: str(r[predict]) } : {}),
    ...(accuracy >= 0 ? { accuracy: r[accuracy] == null ? null : Number(r[accuracy]) } : {}),
    ...(error >= 0 ? { error: r[error] == null ? null : str(r[error]) } : {}),
  }));
  // Several versions of one model: show the active one (else the newest) once.
  const byName = new Map<string, ModelInfo>();
  for (const m of models) {
    const prev = byName.get(m.name);
    if (
      !prev ||
      (m.active && !prev.active) ||
      (!prev.active && (m.version ?? 0) > (prev.version ?? 0))
    ) {
      byName.set(m.name, m);
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

const SIMPLE_IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Quotes an identifier with backticks when it is not a plain name (MindsDB and our instance accept them). */
export function quoteIdent(name: string): string {
  return SIMPLE_IDENT.test(name) ? name : '`' + name.replace(/`/g, '``') + '`';
}

export function quoteString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** Dotted, quoted name of a table: `db.schema.table` or `db.table`. */
export function qualifiedName(parts: ReadonlyArray<string | undefined>): string {
  return parts
    .filter((p): p is string => !!p)
    .map(quoteIdent)
    .join('.');
}
