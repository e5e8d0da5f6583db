/** Instance configuration from the environment, validated once at start-up. */
import path from 'node:path';
import { z } from 'zod';

const int = (def: number) => z.coerce.number().int().positive().default(def);

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(47334),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./.playground-data'),
  /** Statement timeout in milliseconds; the engine is interrupted when it passes. */
  STATEMENT_TIMEOUT_MS: int(60_000),
  /** Rows returned by one SQL response before `truncated: true`. */
  MAX_RESULT_ROWS: int(100_000),
  /** Request body limit in bytes. */
  BODY_LIMIT_BYTES: int(50 * 1024 * 1024),
  /** Longest accepted SQL text, in characters. */
  MAX_QUERY_CHARS: int(2_000_000),
  /** DuckDB connections serving queries concurrently; further queries wait in a queue. */
  ENGINE_CONNECTIONS: int(4),
  /** Queries allowed to wait for a connection before the instance answers BUSY. */
  ENGINE_QUEUE: int(256),
  /** Trainings running at once; more wait in the training queue. */
  MAX_CONCURRENT_TRAININGS: int(2),
  /** Authentication is on when both are set (see README, Reliability and security). */
  AUTH_USERNAME: z.string().min(1).optional(),
  AUTH_PASSWORD: z.string().min(1).optional(),
  /** Key that signs session tokens; random per start when unset (sessions end on restart). */
  AUTH_SECRET: z.string().min(16).optional(),
  SESSION_TTL_SECONDS: int(12 * 3600),
  /** Failed logins allowed per client address per minute. */
  LOGIN_ATTEMPTS_PER_MINUTE: int(10),
  /** Allow binding a non-loopback address without authentication (not recommended). */
  ALLOW_UNAUTHENTICATED_REMOTE: z
    .enum(['0', '1', 'true', 'false'])
    .default('0')
    .transform((v) => v === '1' || v === 'true'),
  /** Rows one `jsonlines` streamed response may carry. */
  MAX_STREAM_ROWS: int(10_000_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = Omit<z.infer<typeof EnvSchema>, 'DATA_DIR'> & { DATA_DIR: string };

export const authEnabled = (c: Config) => !!(c.AUTH_USERNAME && c.AUTH_PASSWORD);

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);
}

/**
 * SQL is sandboxed (no host file system outside DATA_DIR, no extension installs) whenever the
 * instance can be reached by someone other than the local user: auth on, or a non-loopback bind.
 */
export const sandboxSql = (c: Config) => authEnabled(c) || !isLoopback(c.HOST);

/** Refuses configurations that would expose the instance unprotected; returns why, or null. */
export function exposureProblem(c: Config): string | null {
  if (!isLoopback(c.HOST) && !authEnabled(c) && !c.ALLOW_UNAUTHENTICATED_REMOTE) {
    return `Refusing to listen on ${c.HOST} without authentication: anyone who can reach this address could run SQL. Set AUTH_USERNAME and AUTH_PASSWORD, or bind 127.0.0.1, or set ALLOW_UNAUTHENTICATED_REMOTE=1 if you really mean it.`;
  }
  if ((c.AUTH_USERNAME && !c.AUTH_PASSWORD) || (!c.AUTH_USERNAME && c.AUTH_PASSWORD)) {
    return 'Set both AUTH_USERNAME and AUTH_PASSWORD to enable authentication (only one is set).';
  }
  return null;
}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<Config> = {},
): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${issues}`);
  }
  const cfg = { ...parsed.data, ...overrides };
  return { ...cfg, DATA_DIR: path.resolve(cfg.DATA_DIR) };
}
