/**
 * The working state of planning one query: DuckDB's tree of the (dialect-adjusted) text, the
 * tokens of that text for finding where tree nodes are written, the rewrites collected so far, and
 * helpers shared by the planner's steps (TEMP tables of the request, auxiliary queries rendered
 * from the tree, spans of names and simple expressions).
 */
import { scanSql } from '../../../contract/sql-split';
import type { QueryOptions } from '../../engine/session';
import { quoteIdent } from '../../engine/quote';
import type { JsonValue } from '../../engine/values';
import { ServiceError } from '../../errors';
import type { Edit, Rewrite, StatementSource } from '../syntax/source';
import { isOp, type Tokens } from '../syntax/tokens';
import {
  BIG_MARK,
  NO_LOCATION,
  byteLocation,
  renderQuery,
  type CteEntry,
  type JNode,
  type QueryIndex,
} from '../syntax/tree';
import type { ExecContext, SqlEnv } from '../types';
import type { Resolved } from './names';
import type { RowAnswer, Step } from './steps';

/** One column of an order key: `alias.column` in the SELECT that reads it. */
export interface KeyPart {
  alias: string;
  column: string;
}

export interface Span {
  start: number;
  end: number;
}

/** The relation a single prediction became (model-relations.ts `single`; plan/row-answer.ts). */
interface SingleRelation {
  into: string;
  /** The name the FROM item answers to (its alias, or the model's name). */
  alias: string;
  /** Its columns in order (types as the relation casts them) and where each value comes from. */
  columns: RowAnswer['columns'];
}

export class PlanState {
  readonly edits: Edit[] = [];
  /** What runs before the final SQL (steps.ts), in order. */
  readonly steps: Step[] = [];
  readonly resolved = new Map<JNode, Resolved>();
  /** Model references already replaced by their predictions. */
  readonly replacedModels = new Set<JNode>();
  /** MindsDB's `LATEST` keyword where the query wrote it (parsed as a column), and those a forecast read. */
  readonly latest = new Set<JNode>();
  readonly latestUsed = new Set<JNode>();
  /**
   * Row order (plan/order.ts): the key that orders each SELECT's rows as MindsDB returns them
   * (the data side's row positions, a forecast's output sequence), set by the model planners;
   * the key columns a query exports to the queries reading it; where each FROM item is written;
   * what each `*` must leave out (planner columns), written once per star at the end.
   */
  readonly keys = new Map<JNode, KeyPart[]>();
  readonly exported = new Map<JNode, string[]>();
  readonly itemSpans = new Map<JNode, Span>();
  readonly starExcludes = new Map<JNode, { qualified: string[]; bare: string[] }>();
  /**
   * Planned to score in batches (plan/stream.ts): a model JOIN then predicts each data row of a
   * batch in order and attaches the predictions by the row's position (model-inputs.ts), instead
   * of predicting the distinct input rows and matching them back on every input column.
   */
  positional = false;
  /** Single predictions' relations, by the SELECT reading them (plan/row-answer.ts). */
  readonly singleRelations = new Map<JNode, SingleRelation>();

  constructor(
    readonly env: SqlEnv,
    readonly ctx: ExecContext,
    readonly src: StatementSource,
    /** The text DuckDB parsed, mapped to the statement. */
    readonly rw: Rewrite,
    readonly tokens: Tokens,
    readonly offsets: (byte: number) => number,
    readonly index: QueryIndex,
    /** The database bare names resolve in. */
    readonly db: string,
    /** The statement's query node (the root of `index`). */
    readonly root: JNode,
  ) {}

  /** A node's position in `rw.text`, when DuckDB kept one. */
  loc(n: JNode | null | undefined): number | undefined {
    const b = byteLocation(n);
    return b === undefined ? undefined : this.offsets(b);
  }

  /** The span of a dotted name written at `start` (`a.b."c"`). */
  nameSpan(start: number): Span | null {
    const sig = this.tokens.sig;
    let i = this.tokens.indexAt(start);
    if (i < 0) return null;
    while (isOp(sig[i + 1], '.') && sig[i + 2] && sig[i + 2].kind !== 'op') i += 2;
    return { start, end: sig[i].end };
  }

  /**
   * The span of a simple expression: a column, a literal (signed numbers included), a parameter,
   * or a comparison of those. Null for anything else.
   */
  exprSpan(n: JNode): Span | null {
    const sig = this.tokens.sig;
    if (n.class === 'COLUMN_REF') {
      const at = this.loc(n);
      return at === undefined ? null : this.nameSpan(at);
    }
    if (n.class === 'CONSTANT') {
      const at = this.loc(n);
      if (at === undefined) return null;
      let i = this.tokens.indexAt(at);
      if (i < 0) return null;
      if ((isOp(sig[i], '-') || isOp(sig[i], '+')) && sig[i + 1]) i++;
      return { start: at, end: sig[i].end };
    }
    if (n.class === 'CAST' && this.loc(n) === undefined) return this.exprSpan(n.child as JNode);
    if (n.class === 'COMPARISON') {
      const left = this.exprSpan(n.left as JNode);
      const opAt = this.loc(n);
      if (!left || opAt === undefined) return null;
      const right = n.right as JNode;
      let r = right.class === 'PARAMETER' ? null : this.exprSpan(right);
      if (!r && right.class === 'PARAMETER') {
        const op = this.tokens.indexAt(opAt);
        const t = sig[op + 1];
        if (t?.kind === 'placeholder') r = { start: t.start, end: t.end };
      }
      if (!r) return null;
      return { start: Math.min(left.start, r.start), end: Math.max(left.end, r.end) };
    }
    return null;
  }

  /**
   * Records a rewrite of [start, end). A rewrite of a span wins over earlier rewrites inside it
   * (a whole condition replaced after one of its literals was); one inside an earlier rewritten
   * span is dropped.
   */
  edit(start: number, end: number, text: string): void {
    const inside = (e: Edit) => e.start >= start && e.end <= end && e.end > e.start;
    if (
      this.edits.some(
        (e) =>
          start >= e.start &&
          end <= e.end &&
          e.end > e.start &&
          end > start &&
          !(e.start === start && e.end === end),
      )
    ) {
      return;
    }
    for (let i = this.edits.length - 1; i >= 0; i--)
      if (inside(this.edits[i])) this.edits.splice(i, 1);
    this.edits.push({ start, end, text });
  }

  /** A fresh TEMP table name for this request, dropped when the statement is done. */
  tempName(kind: string): string {
    const name = `__mdb_${kind}_${++this.ctx.seq.n}`;
    this.ctx.temps.push(name);
    return name;
  }

  /**
   * A fresh name for `n` values a step computes and the final SQL reads as parameters
   * (`$<name>_<i>`, see `valueParam`): bound to NULL while planning, so what is planned after
   * binds, and given by the step when it runs.
   */
  valuesName(kind: string, n: number): string {
    const name = `__mdb_${kind}_${++this.ctx.seq.n}`;
    const params = (this.ctx.params ??= {});
    for (let i = 0; i < n; i++) params[valueParam(name, i)] = null;
    return name;
  }

  /** The SQL of a TEMP table name. */
  static tempSql(name: string): string {
    return `temp.main.${quoteIdent(name)}`;
  }

  /**
   * Records a step that fills the TEMP table `into`, created here empty with the given schema so
   * what is planned after it binds against it (see steps.ts); the executor fills it.
   */
  async addStep(step: Step, schema: PlaceholderSchema, what?: string): Promise<void> {
    await this.placeholder(step.into, schema, what);
    this.steps.push(step);
  }

  /**
   * Creates a TEMP table a step fills, empty (see `createPlaceholder`). A query's errors say what
   * it was for, after DuckDB has had its say on what the user wrote (`validate`).
   */
  async placeholder(name: string, schema: PlaceholderSchema, what?: string): Promise<void> {
    const db = 'query' in schema && schema.db !== undefined ? schema.db : this.engineDb(this.db);
    try {
      await createPlaceholder(this.ctx, name, schema, db);
    } catch (err) {
      if (!what || !(err instanceof ServiceError)) throw err;
      await this.validate?.();
      throw new ServiceError(
        err.code,
        `${err.message.replace(/ \((statement at )?line \d+, column \d+\)$/, '')} (while ${what})`,
      );
    }
  }

  /** Runs an internal query of the plan on the request's session (its timeout and signal). */
  run(sql: string, o: QueryOptions = {}) {
    return this.ctx.session.query(sql, {
      db: this.engineDb(this.db),
      signal: this.ctx.signal,
      params: paramsOf(sql, this.ctx.params),
      maxRows: Number.MAX_SAFE_INTEGER,
      maxBytes: Number.MAX_SAFE_INTEGER,
      ...o,
    });
  }

  /** The DuckDB catalog to USE for a database (none for system and remote databases). */
  engineDb(db: string): string | undefined {
    const info = this.env.catalog.databaseInfo(db);
    if (!info || info.type === 'system' || this.env.integrations.isRemote(info.name))
      return undefined;
    return info.name;
  }

  /**
   * SQL for an auxiliary query over part of the tree, with the CTEs visible there. Errors of such
   * queries lose DuckDB's position (it points into generated text) and say what they were for.
   */
  async render(node: JNode, ctes: readonly CteEntry[]): Promise<string> {
    const seen = new Set<string>();
    const map: CteEntry[] = [];
    for (const e of [...ctes].reverse()) {
      if (seen.has(e.key.toLowerCase())) continue;
      seen.add(e.key.toLowerCase());
      map.unshift(e);
    }
    return renderQuery(this.ctx.session, { ...node, cte_map: { map } });
  }

  /** Runs generated SQL; its errors keep their message and lose their position. */
  async runGenerated(sql: string, what: string, o: QueryOptions = {}) {
    try {
      return await this.run(sql, o);
    } catch (err) {
      if (err instanceof ServiceError) {
        // The user's query itself is likely wrong: let DuckDB say where, in what he wrote.
        await this.validate?.();
        // Its position is in the generated SQL, not in what the user wrote: dropped.
        throw new ServiceError(err.code, `${err.message} (while ${what})`);
      }
      throw err;
    }
  }

  /** Checks the query as written (set by the model step); throws DuckDB's positioned error. */
  validate?: () => Promise<void>;

  /**
   * Keeps planner columns out of a select-list star: `*` leaves out `alias.column` (qualified),
   * `alias.*` leaves out `column` (bare). Collected here and written once per star by
   * `writeStarExcludes`, merged with the user's own EXCLUDE.
   */
  excludeFromStar(star: JNode, columns: { alias?: string; column: string }[]): void {
    let e = this.starExcludes.get(star);
    if (!e) this.starExcludes.set(star, (e = { qualified: [], bare: [] }));
    for (const c of columns) {
      if (String(star.relation_name ?? '') !== '' || c.alias === undefined) e.bare.push(c.column);
      else e.qualified.push(`${quoteIdent(c.alias)}.${quoteIdent(c.column)}`);
    }
  }

  /** Writes the collected star exclusions (see `excludeFromStar`). */
  writeStarExcludes(): void {
    const sig = this.tokens.sig;
    for (const [star, e] of this.starExcludes) {
      const at = this.loc(star);
      if (at === undefined) continue;
      let i = this.tokens.indexAt(at);
      while (i < sig.length && !isOp(sig[i], '*')) i++;
      if (i >= sig.length) continue;
      const names = [...e.qualified, ...e.bare.map(quoteIdent)];
      if (names.length === 0) continue;
      if (sig[i + 1]?.word === 'EXCLUDE') {
        // The user's own EXCLUDE: `EXCLUDE (a, b)` gets ours inside, `EXCLUDE a` in parentheses.
        const open = sig[i + 2];
        if (isOp(open, '(')) this.edit(open.end, open.end, ` ${names.join(', ')}, `);
        else if (open) this.edit(open.start, open.end, `(${names.join(', ')}, ${open.raw})`);
        continue;
      }
      this.edit(sig[i].end, sig[i].end, ` EXCLUDE (${names.join(', ')})`);
    }
  }
}

/** A step's TEMP table: its columns, or the columns a query (in `db`) answers. */
export type PlaceholderSchema =
  { columns: { name: string; type: string }[] } | { query: string; db?: string };

/** The parameter name of a step's `i`-th value (see `PlanState.valuesName`). */
export const valueParam = (name: string, i: number) => `${name}_${i}`;

/** A computed column type as the TEMP table holds it (see engine/scratch.ts's loader). */
export const tempType = (t: string) => (t === 'JSON' ? 'VARCHAR' : t);

/**
 * Creates a step's TEMP table empty: from a column list, or with the columns a query answers
 * (`query`: SQL in the request's current database, its `$params` given).
 */
export async function createPlaceholder(
  ctx: ExecContext,
  name: string,
  schema: PlaceholderSchema,
  db: string | undefined,
): Promise<void> {
  if ('columns' in schema) {
    const defs = schema.columns.map((c) => `${quoteIdent(c.name)} ${tempType(c.type)}`);
    await ctx.session.query(`CREATE TEMP TABLE ${quoteIdent(name)} (${defs.join(', ')})`, {
      internal: true,
    });
    return;
  }
  await ctx.session.query(
    `CREATE TEMP TABLE ${quoteIdent(name)} AS SELECT * FROM (${schema.query}) AS __mdb_q LIMIT 0`,
    { db, params: paramsOf(schema.query, ctx.params), signal: ctx.signal },
  );
}

/** The request's params that `sql` uses as `$name` (DuckDB refuses values it does not use). */
export function paramsOf(
  sql: string,
  params: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  if (!params || !sql.includes('$')) return undefined;
  const used: Record<string, unknown> = {};
  let any = false;
  for (const t of scanSql(sql)) {
    if (t.kind !== 'placeholder') continue;
    const name = sql.slice(t.start + 1, t.end);
    if (name in params) {
      used[name] = params[name];
      any = true;
    }
  }
  return any ? used : undefined;
}

/** A SELECT node for auxiliary queries. */
export function selectNode(o: {
  selectList: JNode[];
  from: JNode;
  where?: JNode | null;
  modifiers?: JNode[];
}): JNode {
  return {
    type: 'SELECT_NODE',
    modifiers: o.modifiers ?? [],
    cte_map: { map: [] },
    select_list: o.selectList,
    from_table: o.from,
    where_clause: o.where ?? null,
    group_expressions: [],
    group_sets: [],
    aggregate_handling: 'STANDARD_HANDLING',
    having: null,
    sample: null,
    qualify: null,
  };
}

export function columnRef(parts: string[], alias = ''): JNode {
  return {
    class: 'COLUMN_REF',
    type: 'COLUMN_REF',
    alias,
    query_location: NO_LOCATION,
    column_names: parts,
  };
}

export function starNode(relation = ''): JNode {
  return {
    class: 'STAR',
    type: 'STAR',
    alias: '',
    query_location: NO_LOCATION,
    relation_name: relation,
    exclude_list: [],
    replace_list: [],
    columns: false,
    expr: null,
    qualified_exclude_list: [],
    rename_list: [],
  };
}

export function limitModifier(limit: number): JNode {
  return {
    type: 'LIMIT_MODIFIER',
    limit: {
      class: 'CONSTANT',
      type: 'VALUE_CONSTANT',
      alias: '',
      query_location: NO_LOCATION,
      value: { type: { id: 'BIGINT', type_info: null }, is_null: false, value: limit },
    },
    offset: null,
  };
}

/** A table node naming a TEMP table. */
export function tempTableNode(name: string, alias: string): JNode {
  return {
    type: 'BASE_TABLE',
    alias,
    sample: null,
    query_location: NO_LOCATION,
    schema_name: 'main',
    table_name: name,
    column_name_alias: [],
    catalog_name: 'temp',
    at_clause: null,
  };
}

/** The value of a literal node (a constant, or a constant cast such as `true` or DATE '...'). */
export function literalValue(n: JNode): { value: JsonValue } | null {
  if (n.class === 'CAST') {
    const inner = literalValue(n.child as JNode);
    if (!inner) return null;
    if ((n.cast_type as JNode)?.id === 'BOOLEAN' && typeof inner.value === 'string') {
      return { value: ['t', 'true', '1', 'y', 'yes'].includes(inner.value.toLowerCase()) };
    }
    return inner;
  }
  if (n.class !== 'CONSTANT') return null;
  const v = n.value as JNode;
  if (v.is_null) return { value: null };
  const type = v.type as JNode;
  const raw = v.value;
  const text =
    typeof raw === 'string' && raw.startsWith(BIG_MARK) ? raw.slice(BIG_MARK.length) : raw;
  if (type.id === 'DECIMAL') {
    const scale = Number((type.type_info as JNode | null)?.scale ?? 0);
    // Place the decimal point in the digits (dividing would round twice).
    const digits = String(text);
    const neg = digits.startsWith('-');
    const abs = (neg ? digits.slice(1) : digits).padStart(scale + 1, '0');
    const point = abs.length - scale;
    return { value: Number(`${neg ? '-' : ''}${abs.slice(0, point)}.${abs.slice(point) || '0'}`) };
  }
  if (type.id === 'HUGEINT' || type.id === 'UHUGEINT') {
    const o = raw as { upper: number | string; lower: number | string };
    const big =
      (BigInt(String(o.upper).replace(BIG_MARK, '')) << 64n) +
      BigInt(String(o.lower).replace(BIG_MARK, ''));
    return { value: Number.isSafeInteger(Number(big)) ? Number(big) : big.toString() };
  }
  if (typeof raw === 'string' && raw.startsWith(BIG_MARK))
    return { value: raw.slice(BIG_MARK.length) };
  return { value: raw as JsonValue };
}

/** Row-major rows to column-major values. */
export function transpose<T>(rows: T[][], width: number): T[][] {
  const cols: T[][] = Array.from({ length: width }, () => new Array<T>(rows.length));
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    for (let j = 0; j < width; j++) cols[j][i] = r[j];
  }
  return cols;
}
