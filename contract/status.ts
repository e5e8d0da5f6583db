/** Routes open without a session: GET /api/status, GET /api/util/ping, POST /api/login, /logout. */
import { z } from 'zod';

/** How the engine's process last ended unexpectedly (ours: a native crash, restarted). */
export const EngineCrash = z
  .object({
    at: z.string(),
    /** The signal that ended it (`SIGSEGV`), or null with an exit code. */
    signal: z.string().nullable(),
    code: z.number().nullable(),
    /** The client statements that were running (prefixes). */
    statements: z.array(z.string()),
    /** Whether those statements are refused from now on (after a native crash). */
    quarantined: z.boolean(),
  })
  .loose();
export type EngineCrash = z.infer<typeof EngineCrash>;

/** Ours only: the query pool and the engine process (docs/reliability.md). */
export const EngineStatus = z
  .object({
    active: z.number(),
    limit: z.number(),
    waiting: z.number(),
    oldest_ms: z.number(),
    healthy: z.boolean(),
    /** The short lane (ENGINE_SHORT_LANE): small reads running beside a full pool. */
    lane: z.object({ active: z.number(), limit: z.number() }).optional(),
    /**
     * Requests waiting for a connection that sent a `context.query_id`, with their place in line
     * (1: next; short reads are served before heavy ones) and how long they have waited.
     */
    queue: z
      .array(
        z
          .object({
            query_id: z.string(),
            position: z.number(),
            waiting_ms: z.number(),
            short: z.boolean(),
          })
          .loose(),
      )
      .optional(),
    /** Times the supervisor restarted the instance process since it started. */
    restarts: z.number().optional(),
    last_crash: EngineCrash.nullable().optional(),
    /** Statements refused because they were running when the engine crashed. */
    quarantined: z.number().optional(),
    /** Work (queries, trainings' reads, loads) running 10 s or more, longest first. */
    long_running: z
      .array(
        z.object({ what: z.string(), running_ms: z.number(), past_timeout: z.boolean() }).loose(),
      )
      .optional(),
    /**
     * Statements saving a big table's predictions in batches (CREATE TABLE / INSERT ... JOIN
     * model), with their progress: rows done of the source's total (null: not counted yet, or
     * too slow to count), rows per second, seconds left.
     */
    scoring: z
      .array(
        z
          .object({
            statement: z.string(),
            what: z.string(),
            rows_done: z.number(),
            rows_total: z.number().nullable(),
            rows_per_s: z.number(),
            eta_s: z.number().nullable(),
            running_ms: z.number(),
          })
          .loose(),
      )
      .optional(),
  })
  .loose();
export type EngineStatus = z.infer<typeof EngineStatus>;

/** GET /api/status */
export const StatusResponse = z
  .object({
    /** Ours only: the same value as `mindsdb_version`. */
    version: z.string().optional(),
    /** What MindsDB's Python SDK reads (`server.status()['mindsdb_version']`); ours sends it too. */
    mindsdb_version: z.string().optional(),
    /** `local` for this instance; MindsDB also says `cloud` or `aws_marketplace`. */
    environment: z.string().optional(),
    provider: z.string().optional(),
    auth: z
      .object({
        http_auth_enabled: z.boolean(),
        confirmed: z.boolean().optional(),
        provider: z.string().optional(),
      })
      .loose()
      .optional(),
    engine: EngineStatus.optional(),
  })
  .loose();
export type StatusResponse = z.infer<typeof StatusResponse>;

/** GET /api/util/ping: MindsDB's liveness check. */
export const PingResponse = z.object({ status: z.literal('ok') });
export type PingResponse = z.infer<typeof PingResponse>;

/** POST /api/login body (when authentication is on). */
export const LoginRequest = z.object({
  username: z.string({ error: 'username must be a string' }).min(1, 'username is required'),
  password: z.string({ error: 'password must be a string' }).min(1, 'password is required'),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

/** POST /api/login answer: the token for scripts when auth is on, `auth: "disabled"` otherwise. */
export const LoginResponse = z.object({
  ok: z.literal(true),
  token: z.string().optional(),
  expires_at: z.string().optional(),
  auth: z.literal('disabled').optional(),
});
export type LoginResponse = z.infer<typeof LoginResponse>;
export const LogoutResponse = z.object({ ok: z.literal(true) });

/**
 * GET /api/status read loosely, to tell which kind of instance the playground talks to: ours has
 * `provider: "sql-model-playground"`; a real MindsDB server has `mindsdb_version` and no
 * `provider` (ours has both).
 */
export const InstanceFlavorStatus = z
  .object({
    provider: z.string().optional(),
    version: z.string().optional(),
    mindsdb_version: z.string().optional(),
  })
  .loose();
export type InstanceFlavorStatus = z.infer<typeof InstanceFlavorStatus>;
