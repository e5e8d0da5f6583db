/**
 * GET /api/status: what the playground shows in its connection indicator, what MindsDB clients
 * read (`mindsdb_version`, `environment`, `auth`, as MindsDB's own status route has them), and what
 * a health check polls. `engine` reports the query pool: sessions running against the limit,
 * requests waiting, and how long the oldest running session has held its connection; `healthy`
 * turns false when a session has held one for longer than the statement timeout allows (a wedged
 * pool), so a monitor sees it even though this endpoint itself still answers. `restarts`,
 * `last_crash` and `quarantined` say whether the engine's process crashed and was restarted by
 * the supervisor (server/main.ts), with the statements that were running.
 *
 * GET /api/util/ping: MindsDB's liveness check. Open without a session like the status (MindsDB
 * guards it when auth is on; a liveness probe has no session to send, and it says nothing the
 * status does not).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PingResponse, StatusResponse } from '../../../contract';
import { VERSION, type Instance } from '../../instance';
import type { AuthState } from '../auth';
import { answer } from '../responses';

export const statusRoutes: FastifyPluginAsyncZod<{ instance: Instance; auth: AuthState }> = async (
  app,
  { instance, auth },
) => {
  app.route({
    method: 'GET',
    url: '/api/status',
    config: { public: true },
    schema: {
      operationId: 'getStatus',
      tags: ['instance'],
      summary: 'Version, environment and whether auth is on and this request is authenticated',
      response: {
        200: answer(
          'Instance status: `mindsdb_version` (what MindsDB clients read), `environment`, `auth`, and the query pool',
          StatusResponse,
        ),
      },
    },
    handler: async (req) => {
      const engine = instance.catalog.engine;
      const load = engine.load;
      const crash = engine.crashes.at(-1);
      return {
        mindsdb_version: VERSION,
        version: VERSION,
        environment: 'local',
        provider: 'sql-model-playground',
        auth: {
          http_auth_enabled: auth.enabled,
          confirmed: auth.confirmed(req),
          provider: auth.enabled ? 'local' : 'disabled',
        },
        engine: {
          active: load.active,
          limit: load.limit,
          waiting: load.waiting,
          oldest_ms: load.oldestMs,
          healthy: load.healthy,
          lane: load.lane,
          queue: load.queue.map((w) => ({
            query_id: w.queryId,
            position: w.position,
            waiting_ms: w.waitingMs,
            short: w.short,
          })),
          restarts: instance.supervision?.restarts ?? 0,
          last_crash: crash
            ? {
                at: crash.at,
                signal: crash.signal,
                code: crash.code,
                statements: crash.statements.filter((s) => s.hash).map((s) => s.text.slice(0, 300)),
                quarantined: crash.quarantined,
              }
            : null,
          quarantined: engine.quarantined,
          long_running: load.longRunning.map((w) => ({
            what: w.what,
            running_ms: w.ms,
            past_timeout: w.overdue,
          })),
          scoring: instance.sql.scoring.list().map((p) => ({ ...p })),
        },
      };
    },
  });

  app.route({
    method: 'GET',
    url: '/api/util/ping',
    config: { public: true },
    schema: {
      operationId: 'ping',
      tags: ['instance'],
      summary: 'Liveness check: `{"status": "ok"}` while the instance serves HTTP',
      response: { 200: answer('Alive', PingResponse) },
    },
    handler: async () => ({ status: 'ok' as const }),
  });
};
