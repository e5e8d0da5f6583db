/** Instance configuration from the environment, validated once at start-up. */
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';

const int = (def: number) => z.coerce.number().int().positive().default(def);
const flag = z
  .enum(['0', '1', 'true', 'false'])
  .default('0')
  .transform((v) => v === '1' || v === 'true');
/** A comma-separated list; empty entries dropped. */
const list = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(47334),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./.playground-data'),
  /** Statement timeout in milliseconds; the engine is interrupted when it passes. */
  STATEMENT_TIMEOUT_MS: int(60_000),
  /** Rows returned by one SQL response before `truncated: true`. */
  MAX_RESULT_ROWS: int(100_000),
  /** Bytes of row data (as JSON) in one SQL response before `truncated: true`. */
  MAX_RESULT_BYTES: int(64 * 1024 * 1024),
  /** Request body limit in bytes. */
  BODY_LIMIT_BYTES: int(50 * 1024 * 1024),
  /** Largest file upload (`PUT /api/files/{name}`); uploads stream to disk. */
  MAX_UPLOAD_BYTES: int(1024 * 1024 * 1024),
  /** Longest accepted SQL text, in characters. */
  MAX_QUERY_CHARS: int(2_000_000),
  /**
   * Open TCP connections one client address may hold; more are answered 503 and closed at once,
   * so thousands of half-open connections cannot use up the process's file descriptors.
   */
  MAX_CONNECTIONS_PER_CLIENT: int(512),
  /** DuckDB connections serving queries concurrently; further queries wait in a queue. */
  ENGINE_CONNECTIONS: int(4),
  /** Queries allowed to wait for a connection before the instance answers BUSY. */
  ENGINE_QUEUE: int(256),
  /**
   * Connections kept for short requests beside ENGINE_CONNECTIONS: when the pool is full, a
   * request whose statements only read and which DuckDB's plan expects to touch few rows runs at
   * once instead of waiting behind heavy ones (docs/reliability.md). 0: no lane.
   */
  ENGINE_SHORT_LANE: z.coerce.number().int().min(0).default(2),
  /** Trainings running at once; more wait in the training queue. */
  MAX_CONCURRENT_TRAININGS: int(2),
  /**
   * Warm a training worker up after start (two small trainings on generated data), so the first
   * CREATE MODEL runs as fast as later ones. It waits until HTTP traffic has settled, so it does
   * not compete with the playground's first page load for the cores: TRAINING_WARMUP_QUIET_MS
   * without a request once the last one was answered, or TRAINING_WARMUP_DELAY_MS after start if
   * no request came (server/models/warmup-gate.ts).
   */
  TRAINING_WARMUP: z
    .enum(['0', '1', 'true', 'false'])
    .default('1')
    .transform((v) => v === '1' || v === 'true'),
  TRAINING_WARMUP_DELAY_MS: z.coerce.number().int().min(0).default(60_000),
  TRAINING_WARMUP_QUIET_MS: z.coerce.number().int().min(0).default(3_000),
  /**
   * Test suites only: a training whose data, target and options are byte-identical to one trained
   * before reuses that training's artifact from this folder (server/models/training-cache.ts).
   */
  TRAINING_CACHE_DIR: z.string().min(1).optional(),
  /**
   * Test suites only: with TRAINING_CACHE_DIR, only the models whose name this regular expression
   * matches use the cache (the e2e journeys that never watch a training; e2e/model-setup.ts); the
   * others train as without a cache. Unset: every model.
   */
  TRAINING_CACHE_MODELS: z
    .string()
    .min(1)
    .refine((s) => {
      try {
        new RegExp(s);
        return true;
      } catch {
        return false;
      }
    }, 'not a regular expression')
    .optional(),
  /**
   * Rows a training reads whole; a larger FROM query is sampled where the data lives (PostgreSQL,
   * DuckDB) to this many rows (server/models/training-sample.ts). `USING sample_rows` per model.
   */
  TRAINING_ROW_BUDGET: z.coerce.number().int().min(100).default(1_000_000),
  /**
   * Source rows one batch of a statement that saves a big table's predictions reads (CREATE
   * TABLE / INSERT ... FROM data JOIN model: server/sql/plan/stream.ts); 0 turns batching off.
   */
  SCORING_BATCH_ROWS: z.coerce.number().int().min(0).default(100_000),
  /** Authentication is on when both are set (see README, Reliability and security). */
  AUTH_USERNAME: z.string().min(1).optional(),
  AUTH_PASSWORD: z.string().min(1).optional(),
  /**
   * Key that signs session tokens and encrypts integration secrets at rest; random per start for
   * tokens (sessions end on restart) and a key file in DATA_DIR for secrets when unset.
   */
  AUTH_SECRET: z.string().min(16).optional(),
  SESSION_TTL_SECONDS: int(12 * 3600),
  /** Failed logins allowed per username (and per remote address) per minute. */
  LOGIN_ATTEMPTS_PER_MINUTE: int(10),
  /** Allow binding a non-loopback address without authentication (not recommended). */
  ALLOW_UNAUTHENTICATED_REMOTE: flag,
  /**
   * SQL's access to the host's files. Unset/0: only DATA_DIR/uploads and DATA_DIR/exports. A
   * comma-separated list of absolute folders: those as well. 1: the whole file system.
   */
  ALLOW_HOST_FILES: z.string().default('0'),
  /** Host names (besides loopback names and IP addresses) this instance answers to. */
  ALLOWED_HOSTS: list,
  /** Origins (scheme://host:port) besides the instance's own allowed to send requests. */
  ALLOWED_ORIGINS: list,
  /**
   * Hosts `CREATE DATABASE ... ENGINE = 'postgres'` may connect to (names, IPs or CIDR ranges,
   * comma-separated); unset: any.
   */
  INTEGRATION_HOSTS: list,
  /** Rows one streamed (`jsonlines` / `sse`) response may carry. */
  MAX_STREAM_ROWS: int(10_000_000),
  /**
   * URL file imports (`PUT /api/files/{name}` with `{"source_type": "url"}`) reach public addresses
   * only; these names, `*.domains`, addresses or CIDR ranges (comma-separated) are allowed too.
   */
  URL_IMPORT_ALLOWED_HOSTS: list,
  /** Deadline of one URL file import's download, redirects included. */
  URL_IMPORT_TIMEOUT_MS: int(300_000),
  /**
   * How deeply JSON may nest: uploads and URL imports deeper than this are refused before DuckDB
   * reads them, and so is input this deep to DuckDB's JSON functions that recurse per level
   * (json_structure, json_transform, ...), which crash the engine on very deep input.
   */
  JSON_MAX_DEPTH: int(100),
  /**
   * After a native crash of the engine, the statements that were running are refused for this
   * long (a link or a retry loop would otherwise take the instance down again and again).
   */
  CRASH_QUARANTINE_HOURS: int(24),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

type Parsed = z.infer<typeof EnvSchema>;
export type Config = Omit<Parsed, 'DATA_DIR' | 'ALLOW_HOST_FILES'> & {
  DATA_DIR: string;
  /** `all`: no SQL sandbox; otherwise the extra folders SQL may use (absolute paths). */
  ALLOW_HOST_FILES: 'all' | string[];
};

export const authEnabled = (c: Config) => !!(c.AUTH_USERNAME && c.AUTH_PASSWORD);

/** `localhost`, 127.0.0.0/8 or ::1 (an IP must be a literal: `127.0.0.1.evil.example` is not). */
export function isLoopback(host: string): boolean {
  const h = host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  if (h === 'localhost') return true;
  const v = net.isIP(h);
  if (v === 4) return h.startsWith('127.');
  if (v === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(h);
  return false;
}

/** SQL is sandboxed unless ALLOW_HOST_FILES=1 opened the whole file system. */
export const sandboxSql = (c: Config) => c.ALLOW_HOST_FILES !== 'all';

/** Refuses configurations that would expose the instance unprotected; returns why, or null. */
export function exposureProblem(c: Config): string | null {
  if (!isLoopback(c.HOST) && !authEnabled(c) && !c.ALLOW_UNAUTHENTICATED_REMOTE) {
    return `Refusing to listen on ${c.HOST} without authentication: anyone who can reach this address could run SQL. Set AUTH_USERNAME and AUTH_PASSWORD, or bind 127.0.0.1, or set ALLOW_UNAUTHENTICATED_REMOTE=1 if you really mean it.`;
  }
  if ((c.AUTH_USERNAME && !c.AUTH_PASSWORD) || (!c.AUTH_USERNAME && c.AUTH_PASSWORD)) {
    return 'Set both AUTH_USERNAME and AUTH_PASSWORD to enable authentication (only one is set).';
  }
  if (c.ALLOW_HOST_FILES !== 'all') {
    for (const dir of c.ALLOW_HOST_FILES) {
      const rel = path.relative(dir, c.DATA_DIR);
      if (rel === '' || !(rel.startsWith('..') || path.isAbsolute(rel))) {
        return `ALLOW_HOST_FILES names ${dir}, which holds DATA_DIR (${c.DATA_DIR}): SQL could then read the instance's own files (catalog, keys, sessions). Name folders outside DATA_DIR, or set ALLOW_HOST_FILES=1 to open the whole file system knowingly.`;
      }
    }
  }
  return null;
}

function hostFiles(v: string): Config['ALLOW_HOST_FILES'] {
  const t = v.trim();
  if (t === '' || t === '0' || t === 'false') return [];
  if (t === '1' || t === 'true') return 'all';
  const dirs = t
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const d of dirs) {
    if (!path.isAbsolute(d))
      throw new Error(
        `Invalid configuration: ALLOW_HOST_FILES: '${d}' is not an absolute path (use 1, 0 or absolute folders separated by commas)`,
      );
  }
  return dirs.map((d) => path.resolve(d));
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
  const base: Config = {
    ...parsed.data,
    ALLOW_HOST_FILES: hostFiles(parsed.data.ALLOW_HOST_FILES),
  };
  const cfg = { ...base, ...overrides };
  return { ...cfg, DATA_DIR: path.resolve(cfg.DATA_DIR) };
}

/** Whether `host` (a Host header's name, without port) is an IP address literal. */
export const isIpLiteral = (host: string) => net.isIP(host.replace(/^\[(.*)\]$/, '$1')) !== 0;
