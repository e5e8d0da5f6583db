/**
 * What a script would do, decided before anything of it runs (`POST /api/sql/classify`): for each
 * statement, whether it only reads, changes data or models, only sets the session's database, is
 * refused, or cannot run; and whether it is expensive or unusual (a large cross join, a result of
 * gigabytes, predictions over many rows, a function that can crash the engine). A shared link runs
 * at once only when every statement reads and none is expensive or unusual.
 *
 * The judgement is the engine's and the planner's, never a scan of the text: the statement is
 * split and dispatched exactly as the SQL service runs it (the shared splitter, MindsDB's grammar,
 * then DuckDB), a query is one DuckDB parses as a SELECT (`json_serialize_sql`, which serializes
 * nothing else), any other statement is named by DuckDB's own statement type of the bound
 * statement, and cost comes from DuckDB's plan estimates (`EXPLAIN`, which does not run the
 * query). No spelling (E'' strings, dollar quotes, comments, a CTE before a DELETE, EXPLAIN
 * ANALYZE) can make a write look like a read: anything DuckDB does not parse as a SELECT is not a
 * read.
 *
 * Every call into the planner is in `outline` and `estimate` below (the planner is being
 * restructured to plan without running; these two are what to switch over).
 */
import { scanSegments } from '../../contract/sql-split';
import type { Classification, ClassifiedStatement } from '../../contract/classify';
import type { EngineSession } from '../engine/session';
import { DEEP_JSON_FUNCTIONS } from '../engine/json-guard';
import { guardStatementText } from '../engine/guard';
import { quoteIdent } from '../engine/quote';
import { ERROR_CODES, ServiceError } from '../errors';
import { inputColumns, predictionColumns } from '../models/predict/columns';
import { missingJoinCondition } from './plan/query';
import { resolveTable, type Resolved } from './plan/names';
import { toDuckText } from './syntax/dialect';
import { parseMindsStatement } from './syntax/grammar';
import { StatementSource, applyEdits, type Rewrite } from './syntax/source';
import type { MindsStatement } from './syntax/statement';
import { Tokens } from './syntax/tokens';
import {
  indexQuery,
  parseQuery,
  renderQuery,
  BIG_MARK,
  type JNode,
  type ParseOutcome,
} from './syntax/tree';
import type { SqlEnv } from './types';

/** Thresholds past which a link asks first (docs/reliability.md, "Shared links"). */
const LINK_LIMITS = {
  /** Rows any step of the plan is expected to produce. */
  rows: 50_000_000,
  /** Rows a cross join (or a join without an equality) is expected to produce. */
  crossRows: 1_000_000,
  /** Expected bytes of the result (rows x columns x 8). */
  resultBytes: 1024 ** 3,
  /** Rows a query's models are expected to predict. */
  predictedRows: 10_000,
};

/** Functions with effects beyond the query's answer (lower case). */
const WRITING_FUNCTIONS: Record<string, string> = {
  nextval: 'advances a sequence',
  setseed: "sets the random generator's seed",
  checkpoint: 'checkpoints the database',
  force_checkpoint: 'checkpoints the database',
};

/** Table functions whose binding reads a file's contents to guess its schema. */
const FILE_READERS =
  /^(read_json|read_json_auto|read_ndjson|read_ndjson_auto|read_json_objects|read_ndjson_objects)$/;

const MINDS_EFFECT: Record<MindsStatement['kind'], ClassifiedStatement['effect']> = {
  use: 'session',
  'set-session': 'session',
  show: 'read',
  describe: 'read',
  evaluate: 'read',
  refused: 'refused',
  'create-model': 'write',
  retrain: 'write',
  finetune: 'write',
  'drop-model': 'write',
  'create-project': 'write',
  'create-database': 'write',
  'drop-database': 'write',
  'create-ml-engine': 'write',
  'drop-ml-engine': 'write',
  'update-versions': 'write',
  'delete-versions': 'write',
  'set-active': 'write',
  'create-table': 'write',
  insert: 'write',
  'create-view': 'write',
  'drop-view': 'write',
  'drop-table': 'write',
  'update-on': 'write',
};

const MAX_DEPTH = 8;

export interface ClassifyRequest {
  query: string;
  db?: string;
  params?: Record<string, unknown>;
  signal?: AbortSignal;
}

interface Judgement {
  effect: ClassifiedStatement['effect'];
  kind: string;
  reasons: string[];
  estimatedRows: number | null;
  predictedRows: number | null;
  models: string[];
}

const judgement = (
  effect: Judgement['effect'],
  kind: string,
  reasons: string[] = [],
): Judgement => ({
  effect,
  kind,
  reasons,
  estimatedRows: null,
  predictedRows: null,
  models: [],
});

/**
 * Classifies every statement of `req.query` on `session`, carrying the current database through
 * `USE` as the SQL service does. Never runs a statement.
 */
export async function classifyScript(
  env: SqlEnv,
  session: EngineSession,
  req: ClassifyRequest,
): Promise<Classification> {
  let db = env.catalog.databaseInfo(req.db ?? 'mindsdb')?.name ?? req.db ?? 'mindsdb';
  const out: ClassifiedStatement[] = [];
  for (const seg of scanSegments(req.query).filter((s) => s.hasCode)) {
    let j: Judgement;
    if (seg.unterminated) {
      j = judgement('error', 'statement', [`Unterminated ${seg.unterminated}: it cannot run`]);
    } else {
      try {
        // Journaled as the statement (a crash while judging it quarantines it), and refused
        // here when it crashed the engine before.
        session.clientStatement(seg.sql);
        const src = new StatementSource(seg.sql, seg.start, req.query);
        const tokens = new Tokens(seg.sql);
        const minds = parseMindsStatement(tokens, src, req.params);
        if (minds) {
          j = judgement(MINDS_EFFECT[minds.kind], minds.kind.toUpperCase().replaceAll('-', ' '));
          if (minds.kind === 'evaluate') {
            j.reasons.push('EVALUATE predicts with a model over the rows of a query');
          }
          if (minds.kind === 'use') db = env.catalog.databaseInfo(minds.name[0])?.name ?? db;
          if (minds.kind === 'refused') {
            j.reasons.push(`${minds.construct} is not supported by this instance`);
          }
          if (j.effect === 'write') j.reasons.push(writeReason(j.kind));
        } else {
          j = await classifyDuck(env, session, tokens, db, req.params, 0);
        }
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        j =
          err.code === ERROR_CODES.FORBIDDEN
            ? judgement('refused', 'statement', [err.message])
            : judgement('error', 'statement', [`It would fail: ${err.message}`]);
      }
    }
    out.push({
      sql: seg.sql,
      start: seg.start,
      end: seg.start + seg.sql.length,
      effect: j.effect,
      kind: j.kind,
      reasons: j.reasons,
      estimated_rows: j.estimatedRows,
      predicted_rows: j.predictedRows,
      models: j.models,
    });
  }
  return {
    statements: out,
    run_without_asking:
      out.length > 0 && out.every((s) => s.effect === 'read' && s.reasons.length === 0),
    context: { db },
  };
}

const writeReason = (kind: string) => `${kind} changes data, models or the catalog`;

/** The engine database a DuckDB statement runs in (none for system and remote databases). */
function engineDb(env: SqlEnv, db: string): string | undefined {
  const info = env.catalog.databaseInfo(db);
  return info && info.type !== 'system' && !env.integrations.isRemote(info.name)
    ? info.name
    : undefined;
}

/** A statement in DuckDB's SQL (after MindsDB's lexical dialect), as the SQL service runs it. */
async function classifyDuck(
  env: SqlEnv,
  session: EngineSession,
  tokens: Tokens,
  db: string,
  params: Record<string, unknown> | undefined,
  depth: number,
): Promise<Judgement> {
  if (depth > MAX_DEPTH) {
    return judgement('error', 'statement', ['Views and native queries nest too deep']);
  }
  const o = await outline(env, session, tokens, db, params);
  if (!o.parsed.ok) {
    if (o.parsed.kind === 'parser') {
      return judgement('error', 'statement', [`It would fail: ${o.parsed.message}`]);
    }
    return classifyOther(env, session, o.text, db, params, depth);
  }
  const j = judgement('read', 'SELECT');
  const { functions, tableFunctions } = functionsIn(o.parsed.tree);
  for (const f of functions) {
    if (WRITING_FUNCTIONS[f]) {
      j.effect = 'write';
      j.reasons.push(`${f}() ${WRITING_FUNCTIONS[f]}`);
    }
    if (DEEP_JSON_FUNCTIONS.includes(f)) {
      j.reasons.push(`${f}() can crash the engine on deeply nested JSON (issue 22)`);
    }
  }
  let estimable = true;
  for (const f of tableFunctions) {
    if (WRITING_FUNCTIONS[f]) {
      j.effect = 'write';
      j.reasons.push(`${f}() ${WRITING_FUNCTIONS[f]}`);
    }
    if (FILE_READERS.test(f)) {
      estimable = false;
      j.reasons.push(
        `${f}() guesses the structure of a JSON file by reading it, which can be costly`,
      );
    }
  }
  for (const n of o.natives) {
    if (env.integrations.isRemote(n.db)) {
      estimable = false;
      j.effect = j.effect === 'read' ? 'unknown' : j.effect;
      j.reasons.push(
        `It sends a native query to '${n.db}', which runs there as written: the instance cannot tell what it does`,
      );
    } else {
      merge(j, await classifyDuck(env, session, new Tokens(n.sql), n.db, params, depth + 1));
    }
  }
  for (const { resolved: r } of o.refs) {
    if (r.kind === 'model') j.models.push(`${r.ref.project}.${r.ref.name}`);
    else if (r.kind === 'view') {
      estimable = false;
      merge(
        j,
        await classifyDuck(env, session, new Tokens(r.view.sql), r.view.db, params, depth + 1),
      );
    } else if (r.kind === 'remote' || r.kind === 'system' || r.kind === 'native') estimable = false;
  }
  if (estimable && o.refs.length + tableFunctions.size > 0) {
    await estimate(env, session, o, db, params, j);
  } else if (j.models.length > 0 && j.predictedRows === null) {
    j.reasons.push(
      `It predicts with ${j.models.join(', ')} over rows the instance cannot count ahead`,
    );
  }
  return j;
}

/** Folds an inner query's judgement (a view's, a native query's) into the statement's. */
function merge(j: Judgement, inner: Judgement): void {
  if (inner.effect !== 'read' && j.effect === 'read') j.effect = inner.effect;
  for (const r of inner.reasons) if (!j.reasons.includes(r)) j.reasons.push(r);
  j.models.push(...inner.models.filter((m) => !j.models.includes(m)));
  if (inner.predictedRows !== null) j.predictedRows = (j.predictedRows ?? 0) + inner.predictedRows;
}

/** A statement DuckDB does not parse as a query: DuckDB's own statement type names it. */
async function classifyOther(
  env: SqlEnv,
  session: EngineSession,
  text: string,
  db: string,
  params: Record<string, unknown> | undefined,
  depth: number,
): Promise<Judgement> {
  let type: string;
  try {
    type = await session.statementType(text, { db: engineDb(env, db) });
  } catch (err) {
    if (err instanceof ServiceError && err.code === ERROR_CODES.FORBIDDEN) {
      return judgement('refused', 'statement', [err.message]);
    }
    const why = err instanceof Error ? err.message : String(err);
    // Not a query, whatever else it is (DuckDB could not bind it here; it may still run
    // elsewhere, e.g. on an integration).
    return judgement('unknown', 'statement', [
      `It is not a query, and DuckDB cannot tell more here (${why})`,
    ]);
  }
  if (type === 'EXPLAIN') {
    // EXPLAIN ANALYZE runs the statement it explains: judged as that statement.
    const inner = guardStatementText(text);
    if (inner === null) return judgement('unknown', 'EXPLAIN', ['EXPLAIN of nothing DuckDB reads']);
    const j = await classifyDuck(env, session, new Tokens(inner), db, params, depth + 1);
    return { ...j, kind: `EXPLAIN ${j.kind}` };
  }
  if (type === 'CALL') {
    return judgement('unknown', 'CALL', [
      'CALL runs a procedure or table function the instance does not judge',
    ]);
  }
  return judgement('write', type, [writeReason(type)]);
}

interface Outline {
  text: string;
  parsed: ParseOutcome;
  refs: { resolved: Resolved; node: JNode; alias: string }[];
  natives: { db: string; sql: string }[];
}

/**
 * The planner's reading of a statement, without running anything: MindsDB's lexical dialect,
 * DuckDB's parse (with `ON TRUE` for MindsDB's joins without a condition), and what each table
 * reference is (model, view, integration table, system table, native query, DuckDB table).
 */
async function outline(
  env: SqlEnv,
  session: EngineSession,
  tokens: Tokens,
  db: string,
  params: Record<string, unknown> | undefined,
): Promise<Outline> {
  const duck = toDuckText(tokens, {
    params,
    isDatabase: (name) => !!env.catalog.databaseInfo(name),
  });
  let rw: Rewrite = duck.rw;
  let parsed = await parseQuery(session, rw.text);
  for (let tries = 0; !parsed.ok && parsed.kind === 'parser' && tries < 32; tries++) {
    if (parsed.position === undefined) break;
    const at = missingJoinCondition(rw.text, parsed.position);
    if (at === null) break;
    rw = applyEdits(rw, [{ start: at, end: at, text: ' ON TRUE' }]);
    parsed = await parseQuery(session, rw.text);
  }
  const natives = duck.natives.map((n) => ({ db: n.db, sql: n.sql }));
  if (!parsed.ok) return { text: rw.text, parsed, refs: [], natives };
  if ((parsed.tree.statements as unknown[]).length !== 1) {
    // The engine runs exactly one statement per segment and refuses this one.
    return {
      text: rw.text,
      parsed: {
        ok: false,
        kind: 'parser',
        message: 'More than one statement where one was expected',
      },
      refs: [],
      natives,
    };
  }
  const refs: Outline['refs'] = [];
  for (const t of indexQuery(parsed.node).tables) {
    const r = resolveTable(env, t.parts, t.scope, db);
    refs.push({ resolved: r, node: t.node, alias: t.alias || t.parts[t.parts.length - 1] });
  }
  return { text: rw.text, parsed, refs, natives };
}

/** Every function and table function called anywhere in a parse tree (lower case). */
function functionsIn(tree: JNode): { functions: Set<string>; tableFunctions: Set<string> } {
  const functions = new Set<string>();
  const tableFunctions = new Set<string>();
  const walk = (v: unknown) => {
    if (!v || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    const n = v as JNode;
    if (typeof n.function_name === 'string') functions.add(n.function_name.toLowerCase());
    if (n.type === 'TABLE_FUNCTION') {
      const f = (n.function as JNode | undefined)?.function_name;
      if (typeof f === 'string') tableFunctions.add(f.toLowerCase());
    }
    for (const x of Object.values(n)) walk(x);
  };
  walk(tree);
  for (const f of tableFunctions) functions.delete(f);
  return { functions, tableFunctions };
}

interface PlanNode {
  name?: string;
  children?: PlanNode[];
  extra_info?: Record<string, unknown>;
}

/**
 * DuckDB's expectations for the query (`EXPLAIN (FORMAT JSON)`, which plans without running),
 * with every model standing in as a one-row table of its columns: the most rows any step
 * produces, cross joins, the result's size, and the rows the models would predict.
 */
async function estimate(
  env: SqlEnv,
  session: EngineSession,
  o: Outline,
  db: string,
  params: Record<string, unknown> | undefined,
  j: Judgement,
): Promise<void> {
  if (!o.parsed.ok) return;
  const tree = JSON.parse(JSON.stringify(o.parsed.node)) as JNode;
  const byNode = new Map<JNode, Outline['refs'][number]>();
  for (const r of o.refs) byNode.set(r.node, r);
  // Same walk on the copy: table references appear in the same order.
  const copies = indexQuery(tree).tables;
  const originals = indexQuery(o.parsed.node).tables;
  for (let i = 0; i < copies.length; i++) {
    const ref = byNode.get(originals[i].node);
    const r = ref?.resolved;
    if (!ref || r?.kind !== 'model') continue;
    let cols: { name: string; type: string }[];
    try {
      const desc = (await env.models.predictor(env.models.ready(r.ref))).description;
      cols = [...inputColumns(desc), ...predictionColumns(desc)];
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      j.reasons.push(`It would fail: ${err.message}`);
      j.effect = 'error';
      return;
    }
    // A one-row TEMP table of the model's columns (this session's own): unlike a constant
    // relation, DuckDB cannot prove a filter on it empty and drop the data side from the plan.
    const temp = `__classify_model_${i}`;
    await session.query(
      `CREATE OR REPLACE TEMP TABLE ${quoteIdent(temp)} AS SELECT ${cols
        .map(
          (c) => `CAST(NULL AS ${c.type === 'JSON' ? 'VARCHAR' : c.type}) AS ${quoteIdent(c.name)}`,
        )
        .join(', ')}`,
      { internal: true },
    );
    const parsed = await parseQuery(
      session,
      `SELECT * FROM temp.main.${quoteIdent(temp)} AS ${quoteIdent(ref.alias)}`,
    );
    if (!parsed.ok) return;
    const c = copies[i];
    (c.holder as Record<string | number, unknown>)[c.key] = parsed.node.from_table;
  }
  let plan: PlanNode[];
  try {
    const sql = await renderQuery(session, tree);
    const r = await session.query(`EXPLAIN (FORMAT JSON) ${sql}`, {
      db: engineDb(env, db),
      params: params && Object.keys(params).length ? params : undefined,
      maxRows: 10,
    });
    plan = JSON.parse(String(r.rows[0]?.[1] ?? '[]')) as PlanNode[];
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    if (err.code === ERROR_CODES.FORBIDDEN) {
      j.effect = 'refused';
      j.reasons.push(err.message);
    } else {
      j.effect = 'error';
      j.reasons.push(`It would fail: ${err.message}`);
    }
    return;
  }
  const limit = topLimit(o.parsed.node);
  let most = 0;
  let cross = 0;
  /** Rows a node produces; `cap`: a LIMIT above it stops this streaming pipeline early. */
  const rows = (n: PlanNode, cap: number): number => {
    const name = n.name ?? '';
    const isLimit = name === 'STREAMING_LIMIT' || name === 'LIMIT';
    const blocking = BLOCKING.test(name);
    const below = isLimit ? Math.min(cap, limit ?? Infinity) : blocking ? Infinity : cap;
    const kids = (n.children ?? []).map((k) => rows(k, below));
    const stated = Number(n.extra_info?.['Estimated Cardinality']);
    let own: number;
    if (Number.isFinite(stated)) own = stated;
    else if (name === 'CROSS_PRODUCT') own = kids.reduce((a, b) => a * b, 1);
    else if (name === 'UNGROUPED_AGGREGATE') own = 1;
    else own = Math.max(0, ...kids);
    if (/CROSS_PRODUCT|NESTED_LOOP_JOIN|BLOCKWISE_NL_JOIN|PIECEWISE_MERGE_JOIN/.test(name)) {
      cross = Math.max(
        cross,
        own,
        kids.reduce((a, b) => a * b, 1),
      );
    }
    own = Math.min(own, isLimit ? (limit ?? own) : cap);
    most = Math.max(most, own);
    return own;
  };
  const root = plan[0];
  if (!root) return;
  const out = rows(root, Infinity);
  j.estimatedRows = most;
  const fmt = (n: number) =>
    n >= 1e9
      ? `${Number((n / 1e9).toPrecision(3))} billion`
      : n >= 1e6
        ? `${Number((n / 1e6).toPrecision(3))} million`
        : Math.round(n).toLocaleString('en-US');
  if (cross > LINK_LIMITS.crossRows) {
    j.reasons.push(`It joins without an equality (a cross join) into about ${fmt(cross)} rows`);
  }
  if (most > LINK_LIMITS.rows) j.reasons.push(`A step of it produces about ${fmt(most)} rows`);
  const columns = Math.max(1, projections(root));
  if (out * columns * 8 > LINK_LIMITS.resultBytes) {
    j.reasons.push(`Its result is about ${((out * columns * 8) / 1024 ** 3).toFixed(1)} GB`);
  }
  if (j.models.length > 0) {
    j.predictedRows = most;
    if (most > LINK_LIMITS.predictedRows) {
      j.reasons.push(`It predicts with ${j.models.join(', ')} for about ${fmt(most)} rows`);
    }
  }
}

/** Plan operators that consume all their input before producing rows (a LIMIT above does not stop them). */
const BLOCKING =
  /ORDER_BY|TOP_N|HASH_GROUP_BY|PERFECT_HASH_GROUP_BY|UNGROUPED_AGGREGATE|WINDOW|HASH_JOIN|CROSS_PRODUCT|NESTED_LOOP_JOIN|PIECEWISE_MERGE_JOIN|BLOCKWISE_NL_JOIN|IE_JOIN|ASOF_JOIN|DISTINCT|UNION|EXCEPT|INTERSECT/;

/** The constant LIMIT of a query's top SELECT, if it has one. */
function topLimit(node: JNode): number | null {
  for (const m of (node.modifiers as JNode[] | undefined) ?? []) {
    if (m.type !== 'LIMIT_MODIFIER') continue;
    const v = ((m.limit as JNode | undefined)?.value as JNode | undefined)?.value;
    const n = Number(typeof v === 'string' ? v.replace(BIG_MARK, '') : v);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  return null;
}

/** Columns of a plan's result, as DuckDB lists them on its top projection. */
function projections(n: PlanNode): number {
  const p = n.extra_info?.Projections;
  if (Array.isArray(p)) return p.length;
  if (typeof p === 'string') return p.split('\n').filter(Boolean).length;
  return 1;
}
