/**
 * The Fastify application: body parsing, one log line per request with its duration, the error
 * handler, and the routes. Knows nothing of DuckDB; everything goes through the Instance.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { ERROR_CODES, ServiceError } from '../errors';
import { VERSION, type Instance } from '../instance';
import { authEnabled } from '../config';
import { sendError, toServiceError } from './errors';
import { registerAuth } from './auth';
import { openApiRoutes, trackRoutes } from './openapi';
import { modelRoutes } from './routes/models';
import { projectRoutes } from './routes/projects';
import { databaseRoutes } from './routes/databases';
import { fileRoutes } from './routes/files';
import { sqlRoutes } from './routes/sql';
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
  });
  // First, so every route (plugins' too) is collected for the OpenAPI document and its test.
  trackRoutes(app);

  // curl -d sends form-encoded by default and some scripts send text/plain: read them as JSON too,
  // so the body's content decides, with the same specific errors.
  app.addContentTypeParser(
    ['application/x-www-form-urlencoded', 'text/plain'],
    { parseAs: 'string' },
    (_req, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch (err) {
        done(new ServiceError(ERROR_CODES.BAD_INPUT, `Request body is not valid JSON: ${(err as Error).message}`, 400), undefined);
      }
    },
  );

  app.addHook('onResponse', async (req, reply) => {
    log.info(
      `${new Date().toISOString()} ${req.id} ${req.method} ${req.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`,
    );
  });

  app.setErrorHandler((err, req, reply) => {
    const se = toServiceError(err as Error);
    if (se.httpStatus >= 500) log.error(`${req.id} ${req.method} ${req.url} failed: ${(err as Error).stack ?? err}`);
    return sendError(req, reply, se);
  });

  app.setNotFoundHandler((req, reply) =>
    sendError(req, reply, new ServiceError(ERROR_CODES.NOT_FOUND, `No route ${req.method} ${req.url.split('?')[0]}`)),
  );

  const auth = await registerAuth(app, instance.config);
  statusRoutes(app, instance, auth);
  sqlRoutes(app, instance);
  databaseRoutes(app, instance);
  await fileRoutes(app, instance);
  projectRoutes(app, instance);
  modelRoutes(app, instance);
  openApiRoutes(app, { version: VERSION, authEnabled: authEnabled(instance.config) });
  return app;
}
