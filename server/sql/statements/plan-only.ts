/**
 * Plans a script's statements without running any of them: what the server's judge of a
 * statement's effect (server/sql/classify.ts) reads. Each statement is parsed as the service
 * would (MindsDB's grammar first, then DuckDB's parser) and, where it holds a query, that query is
 * planned: its steps say which models it predicts with (and on which relation), which
 * integrations it fetches from. Planning reads metadata only (DuckDB's parser and binder,
 * PostgreSQL column lists); the steps' empty TEMP tables live in the caller's session.
 */
import type { Tokens } from '../syntax/tokens';
import type { MindsStatement } from '../syntax/statement';
import { NotAQuery, planQuery } from '../plan/query';
import type { Step } from '../plan/steps';
import type { SqlService } from '../service';
import type { StatementInput } from './output';

/** The plan of a query: its steps, and where its final SQL runs. */
export interface QueryPlanSummary {
  steps: Step[];
  /** `duckdb`, or the PostgreSQL integration that runs the query whole. */
  runsIn: string;
}

export type PlannedStatement =
  /** MindsDB's own statement (CREATE MODEL, RETRAIN, CREATE TABLE ... (SELECT ...), ...). */
  | {
      kind: 'minds';
      statement: MindsStatement['kind'];
      text: string;
      query: QueryPlanSummary | null;
    }
  /** A query (SELECT, WITH, VALUES, ...; `EXPLAIN <query>` too, with `explain: true`). */
  | { kind: 'query'; text: string; explain: boolean; query: QueryPlanSummary }
  /** Any other DuckDB statement, named by its first keyword (UPDATE, DELETE, COPY, ...). */
  | { kind: 'other'; text: string; keyword: string };

/** MindsDB statements whose embedded query this plans (the query they read rows from). */
const EMBEDDED: Partial<Record<MindsStatement['kind'], true>> = {
  'create-table': true,
  insert: true,
  'create-view': true,
  'update-on': true,
  evaluate: true,
};

export async function planOnly(
  env: SqlService,
  minds: MindsStatement | null,
  x: StatementInput,
): Promise<PlannedStatement> {
  const text = x.src.text;
  if (minds) {
    const embedded =
      EMBEDDED[minds.kind] && 'query' in minds && typeof minds.query === 'object'
        ? minds.query
        : null;
    const planned = embedded ? await planQuery(env, embedded, x.src, x.ctx) : null;
    return { kind: 'minds', statement: minds.kind, text, query: planned && summary(planned) };
  }
  const explain = x.tokens.sig[0]?.word === 'EXPLAIN';
  const skip = explain ? (x.tokens.sig[1]?.word === 'ANALYZE' ? 2 : 1) : 0;
  const first = x.tokens.sig[skip];
  if (first) {
    try {
      const planned = await planQuery(
        env,
        { text: text.slice(first.start), start: first.start },
        x.src,
        x.ctx,
      );
      return { kind: 'query', text, explain, query: summary(planned) };
    } catch (err) {
      if (!(err instanceof NotAQuery)) throw err;
    }
  }
  return { kind: 'other', text, keyword: keyword(x.tokens) };
}

function summary(q: { steps: Step[]; target: { kind: string; db?: string } }): QueryPlanSummary {
  return {
    steps: q.steps,
    runsIn: q.target.kind === 'remote' ? (q.target.db ?? 'remote') : 'duckdb',
  };
}

const keyword = (tokens: Tokens) => tokens.sig[0]?.word || tokens.sig[0]?.raw || '';
