/**
 * The Fastify application: body parsing, one log line per request with its duration, the error
 * handler, and the routes. Knows nothing of DuckDB; everything goes through the Instance.
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { ERROR_CODES, ServiceError } from '../errors';
import { VERSION, type Instance } from '../instance';
import { authEnabled } from '../config';
import { sendError, sendRawError, toServiceError } from './errors';
import { hasSession, registerAuth } from './auth';
import { registerRequestGuard } from './guard';
import { openApiRoutes } from './openapi';
import { trackRoutes } from './route-table';
import { modelCardRoutes } from './routes/model-card';
import { modelRoutes } from './routes/models';
import { projectRoutes } from './routes/projects';
import { databaseRoutes } from './routes/databases';
import { fileRoutes } from './routes/files';
import { sqlRoutes } from './routes/sql';
import { sqlClassifyRoutes } from './routes/sql-classify';
import { statusRoutes } from './routes/status';

export interface Logger {
  info(msg: string): void;
  error(msg: string): void;
}

export const consoleLogger: Logger = {
  info: (m) => process.stdout.write(`${m}\n`),
  error: (m) => process.stderr.write(`${m}\n`),
};

export const silentLogger: Logger = { info: () => {}, error: () => {} };

const utf8 = new TextDecoder('utf-8', { fatal: true });
const MAX_JSON_DEPTH = 64;

/** Nesting depth of a parsed JSON value, walked iteratively; stops counting past `limit`. */
function jsonDepth(value: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

export interface AppOptions {
  /** Destroy open keep-alive connections on close instead of waiting for them (tests). */
  forceCloseConnections?: boolean;
}

export async function buildApp(
  instance: Instance,
  log: Logger = consoleLogger,
  opts: AppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    ...(opts.forceCloseConnections ? { forceCloseConnections: true } : {}),
    bodyLimit: instance.config.BODY_LIMIT_BYTES,
    // The URL carries model names with dots (`model.2`); keep them intact.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    requestIdHeader: 'x-request-id',
    // Errors Fastify raises before a route runs (a bad `%` escape, a path segment over
    // maxParamLength) and malformed HTTP get the same JSON envelope as everything else.
    // `void`: send() has answered; the reply's `then` would only wait for the write, and Fastify
    // ignores what this hook returns.
    frameworkErrors: (err, req, reply) => {
      void sendError(req, reply, toServiceError(err));
    },
    clientErrorHandler: (err, socket) => sendRawError(err, socket),
  });
  // First, so every route (plugins' too) is collected for the OpenAPI document and its test.
  trackRoutes(app);

  // The JSON body parser: strict UTF-8, prototype-poisoning protection (Fastify's own parser), and
  // a nesting limit, each failure a specific 400. Only application/json: the types a cross-site
  // form can send (text/plain, form encoding) are refused by the request guard before parsing.
  // Fastify's default parser is the callback form (it calls `done` synchronously); the declared
  // type is the union of the callback and the promise forms.
  const defaultJson = app.getDefaultJsonParser('error', 'error') as (
    req: FastifyRequest,
    body: string,
    done: (err: Error | null, value?: unknown) => void,
  ) => void;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      return done(
        new ServiceError(ERROR_CODES.BAD_INPUT, 'Request body is not valid UTF-8', 400),
        undefined,
      );
    }
    if (text.trim() === '') {
      return done(
        new ServiceError(ERROR_CODES.BAD_INPUT, 'Request body is empty; expected JSON', 400),
        undefined,
      );
    }
    defaultJson(req, text, (err, value) => {
      if (err) {
        return done(
          new ServiceError(
            ERROR_CODES.BAD_INPUT,
            `Request body is not valid JSON: ${err.message}`,
            400,
          ),
          undefined,
        );
      }
      const depth = jsonDepth(value, MAX_JSON_DEPTH);
      if (depth > MAX_JSON_DEPTH) {
        return done(
          new ServiceError(
            ERROR_CODES.BAD_INPUT,
            `Request body nests JSON deeper than ${MAX_JSON_DEPTH} levels`,
            400,
          ),
          undefined,
        );
      }
      done(null, value);
    });
  });

  app.addHook('onResponse', async (req, reply) => {
    log.info(
      `${new Date().toISOString()} ${req.id} ${req.method} ${req.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`,
    );
  });

  app.setErrorHandler((err, req, reply) => {
    const se = toServiceError(err as Error, instance.config.BODY_LIMIT_BYTES);
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

  const auth = await registerAuth(app, instance.config);
  registerRequestGuard(app, {
    config: instance.config,
    authenticated: auth.enabled ? hasSession(auth) : null,
  });
  statusRoutes(app, instance, auth);
  sqlRoutes(app, instance);
  sqlClassifyRoutes(app, instance);
  databaseRoutes(app, instance);
  await fileRoutes(app, instance);
  projectRoutes(app, instance);
  modelRoutes(app, instance);
  modelCardRoutes(app, instance);
  openApiRoutes(app, { version: VERSION, authEnabled: authEnabled(instance.config) });
  return app;
}
