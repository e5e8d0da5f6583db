/**
 * The CREATE MODEL statement the create form runs, built from its fields; validation messages
 * name the field to fix. Uses the MindsDB syntax, so it runs on real servers too.
 */
export type ModelSource =
  | { kind: 'table'; db: string; schema?: string; table: string }
  | { kind: 'query'; db: string; query: string };

export interface UsingEntry {
  key: string;
  value: string;
}

export interface CreateModelInput {
  project: string;
  name: string;
  source: ModelSource;
  target: string;
  using: UsingEntry[];
}

const SIMPLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const KEY = /^[A-Za-z_][A-Za-z0-9_.]*$/;

export function quoteIdent(name: string): string {
  return SIMPLE.test(name) ? name : '`' + name.replace(/`/g, '``') + '`';
}

function quoteString(v: string): string {
  return `'${v.replace(/'/g, "''")}'`;
}

/** A USING value: numbers, booleans, JSON objects/lists as they are; anything else a string. */
export function usingLiteral(raw: string): string {
  const v = raw.trim();
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v)) return v;
  if (/^(true|false)$/i.test(v)) return v.toLowerCase();
  if (/^[[{]/.test(v)) {
    try {
      JSON.parse(v);
      return v;
    } catch {
      /* a string after all */
    }
  }
  if (/^'.*'$/.test(v)) return v;
  return quoteString(v);
}

export function sourceSelect(source: ModelSource): string {
  if (source.kind === 'query') return source.query.trim().replace(/;\s*$/, '');
  const ref = [source.schema, source.table].filter(Boolean).map((p) => quoteIdent(p!));
  return `SELECT * FROM ${ref.join('.')}`;
}

export function validateCreateModel(input: CreateModelInput): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!input.project) errors.project = 'Choose a project';
  if (!input.name.trim()) errors.name = 'Name the model';
  else if (!SIMPLE.test(input.name.trim()))
    errors.name = 'Use letters, digits and underscores, starting with a letter';
  if (!input.source.db) errors.db = 'Choose a database';
  if (input.source.kind === 'table' && !input.source.table) errors.table = 'Choose a table';
  if (input.source.kind === 'query' && !input.source.query.trim())
    errors.query = 'Write the query that selects the training data';
  if (!input.target) errors.target = 'Choose the column to predict';
  input.using.forEach((u, i) => {
    if (!u.key.trim() && !u.value.trim()) return;
    if (!KEY.test(u.key.trim())) errors[`using.${i}`] = `USING key "${u.key}" is not a name`;
    else if (!u.value.trim()) errors[`using.${i}`] = `USING ${u.key} needs a value`;
  });
  return errors;
}

export function buildCreateModelSql(input: CreateModelInput): string {
  const lines = [
    `CREATE MODEL ${quoteIdent(input.project)}.${quoteIdent(input.name.trim())}`,
    `FROM ${quoteIdent(input.source.db)}`,
    `  (${sourceSelect(input.source)})`,
    `PREDICT ${quoteIdent(input.target)}`,
  ];
  const using = input.using.filter((u) => u.key.trim() && u.value.trim());
  if (using.length > 0) {
    lines.push(
      `USING ${using.map((u) => `${u.key.trim()} = ${usingLiteral(u.value)}`).join(',\n      ')}`,
    );
  }
  return `${lines.join('\n')};`;
}

export function retrainSql(project: string, name: string): string {
  return `RETRAIN ${quoteIdent(project)}.${quoteIdent(name)};`;
}

export function dropModelSql(project: string, name: string): string {
  return `DROP MODEL ${quoteIdent(project)}.${quoteIdent(name)};`;
}

/** A default model name for a table: `home_rentals` -> `home_rentals_model`. */
export function defaultModelName(table: string): string {
  const base = table.replace(/[^A-Za-z0-9_]/g, '_').replace(/^[^A-Za-z]+/, '');
  return `${base || 'my'}_model`;
}
