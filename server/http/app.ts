/**
 * The Fastify application: body parsing, one log line per request with its duration, errors as
 * problem details, the request guard, and the routes. Every route is declared once, with
 * Fastify's own `schema` in zod through fastify-type-provider-zod (validated by `./validate.ts`,
 * documented by `./openapi.ts`); see docs/ARCHITECTURE.md, "How to add a route". Knows nothing of
 * DuckDB; everything goes through the Instance.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { VERSION, type Instance } from '../instance';
import { authEnabled } from '../config';
import { registerProblemDetails, sendError, sendRawError, toServiceError } from './errors';
import { hasSession, registerAuth } from './auth';
import { capConnectionsPerClient } from './connection-cap';
import { registerGetBodies } from './get-body';
import { registerRequestGuard } from './guard';
import { registerJsonBody } from './json-body';
import { registerOpenApi } from './openapi';
import { V1_PREFIX } from './responses';
import { authRoutes } from './routes/auth';
import { databaseRoutes } from './routes/databases';
import { evaluationRoutes } from './routes/evaluation';
import { fileRoutes } from './routes/files';
import { modelCardRoutes } from './routes/model-card';
import { modelOnnxRoutes } from './routes/model-onnx';
import { monitoringRoutes } from './routes/monitoring';
import { modelRoutes } from './routes/models';
import { projectRoutes } from './routes/projects';
import { sqlRoutes } from './routes/sql';
import { sqlClassifyRoutes } from './routes/sql-classify';
import { statusRoutes } from './routes/status';
import { zodValidatorCompiler } from './validate';
import { turns } from '../engine/turns';

declare module 'fastify' {
  interface FastifyRequest {
    /** Ends the request's mark as short work (engine/turns.ts); null when it has none. */
    shortTurn: (() => void) | null;
  }
}

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
    // Errors Fastify raises before a route runs (a bad `%` escape, a path segment over
    // maxParamLength) and malformed HTTP get the same JSON envelope as everything else.
    // `void`: send() has answered; the reply's `then` would only wait for the write, and Fastify
    // ignores what this hook returns.
    frameworkErrors: (err, req, reply) => {
      void sendError(req, reply, toServiceError(err));
    },
    clientErrorHandler: (err, socket) => sendRawError(err, socket),
  });
  capConnectionsPerClient(app.server, instance.config.MAX_CONNECTIONS_PER_CLIENT);
  app.setValidatorCompiler(zodValidatorCompiler);
  // Responses are written as they are: the declared schemas document them (and a test holds them
  // to it) but do not filter them on the hot path.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  const json = registerJsonBody(app);
  registerGetBodies(app, json);

  app.addHook('onResponse', async (req, reply) => {
    log.info(
      `${new Date().toISOString()} ${req.id} ${req.method} ${req.url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`,
    );
  });
  // A client that leaves before its answer gets no response line above: one line says so (its
  // statement is cancelled; that is an outcome, never logged as an error).
  app.addHook('onRequest', async (req, reply) => {
    reply.raw.once('close', () => {
      if (reply.raw.writableFinished) return;
      log.info(
        `${new Date().toISOString()} ${req.id} ${req.method} ${req.url} client went away before the answer`,
      );
    });
  });
  // SQL requests and the status call are short work until the engine says otherwise
  // (engine/turns.ts): heavy JavaScript slices wait while one is read, routed and answered. The SQL
  // route hands the mark to the engine, which ends it when the request takes a pool slot or waits
  // as heavy. Routes that predict themselves are never marked (their own slices would wait).
  app.decorateRequest('shortTurn', null);
  app.addHook('onRequest', async (req, reply) => {
    const url = req.url.split('?')[0];
    if (url !== '/api/sql/query' && url !== '/api/sql/classify' && url !== '/api/status') return;
    const end = turns.light();
    req.shortTurn = end;
    reply.raw.once('close', end);
  });
  // The training warm-up waits until requests settle (models/warmup-gate.ts); 'close' also
  // comes for a request its client abandoned.
  app.addHook('onRequest', async (req, reply) => {
    reply.raw.once('close', instance.models.requestSeen());
  });
  registerProblemDetails(app, { bodyLimit: instance.config.BODY_LIMIT_BYTES, log });

  // First, so every route below is collected for the document.
  await registerOpenApi(app, { version: VERSION, authEnabled: authEnabled(instance.config) });
  const auth = await registerAuth(app, instance.config);
  registerRequestGuard(app, {
    config: instance.config,
    authenticated: auth.enabled ? hasSession(auth) : null,
  });

  await app.register(statusRoutes, { instance, auth });
  await app.register(authRoutes, { auth });
  await app.register(sqlRoutes, { instance });
  await app.register(sqlClassifyRoutes, { instance });
  await app.register(databaseRoutes, { instance });
  await app.register(fileRoutes, { instance });
  // The spec's model operations also answer under `/v1/api` (`/v1/api/api/projects/...`).
  for (const prefix of ['', V1_PREFIX]) {
    await app.register(projectRoutes, { instance, prefix });
    await app.register(modelRoutes, { instance, prefix });
    await app.register(modelCardRoutes, { instance, prefix });
    await app.register(evaluationRoutes, { instance, prefix });
    await app.register(modelOnnxRoutes, { instance, prefix });
    await app.register(monitoringRoutes, { instance, prefix });
  }
  return app;
}
