/** POST /api/sql/query: the spec's operation 1. Thin: validate, hand to the SQL layer, shape. */
import type { FastifyInstance } from 'fastify';
import { SqlQueryRequest } from '../../../src/api/contract';
import { ERROR_CODES, ServiceError } from '../../errors';
import type { Instance } from '../../instance';
import { parseBody } from '../validate';

export function sqlRoutes(app: FastifyInstance, instance: Instance) {
  app.post('/api/sql/query', async (req, reply) => {
    const body = parseBody(SqlQueryRequest, req.body);
    if (body.query.length > instance.config.MAX_QUERY_CHARS) {
      throw new ServiceError(
        ERROR_CODES.TOO_LARGE,
        `query is ${body.query.length} characters long; the limit is ${instance.config.MAX_QUERY_CHARS}`,
      );
    }
    // Interrupt the engine when the client goes away (the playground's Cancel button).
    const ac = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) ac.abort();
    });
    const r = await instance.sql.execute({
      query: body.query,
      db: body.context?.db,
      params: body.params,
      signal: ac.signal,
    });
    const { db, ...rest } = r;
    const context = { ...(body.context ?? {}), db };
    if (rest.type === 'error') return { ...rest, column_names: [], context };
    if (rest.type === 'ok') return { type: 'ok', column_names: [], affected_rows: rest.affected_rows ?? null, context };
    return { ...rest, context };
  });
}
