/**
 * The one place that turns failures into HTTP answers (the problem-details plugin): ServiceErrors
 * keep their code and status, Fastify's own errors (bad JSON, body too large, wrong content type,
 * a bad `%` escape, a URL segment too long) and malformed HTTP get specific messages, and anything
 * else is a logged 500 without a stack trace. A route declared with `config: { envelope: 'sql' }`
 * answers in the SQL envelope (`type: "error"`, `column_names`, `context`); the rest in MindsDB's
 * shape, problem details (`title`, `detail`, `application/problem+json`), with our `error_code`
 * and `error_message` beside them.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, ServiceError, withPosition, type ErrorPosition } from '../errors';

/**
 * @param bodyLimit the app's body limit in bytes, named in the 413 message
 */
export function toServiceError(err: FastifyError | Error, bodyLimit?: number): ServiceError {
  if (err instanceof ServiceError) return err;
  const fe = err as FastifyError;
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ServiceError(
        ERROR_CODES.TOO_LARGE,
        bodyLimit === undefined
          ? 'Request body is larger than the limit'
          : `Request body is larger than the limit (${bodyLimit} bytes, BODY_LIMIT_BYTES)`,
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
    case 'FST_ERR_BAD_URL':
      return new ServiceError(
        ERROR_CODES.BAD_INPUT,
        'The URL is not valid: it holds a malformed percent-escape',
        400,
      );
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ServiceError(
        ERROR_CODES.TOO_LARGE,
        'A segment of the URL is longer than the limit (500 characters)',
        414,
      );
    case 'FST_ERR_ASYNC_CONSTRAINT':
      return new ServiceError(ERROR_CODES.BAD_INPUT, 'The request cannot be routed', 400);
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

/** Route options (`config`) this plugin reads. */
interface EnvelopeRouteConfig {
  /** `sql`: errors answer in the SQL envelope, not as problem details. */
  envelope?: 'sql';
}

/** Whether a request is answered in the SQL envelope: its dispatched route, or its path if none. */
function isSqlRoute(req: FastifyRequest): boolean {
  if (req.routeOptions?.url) {
    return (req.routeOptions.config as EnvelopeRouteConfig | undefined)?.envelope === 'sql';
  }
  return req.url.startsWith('/api/sql');
}

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

/** `str(datetime.now())` as MindsDB writes it in its problem details: local time, microseconds. */
function mindsdbTimestamp(d = new Date()): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}000`;
}

/**
 * The error body outside the SQL envelope: MindsDB's `title` (the status's reason phrase),
 * `detail` and `timestamp`, with our `error_code` and `error_message`.
 */
function problemBody(status: number, code: number, message: string) {
  return {
    title: STATUS_CODES[status] ?? 'Error',
    detail: message,
    timestamp: mindsdbTimestamp(),
    error_code: code,
    error_message: message,
  };
}

/**
 * `error_code`, `error_message` and `error_position` of an error, as both error shapes carry them:
 * the position formatted into the message (the one place it is), and as data beside it.
 */
export function errorFields(code: number, message: string, position: ErrorPosition | undefined) {
  return {
    error_code: code,
    error_message: withPosition(message, position),
    ...(position ? { error_position: position } : {}),
  };
}

export function sendError(req: FastifyRequest, reply: FastifyReply, err: ServiceError) {
  const fields = errorFields(err.code, err.message, err.position);
  // A browser must never read an error body as anything but data (it echoes client input).
  reply.header('x-content-type-options', 'nosniff');
  if (isSqlRoute(req)) {
    const body = req.body as { context?: { db?: unknown } } | undefined;
    const db = typeof body?.context?.db === 'string' ? body.context.db : 'mindsdb';
    return reply
      .status(err.httpStatus)
      .send({ type: 'error', column_names: [], context: { db }, ...fields });
  }
  return reply
    .status(err.httpStatus)
    .type(PROBLEM_JSON)
    .send({ ...problemBody(err.httpStatus, err.code, fields.error_message), ...fields });
}

export interface ProblemLogger {
  error(msg: string): void;
}

/** The app's error handler and 404 handler. */
export function registerProblemDetails(
  app: FastifyInstance,
  { bodyLimit, log }: { bodyLimit: number; log: ProblemLogger },
): void {
  app.setErrorHandler((err, req, reply) => {
    const se = toServiceError(err as Error, bodyLimit);
    if (se.httpStatus >= 500)
      log.error(`${req.id} ${req.method} ${req.url} failed: ${(err as Error).stack ?? err}`);
    return sendError(req, reply, se);
  });
  app.setNotFoundHandler((req, reply) =>
    sendError(
      req,
      reply,
      new ServiceError(ERROR_CODES.NOT_FOUND, `No route ${req.method} ${req.url.split('?')[0]}`),
    ),
  );
}

const RAW_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'The request line or headers are larger than the limit (16 KB)',
  ],
  HPE_URI_TOO_LONG: [414, 'URI Too Long', 'The URL is longer than the limit'],
  HPE_INVALID_EOF_STATE: [
    400,
    'Bad Request',
    'The request ended before the body its Content-Length announced',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request took too long to arrive'],
};

/**
 * Answers an HTTP request Node could not parse (no route, no Fastify request) with the JSON
 * envelope, then closes the connection: the parser's state is unknown after such an error.
 */
export function sendRawError(err: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] = RAW_ERRORS[err.code ?? ''] ?? [
    400,
    'Bad Request',
    'The request is not valid HTTP',
  ];
  const code =
    status === 408
      ? ERROR_CODES.TIMEOUT
      : status === 400
        ? ERROR_CODES.BAD_INPUT
        : ERROR_CODES.TOO_LARGE;
  const body = JSON.stringify(problemBody(status, code, message));
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${PROBLEM_JSON}\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
