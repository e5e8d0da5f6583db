/**
 * Schema-aware autocomplete, independent of Monaco: from the text before the cursor and a catalog
 * snapshot, the names worth suggesting (databases, schemas, tables, columns, projects, models,
 * keywords, functions).
 */
import type { ColumnInfo, DatabaseInfo, ModelInfo, TableInfo } from '../../api/catalog-parse';
import { SQL_FUNCTIONS, SQL_KEYWORDS } from './sql-language';

export interface CatalogSnapshot {
  databases: DatabaseInfo[];
  tables: TableInfo[];
  columns: ColumnInfo[];
  models: ModelInfo[];
  /** Input and target columns of the models whose description is at hand. */
  modelColumns?: ModelColumns[];
}

/** A model's columns, from its `features` description. */
export interface ModelColumns {
  project: string;
  model: string;
  columns: { name: string; type: string; role: string }[];
}

export type SuggestionKind =
  | 'database'
  | 'project'
  | 'schema'
  | 'table'
  | 'view'
  | 'model'
  | 'column'
  | 'keyword'
  | 'function';

export interface Suggestion {
  label: string;
  kind: SuggestionKind;
  insertText: string;
  detail?: string;
  /** Lower sorts first. */
  rank: number;
}

export type CompletionContext =
  | { kind: 'member'; path: string[]; prefix: string }
  | { kind: 'relation'; prefix: string }
  | { kind: 'database'; prefix: string }
  | { kind: 'any'; prefix: string };

const unquote = (s: string) => s.replace(/^[`"]|[`"]$/g, '');
const IDENT = '(?:`[^`]*`|"[^"]*"|[A-Za-z_][\\w$]*)';

/** What the cursor is completing, from the statement text before it. */
export function completionContext(before: string): CompletionContext {
  const prefix = /[A-Za-z_][\w$]*$/.exec(before)?.[0] ?? '';
  const head = before.slice(0, before.length - prefix.length);
  const member = new RegExp(`((?:${IDENT}\\s*\\.\\s*)+)$`).exec(head);
  if (member) {
    const path = member[1]
      .split('.')
      .map((p) => unquote(p.trim()))
      .filter(Boolean);
    return { kind: 'member', path, prefix };
  }
  const prevWord = /([A-Za-z_]+)\s+$/.exec(head)?.[1]?.toUpperCase();
  if (prevWord === 'USE') return { kind: 'database', prefix };
  if (
    prevWord &&
    [
      'FROM',
      'JOIN',
      'INTO',
      'UPDATE',
      'TABLE',
      'DESCRIBE',
      'RETRAIN',
      'FINETUNE',
      'MODEL',
      'VIEW',
    ].includes(prevWord)
  ) {
    return { kind: 'relation', prefix };
  }
  return { kind: 'any', prefix };
}

interface Relation {
  db?: string;
  schema?: string;
  table: string;
}

/** Words that may follow a table reference and are never its alias. */
const NOT_ALIAS = [
  'WHERE',
  'JOIN',
  'ON',
  'LEFT',
  'RIGHT',
  'INNER',
  'OUTER',
  'GROUP',
  'ORDER',
  'LIMIT',
  'USING',
  'CROSS',
  'FULL',
  'NATURAL',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'HAVING',
  'WINDOW',
  'QUALIFY',
  'OFFSET',
  'PREDICT',
];

/** Tables named in a statement with their aliases (`FROM a.b.c AS x`, `JOIN t y`). */
export function referencedRelations(sql: string): Map<string, Relation> {
  const out = new Map<string, Relation>();
  // The alias must not swallow a keyword: `FROM t JOIN u` names both t and u.
  const re = new RegExp(
    `\\b(?:FROM|JOIN)\\s+(${IDENT}(?:\\s*\\.\\s*${IDENT}){0,2})(?:\\s+(?:AS\\s+)?(?!(?:${NOT_ALIAS.join('|')})\\b)(${IDENT}))?`,
    'gi',
  );
  for (const m of sql.matchAll(re)) {
    const parts = m[1].split('.').map((p) => unquote(p.trim()));
    const rel: Relation =
      parts.length === 3
        ? { db: parts[0], schema: parts[1], table: parts[2] }
        : parts.length === 2
          ? { db: parts[0], table: parts[1] }
          : { table: parts[0] };
    out.set(rel.table.toLowerCase(), rel);
    const alias = m[2] && unquote(m[2]);
    if (alias) out.set(alias.toLowerCase(), rel);
  }
  return out;
}

const eq = (a: string | undefined, b: string | undefined) =>
  (a ?? '').toLowerCase() === (b ?? '').toLowerCase();

function columnsOf(cat: CatalogSnapshot, rel: Relation, currentDb: string): ColumnInfo[] {
  // `db.table` may also be `schema.table` in the current database.
  return cat.columns.filter(
    (c) =>
      eq(c.table, rel.table) &&
      (rel.schema !== undefined
        ? eq(c.db, rel.db) && eq(c.schema, rel.schema)
        : rel.db !== undefined
          ? eq(c.db, rel.db) || (eq(c.db, currentDb) && eq(c.schema, rel.db))
          : true),
  );
}

/** The models a statement reads (`FROM p.model`, `JOIN model AS m`), by name or alias. */
export function referencedModels(
  sql: string,
  cat: Pick<CatalogSnapshot, 'models'>,
  currentDb: string,
): Map<string, ModelInfo> {
  const out = new Map<string, ModelInfo>();
  for (const [key, rel] of referencedRelations(sql)) {
    const m = modelOf(cat, rel, currentDb);
    if (m) out.set(key, m);
  }
  return out;
}

function modelOf(
  cat: Pick<CatalogSnapshot, 'models'>,
  rel: Relation,
  currentDb: string,
): ModelInfo | undefined {
  if (rel.schema !== undefined) return undefined;
  const project = rel.db ?? currentDb;
  return cat.models.find((m) => eq(m.name, rel.table) && eq(m.project, project));
}

/** Suggestions for a model's columns: its inputs first (what WHERE takes), then its target. */
function modelColumnSuggestions(cat: CatalogSnapshot, m: ModelInfo): Suggestion[] {
  const described = cat.modelColumns?.find((c) => eq(c.project, m.project) && eq(c.model, m.name));
  const out: Suggestion[] = (described?.columns ?? [])
    // MindsDB says `feature`; earlier instances said `input`.
    .filter((c) => c.role === 'feature' || c.role === 'input')
    .map((c) => ({
      label: c.name,
      kind: 'column' as const,
      insertText: quoteIfNeeded(c.name),
      detail: `input of ${m.name}${c.type ? ` · ${c.type}` : ''}`,
      rank: 0,
    }));
  const target = m.predict ?? described?.columns.find((c) => c.role === 'target')?.name;
  if (target) {
    out.push({
      label: target,
      kind: 'column',
      insertText: quoteIfNeeded(target),
      detail: `prediction of ${m.name}`,
      rank: 1,
    });
  }
  return out;
}

const colSuggestion = (c: ColumnInfo, rank = 1): Suggestion => ({
  label: c.name,
  kind: 'column',
  insertText: quoteIfNeeded(c.name),
  detail: `${c.dataType} · ${c.table}`,
  rank,
});

function quoteIfNeeded(name: string): string {
  return /^[A-Za-z_][\w$]*$/.test(name) ? name : '`' + name.replace(/`/g, '``') + '`';
}

function tableSuggestion(t: TableInfo, qualify: 'none' | 'schema'): Suggestion {
  const name = qualify === 'schema' && t.schema ? `${t.schema}.${t.name}` : t.name;
  return {
    label: name,
    kind: t.kind === 'view' ? 'view' : t.kind === 'model' ? 'model' : 'table',
    insertText: name.split('.').map(quoteIfNeeded).join('.'),
    detail: `${t.kind} · ${t.db}`,
    rank: 0,
  };
}

function dbSuggestion(d: DatabaseInfo): Suggestion {
  return {
    label: d.name,
    kind: d.type === 'project' ? 'project' : 'database',
    insertText: quoteIfNeeded(d.name),
    detail: d.type === 'project' ? 'project' : `database${d.engine ? ` · ${d.engine}` : ''}`,
    rank: 2,
  };
}

function modelSuggestion(m: ModelInfo): Suggestion {
  return {
    label: m.name,
    kind: 'model',
    insertText: quoteIfNeeded(m.name),
    detail: `model · ${m.status}`,
    rank: 0,
  };
}

function dedupe(list: Suggestion[]): Suggestion[] {
  const seen = new Set<string>();
  return list.filter((s) => {
    const k = `${s.kind}:${s.label}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Suggestions for the cursor position. `statement` is the whole statement under the cursor. */
export function suggest(
  ctx: CompletionContext,
  cat: CatalogSnapshot,
  statement: string,
  currentDb: string,
): Suggestion[] {
  const out: Suggestion[] = [];
  if (ctx.kind === 'member') {
    const path = ctx.path;
    const relations = referencedRelations(statement);
    if (path.length === 1) {
      const [a] = path;
      const alias = relations.get(a.toLowerCase());
      if (alias) {
        const model = modelOf(cat, alias, currentDb);
        if (model) out.push(...modelColumnSuggestions(cat, model));
        out.push(...columnsOf(cat, alias, currentDb).map((c) => colSuggestion(c, 0)));
      }
      // a = database: its schemas and its schema-less tables, models, views
      const tables = cat.tables.filter((t) => eq(t.db, a));
      const schemas = [...new Set(tables.map((t) => t.schema).filter((s): s is string => !!s))];
      out.push(
        ...schemas.map((s) => ({
          label: s,
          kind: 'schema' as const,
          insertText: quoteIfNeeded(s),
          detail: `schema · ${a}`,
          rank: 0,
        })),
        ...tables.filter((t) => !t.schema).map((t) => tableSuggestion(t, 'none')),
        ...cat.models.filter((m) => eq(m.project, a)).map(modelSuggestion),
      );
      if (cat.databases.some((d) => eq(d.name, a) && d.type === 'project')) {
        out.push({
          label: 'models',
          kind: 'table',
          insertText: 'models',
          detail: 'models of the project',
          rank: 1,
        });
      }
      // a = schema of the current database, or a table in it
      out.push(
        ...cat.tables
          .filter((t) => eq(t.db, currentDb) && eq(t.schema, a))
          .map((t) => tableSuggestion(t, 'none')),
      );
      if (!alias) out.push(...columnsOf(cat, { table: a }, currentDb).map((c) => colSuggestion(c)));
    } else if (path.length === 2) {
      const [a, b] = path;
      out.push(
        ...cat.tables
          .filter((t) => eq(t.db, a) && eq(t.schema, b))
          .map((t) => tableSuggestion(t, 'none')),
        ...columnsOf(cat, { db: a, table: b }, currentDb).map((c) => colSuggestion(c)),
      );
    } else {
      const [a, b, c] = path.slice(-3);
      out.push(
        ...columnsOf(cat, { db: a, schema: b, table: c }, currentDb).map((x) => colSuggestion(x)),
      );
    }
    return dedupe(out);
  }
  if (ctx.kind === 'database') return dedupe(cat.databases.map(dbSuggestion));
  if (ctx.kind === 'relation') {
    out.push(
      ...cat.tables.filter((t) => eq(t.db, currentDb)).map((t) => tableSuggestion(t, 'schema')),
      ...cat.models.filter((m) => eq(m.project, currentDb)).map(modelSuggestion),
      ...cat.databases.map(dbSuggestion),
    );
    return dedupe(out);
  }
  const relations = referencedRelations(statement);
  const seen = new Set<string>();
  for (const rel of relations.values()) {
    const key = `${rel.db}.${rel.schema}.${rel.table}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const model = modelOf(cat, rel, currentDb);
    if (model) out.push(...modelColumnSuggestions(cat, model));
    out.push(...columnsOf(cat, rel, currentDb).map((c) => colSuggestion(c, 0)));
  }
  out.push(
    ...SQL_KEYWORDS.map((k) => ({ label: k, kind: 'keyword' as const, insertText: k, rank: 3 })),
    ...SQL_FUNCTIONS.map((f) => ({
      label: f,
      kind: 'function' as const,
      insertText: f,
      detail: 'function',
      rank: 4,
    })),
    ...cat.databases.map(dbSuggestion),
    ...cat.tables
      .filter((t) => eq(t.db, currentDb))
      .map((t) => ({ ...tableSuggestion(t, 'schema'), rank: 2 })),
  );
  return dedupe(out);
}

/** Target columns of the models a statement reads (`FROM p.model`, `JOIN model AS m`). */
export function modelTargetsIn(sql: string, cat: CatalogSnapshot, currentDb: string): string[] {
  const out = new Set<string>();
  for (const m of referencedModels(sql, cat, currentDb).values()) if (m.predict) out.add(m.predict);
  return [...out];
}
