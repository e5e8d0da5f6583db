/**
 * The one place that turns failures into HTTP answers: ServiceErrors keep their code and status,
 * Fastify's own errors (bad JSON, body too large, wrong content type) get specific messages, and
 * anything else is a logged 500 without a stack trace. Routes under /api/sql answer in the SQL
 * envelope (`type: "error"`, `column_names`, `context`), the rest with `{error_code, error_message}`.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, ServiceError } from '../errors';

export function toServiceError(err: FastifyError | Error): ServiceError {
  if (err instanceof ServiceError) return err;
  const fe = err as FastifyError;
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ServiceError(
        ERROR_CODES.TOO_LARGE,
        `Request body is larger than the limit (${fe.message.replace(/^.*?(\d+).*$/, '$1')} bytes)`,
        413,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ServiceError(
        ERROR_CODES.BAD_INPUT,
        `Unsupported Content-Type; send JSON with 'Content-Type: application/json'`,
        415,
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ServiceError(
        ERROR_CODES.BAD_INPUT,
        'Request body is empty; expected a JSON object',
        400,
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ServiceError(ERROR_CODES.BAD_INPUT, 'Content-Length does not match the body', 400);
  }
  if (fe.statusCode === 400 && (err instanceof SyntaxError || /JSON/i.test(err.message))) {
    return new ServiceError(
      ERROR_CODES.BAD_INPUT,
      `Request body is not valid JSON: ${err.message}`,
      400,
    );
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new ServiceError(ERROR_CODES.BAD_INPUT, err.message, fe.statusCode);
  }
  return new ServiceError(
    ERROR_CODES.INTERNAL,
    'Internal error; see the instance log for details',
    500,
  );
}

export function isSqlRoute(url: string) {
  return url.startsWith('/api/sql');
}

export function sendError(req: FastifyRequest, reply: FastifyReply, err: ServiceError) {
  if (isSqlRoute(req.url)) {
    const body = req.body as { context?: { db?: unknown } } | undefined;
    const db = typeof body?.context?.db === 'string' ? body.context.db : 'mindsdb';
    return reply.status(err.httpStatus).send({
      type: 'error',
      column_names: [],
      context: { db },
      error_code: err.code,
      error_message: err.message,
    });
  }
  return reply.status(err.httpStatus).send({ error_code: err.code, error_message: err.message });
}
