/**
 * `npm run instance` (and `npm run dev`, the e2e server, the process tests): the supervisor. It
 * checks the configuration, listens on HOST:PORT, and runs the instance itself in a child process
 * (server/supervisor/), restarting it at once if it dies (a native crash in DuckDB), so one bad
 * statement does not take the instance off the air. SIGINT/SIGTERM shut both down cleanly
 * (in-flight requests finish, DuckDB is checkpointed and closed).
 */
import { exposureProblem, isLoopback, loadConfig } from './config';
import { Supervisor } from './supervisor/supervisor';

const log = {
  info: (m: string) => process.stdout.write(`${m}\n`),
  error: (m: string) => process.stderr.write(`${m}\n`),
};

async function main() {
  process.umask(0o077);
  const config = loadConfig();
  const problem = exposureProblem(config);
  if (problem) throw new Error(problem);
  const started = Date.now();
  const supervisor = new Supervisor(config, log);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      log.info(`${signal} received: shutting down`);
      supervisor.onSignal(signal);
    });
  }
  const address = await supervisor.start();
  log.info(
    `Local instance listening on ${address} (data in ${config.DATA_DIR}, ready in ${Date.now() - started} ms)`,
  );
  if (!isLoopback(config.HOST) && config.ALLOWED_HOSTS.length === 0) {
    log.info(
      'It answers to IP addresses and localhost only; set ALLOWED_HOSTS to reach it by a host name',
    );
  }
  if (config.ALLOW_HOST_FILES === 'all') {
    log.info(
      "ALLOW_HOST_FILES=1: SQL can read and write any file this process can, DATA_DIR's included",
    );
  }
}

main().catch((err) => {
  log.error(`Failed to start the instance: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
