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
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = Omit<z.infer<typeof EnvSchema>, 'DATA_DIR'> & { DATA_DIR: string };

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${issues}`);
  }
  const cfg = { ...parsed.data, ...overrides };
  return { ...cfg, DATA_DIR: path.resolve(cfg.DATA_DIR) };
}
