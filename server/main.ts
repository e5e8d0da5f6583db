/**
 * `npm run instance`: starts the local instance on HOST:PORT with its data in DATA_DIR and shuts
 * it down cleanly on SIGINT/SIGTERM (in-flight requests finish, DuckDB is checkpointed and closed).
 */
import { exposureProblem, isLoopback, loadConfig } from './config';
import { buildApp, consoleLogger } from './http/app';
import { createInstance } from './instance';

async function main() {
  // Everything the instance (and DuckDB) creates in DATA_DIR is for this user only: 0600/0700.
  process.umask(0o077);
  const config = loadConfig();
  const problem = exposureProblem(config);
  if (problem) throw new Error(problem);
  const started = Date.now();
  const instance = await createInstance(config);
  const app = await buildApp(instance, consoleLogger);
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  consoleLogger.info(
    `Local instance listening on ${address} (data in ${config.DATA_DIR}, ready in ${Date.now() - started} ms)`,
  );
  if (!isLoopback(config.HOST) && config.ALLOWED_HOSTS.length === 0) {
    consoleLogger.info(
      'It answers to IP addresses and localhost only; set ALLOWED_HOSTS to reach it by a host name',
    );
  }
  if (config.ALLOW_HOST_FILES === 'all') {
    consoleLogger.info(
      "ALLOW_HOST_FILES=1: SQL can read and write any file this process can, DATA_DIR's included",
    );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    consoleLogger.info(`${signal} received: shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await instance.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  consoleLogger.error(
    `Failed to start the instance: ${err instanceof Error ? err.message : String(err)}`,
  );
  process.exit(1);
});
