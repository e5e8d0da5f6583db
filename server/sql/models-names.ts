/**
 * How names in SQL map onto models and the model tables: `p.m`, `m` (in the current project),
 * `p.m.2` / `m.2` / `p`.`m`.`2` (versions), `p.models`, `p.models_versions`,
 * `information_schema.models`. Shared by every model statement so they agree on what a name means.
 */
import { DEFAULT_PROJECT, type Catalog } from '../catalog/catalog';
import type { ModelRef, ModelRegistry } from '../models/registry';
import { badInput } from '../errors';
import { Cursor } from './cursor';

export type VirtualTable = 'models' | 'models_versions';

export type Relation =
  | {
      kind: 'virtual';
      table: VirtualTable;
      /** null: every project (information_schema.models) */ project: string | null;
    }
  | { kind: 'model'; ref: ModelRef };

const isVersion = (s: string) => /^\d+$/.test(s);
const lower = (s: string) => s.toLowerCase();

/** The project a bare model name belongs to in statements that name models (CREATE, DROP...). */
export function currentProject(catalog: Catalog, db: string): string {
  return catalog.projectInfo(db)?.name ?? DEFAULT_PROJECT;
}

function virtualName(s: string): VirtualTable | null {
  const l = lower(s);
  return l === 'models' || l === 'models_versions' ? l : null;
}

/**
 * Resolves a relation name in FROM/JOIN position. Returns null for anything that is not a model
 * or a model table, which then is DuckDB's business. Bare names resolve only inside a project
 * (the current database), so a table named like a model elsewhere is untouched.
 */
export function resolveRelation(
  parts: string[],
  db: string,
  catalog: Catalog,
  models: ModelRegistry,
): Relation | null {
  const current = catalog.projectInfo(db)?.name;
  const modelIn = (project: string, name: string, version?: string): Relation | null =>
    models.exists(project, name)
      ? {
          kind: 'model',
          ref: {
            project,
            name: models.versions(project, name)[0].name,
            version: version ? Number(version) : undefined,
          },
        }
      : null;
  if (parts.length === 1) {
    const v = virtualName(parts[0]);
    if (current)
      return v ? { kind: 'virtual', table: v, project: current } : modelIn(current, parts[0]);
    if (lower(db) === 'information_schema' && lower(parts[0]) === 'models')
      return { kind: 'virtual', table: 'models', project: null };
    return null;
  }
  if (parts.length === 2) {
    const [a, b] = parts;
    const project = catalog.projectInfo(a)?.name;
    if (project) {
      const v = virtualName(b);
      return v ? { kind: 'virtual', table: v, project } : modelIn(project, b);
    }
    if (lower(a) === 'information_schema' && lower(b) === 'models')
      return { kind: 'virtual', table: 'models', project: null };
    if (current && isVersion(b)) return modelIn(current, a, b);
    return null;
  }
  if (parts.length === 3 && isVersion(parts[2])) {
    const project = catalog.projectInfo(parts[0])?.name;
    return project ? modelIn(project, parts[1], parts[2]) : null;
  }
  return null;
}

/**
 * A model name in a model statement (CREATE/DROP/RETRAIN...): `[project.]name[.version]`.
 * Unlike `resolveRelation` the model need not exist.
 */
export function modelName(
  parts: string[],
  db: string,
  catalog: Catalog,
  allowVersion: boolean,
): ModelRef {
  let rest = parts;
  let version: number | undefined;
  if (allowVersion && rest.length >= 2 && isVersion(rest[rest.length - 1])) {
    version = Number(rest[rest.length - 1]);
    rest = rest.slice(0, -1);
  }
  if (rest.length === 1) return { project: currentProject(catalog, db), name: rest[0], version };
  if (rest.length === 2)
    return { project: catalog.requireProject(rest[0]), name: rest[1], version };
  throw badInput(
    `'${parts.join('.')}' is not a model name; use project.model${allowVersion ? '[.version]' : ''}`,
  );
}

/**
 * Keywords that end a relation (so a following word is not its alias). Everything DuckDB allows
 * after a table reference in a FROM clause.
 */
export const NOT_ALIAS = new Set([
  'WHERE',
  'JOIN',
  'ON',
  'USING',
  'LEFT',
  'RIGHT',
  'INNER',
  'OUTER',
  'FULL',
  'CROSS',
  'NATURAL',
  'POSITIONAL',
  'ASOF',
  'ANTI',
  'SEMI',
  'ORDER',
  'GROUP',
  'LIMIT',
  'OFFSET',
  'HAVING',
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'WINDOW',
  'QUALIFY',
  'SAMPLE',
  'TABLESAMPLE',
  'PIVOT',
  'UNPIVOT',
  'LATERAL',
  'SET',
  'FETCH',
  'FOR',
  'RETURNING',
]);

/**
 * A dotted name where versions may follow: `p.m.2`, `m.2.features`, `p.m.1.model`. The lexer reads
 * `.1.model` (a dot, digits, more) as one number or word token, which Cursor.dottedName does not
 * split; this does.
 */
export function dottedName(c: Cursor, what = 'name'): string[] {
  const first = c.namePart();
  if (first === undefined) c.fail(`expected a ${what}`);
  const parts = [first!];
  for (;;) {
    const t = c.peek();
    if (
      t &&
      (t.kind === 'number' || t.kind === 'word') &&
      /^\.\d+(\.[A-Za-z_0-9]+)*\.?$/.test(t.text)
    ) {
      c.i++;
      parts.push(
        ...t.text
          .slice(1)
          .split('.')
          .filter((x) => x !== ''),
      );
      if (t.text.endsWith('.')) {
        const p = c.namePart(true);
        if (p === undefined) c.fail(`expected a name after '.'`);
        parts.push(p!);
      }
      continue;
    }
    if (!c.isPunct('.')) break;
    c.i++;
    const p = c.namePart(true);
    if (p === undefined) c.fail(`expected a name after '.'`);
    parts.push(p!);
  }
  return parts;
}

/** Parses `USING k = v, a.b = v2` into an object (dotted keys nest); values are literals or JSON. */
export function parseUsing(c: Cursor): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  do {
    const key = c.dottedName('option name');
    c.expectPunct('=');
    const value = usingValue(c);
    let o = out;
    for (const k of key.slice(0, -1)) {
      const next = o[k];
      o = (o[k] = next && typeof next === 'object' && !Array.isArray(next) ? next : {}) as Record<
        string,
        unknown
      >;
    }
    o[key[key.length - 1]] = value;
  } while (c.acceptPunct(','));
  return out;
}

function usingValue(c: Cursor): unknown {
  const t = c.peek();
  if (t?.kind === 'punct' && (t.text === '{' || t.text === '[')) {
    const open = t.text;
    const close = open === '{' ? '}' : ']';
    const start = t.start;
    let depth = 0;
    while (!c.done()) {
      const x = c.peek()!;
      c.i++;
      if (x.kind === 'punct' && x.text === open) depth++;
      if (x.kind === 'punct' && x.text === close && --depth === 0) {
        const text = c.src.slice(start, x.end);
        for (const candidate of [text, text.replace(/'/g, '"')]) {
          try {
            return JSON.parse(candidate);
          } catch {
            // try the next spelling (SQL users write {'a': 1})
          }
        }
        throw badInput(`USING value ${text} is not valid JSON`);
      }
    }
    return c.fail(`unbalanced '${open}'`);
  }
  if (t?.kind === 'word' && !['TRUE', 'FALSE', 'NULL'].includes(t.value.toUpperCase())) {
    c.i++;
    return t.value;
  }
  return c.literal();
}
