/**
 * The messages between the supervisor (server/main.ts) and the instance process it runs
 * (instance-process.ts), over the IPC channel of `child_process.fork`. The supervisor owns the
 * listening socket and hands each accepted connection to the instance with the first message; the
 * instance reports, per connection, when a request starts, when its response starts, and when it
 * is done with the connection, so that the supervisor knows which requests to answer itself if the
 * instance dies.
 */

/** Supervisor -> instance: a connection (the socket travels as the message's handle). */
interface ConnectionMessage {
  t: 'conn';
  id: number;
}

/** Supervisor -> instance: shut down cleanly (finish what runs, close DuckDB, exit 0). */
interface StopMessage {
  t: 'stop';
}

export type ToInstance = ConnectionMessage | StopMessage;

export type FromInstance =
  /** The instance listens (on the connections it is handed). */
  | { t: 'ready'; ms: number }
  /** A request started on connection `id`. */
  | { t: 'q'; id: number; method: string; url: string }
  /** The response on connection `id` started (headers written): it can no longer be replaced. */
  | { t: 'h'; id: number }
  /** The instance closed its side of connection `id`. */
  | { t: 'x'; id: number };

/** Environment variables the supervisor sets for the instance process. */
export const SUPERVISED_ENV = {
  /** How many times the instance was restarted after it ended unexpectedly. */
  restarts: 'SUPERVISOR_RESTARTS',
} as const;

/**
 * The exit code of an instance process whose start-up failed in JavaScript (a damaged catalog,
 * an unusable DATA_DIR, a configuration it refuses): the same files and settings fail the same
 * way, so the supervisor says so and ends instead of retrying (sysexits' EX_CONFIG). A native
 * crash during start-up (a signal) is still retried.
 */
export const EXIT_CANNOT_START = 78;
