/**
 * POST /api/sql/classify: what a script would do, judged before anything of it runs (what each
 * statement does as DuckDB and MindsDB's grammar see it, and whether it is expensive or unusual).
 * The playground asks it before running a shared link (`run=1`). Thin: server/sql/classify.ts
 * decides.
 */
import type { FastifyInstance } from 'fastify';
import { Classification, SqlClassifyRequest } from '../../../contract';
import { ERROR_CODES, ServiceError } from '../../errors';
import type { Instance } from '../../instance';
import { ERROR_RESPONSES, serve, type ApiRoute } from '../route-table';

const CLASSIFY = {
  method: 'POST',
  path: '/api/sql/classify',
  operationId: 'sqlClassify',
  tag: 'sql',
  summary: 'Judge what SQL would do, without running it',
  description:
    'Splits the script as `POST /api/sql/query` would and judges each statement without running it: `effect` (`read`, `write`, `session`, `refused`, `error`, `unknown`), its kind as DuckDB or MindsDB names it, and the reasons a shared link asks before running it (changes, large cross joins, huge results, predictions over many rows, functions that can crash the engine). `run_without_asking` is true when every statement reads and none has a reason. Ours only: a MindsDB server answers 404.',
  body: SqlClassifyRequest,
  bodyRequired: true,
  responses: {
    200: { description: 'The judgement of every statement', schema: Classification },
    400: ERROR_RESPONSES.badInput,
    401: ERROR_RESPONSES.unauthorized,
    413: ERROR_RESPONSES.tooLarge,
    415: ERROR_RESPONSES.unsupportedType,
  },
} as const satisfies ApiRoute;

export function sqlClassifyRoutes(app: FastifyInstance, instance: Instance) {
  serve(app, CLASSIFY, async ({ body }, req) => {
    if (body.query.length > instance.config.MAX_QUERY_CHARS) {
      throw new ServiceError(
        ERROR_CODES.TOO_LARGE,
        `query is ${body.query.length} characters long; the limit is ${instance.config.MAX_QUERY_CHARS}`,
      );
    }
    const ac = new AbortController();
    req.raw.on('close', () => {
      if (!req.raw.complete) ac.abort();
    });
    return instance.sql.classify({
      query: body.query,
      db: body.context?.db,
      params: body.params,
      signal: ac.signal,
    });
  });
}
