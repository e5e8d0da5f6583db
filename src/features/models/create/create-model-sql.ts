/**
 * The CREATE MODEL statement the create form runs, built from its fields; validation messages
 * name the field to fix. Uses the MindsDB syntax, so it runs on real servers too.
 */
type ModelSource =
  | { kind: 'table'; db: string; schema?: string; table: string }
  | { kind: 'query'; db: string; query: string };

export interface UsingEntry {
  key: string;
  value: string;
}

/** `ORDER BY ... [GROUP BY ...] WINDOW n [HORIZON h]`: a time-series model (text as typed). */
export interface TimeSeriesInput {
  orderBy: string;
  groupBy: string[];
  window: string;
  horizon: string;
}

export interface CreateModelInput {
  project: string;
  name: string;
  source: ModelSource;
  target: string;
  using: UsingEntry[];
  /** Set: a forecasting model. */
  timeseries?: TimeSeriesInput | null;
}

/** A whole number of steps from 1 to 10,000 (the instance's bound), else null. */
function steps(v: string): number | null {
  const t = v.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return n >= 1 && n <= 10_000 ? n : null;
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

function sourceSelect(source: ModelSource): string {
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
  const ts = input.timeseries;
  if (ts) {
    if (!ts.orderBy) errors.orderBy = 'Choose the time column (ORDER BY)';
    else if (ts.orderBy === input.target)
      errors.orderBy = 'The time column cannot be the column to predict';
    if (steps(ts.window) === null) errors.window = 'WINDOW: a whole number of rows from 1 to 10000';
    if (ts.horizon.trim() && steps(ts.horizon) === null)
      errors.horizon = 'HORIZON: a whole number of steps from 1 to 10000';
    const bad = ts.groupBy.find((g) => g === input.target || g === ts.orderBy);
    if (bad) errors.groupBy = `GROUP BY ${bad}: not the time column or the column to predict`;
  }
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
  const ts = input.timeseries;
  if (ts) {
    if (ts.orderBy) lines.push(`ORDER BY ${quoteIdent(ts.orderBy)}`);
    if (ts.groupBy.length) lines.push(`GROUP BY ${ts.groupBy.map(quoteIdent).join(', ')}`);
    lines.push(`WINDOW ${ts.window.trim() || '?'}`);
    if (ts.horizon.trim()) lines.push(`HORIZON ${ts.horizon.trim()}`);
  }
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

/**
 * `RETRAIN p.m FROM db (SELECT <the inputs but some> , <target> ...)`: the same model, trained
 * again without some inputs (a leak, an identifier). A `SELECT * FROM t ...` training query keeps
 * its FROM and the rest and lists the columns; any other query is wrapped.
 */
export function retrainWithoutSql(spec: {
  project: string;
  model: string;
  db: string;
  selectQuery: string;
  inputs: readonly string[];
  target: string;
  without: readonly string[];
}): string {
  const drop = new Set(spec.without.map((c) => c.toLowerCase()));
  const columns = [...spec.inputs.filter((c) => !drop.has(c.toLowerCase())), spec.target]
    .map(quoteIdent)
    .join(', ');
  const query = spec.selectQuery.trim().replace(/;\s*$/, '');
  const star = /^SELECT\s+\*\s+(FROM\s[\s\S]*)$/i.exec(query);
  const inner = star
    ? `SELECT ${columns}\n   ${star[1]}`
    : `SELECT ${columns}\n   FROM (${query}) AS t`;
  return [
    `RETRAIN ${quoteIdent(spec.project)}.${quoteIdent(spec.model)}`,
    `FROM ${quoteIdent(spec.db)}`,
    `  (${inner})`,
    `PREDICT ${quoteIdent(spec.target)};`,
  ].join('\n');
}

export function dropModelSql(project: string, name: string): string {
  return `DROP MODEL ${quoteIdent(project)}.${quoteIdent(name)};`;
}

/** A default model name for a table: `home_rentals` -> `home_rentals_model`. */
export function defaultModelName(table: string): string {
  const base = table.replace(/[^A-Za-z0-9_]/g, '_').replace(/^[^A-Za-z]+/, '');
  return `${base || 'my'}_model`;
}
