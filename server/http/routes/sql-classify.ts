/**
 * POST /api/sql/classify: what a script would do, judged before anything of it runs (what each
 * statement does as DuckDB and MindsDB's grammar see it, and whether it is expensive or unusual).
 * The playground asks it before running a shared link (`run=1`). Thin: server/sql/classify.ts
 * decides.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Classification, SqlClassifyRequest } from '../../../contract';
import { ERROR_CODES, ServiceError } from '../../errors';
import type { Instance } from '../../instance';
import { answer, ERROR_RESPONSES } from '../responses';

export const sqlClassifyRoutes: FastifyPluginAsyncZod<{ instance: Instance }> = async (
  app,
  { instance },
) => {
  app.route({
    method: 'POST',
    url: '/api/sql/classify',
    schema: {
      operationId: 'sqlClassify',
      tags: ['sql'],
      summary: 'Judge what SQL would do, without running it',
      description:
        'Splits the script as `POST /api/sql/query` would and judges each statement without running it: `effect` (`read`, `write`, `session`, `refused`, `error`, `unknown`), its kind as DuckDB or MindsDB names it, and the reasons a shared link asks before running it (changes, large cross joins, huge results, predictions over many rows, functions that can crash the engine). `run_without_asking` is true when every statement reads and none has a reason. Ours only: a MindsDB server answers 404.',
      body: SqlClassifyRequest,
      response: {
        200: answer('The judgement of every statement', Classification),
        400: ERROR_RESPONSES.badInput,
        401: ERROR_RESPONSES.unauthorized,
        413: ERROR_RESPONSES.tooLarge,
        415: ERROR_RESPONSES.unsupportedType,
      },
    },
    handler: async (req) => {
      const body = req.body;
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
    },
  });
};
