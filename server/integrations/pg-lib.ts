/**
 * The PostgreSQL client libraries, loaded when an integration first uses them: importing `pg` and
 * `pg-copy-streams` costs ~85 ms of CPU, which every instance start paid (and every instance the
 * tests start: 22 processes per `npm test`) though most never connect to a PostgreSQL server.
 * Node's module cache keeps the one copy; `pg` types the values as a static import would.
 */
import { createRequire } from 'node:module';
import type Pg from 'pg';
import type * as CopyStreams from 'pg-copy-streams';

const requireCjs = createRequire(import.meta.url);

let pg: typeof Pg | undefined;
let copyStreams: typeof CopyStreams | undefined;

/** `pg` (Pool, Client, types), loaded on first use. */
export function pgLib(): typeof Pg {
  return (pg ??= requireCjs('pg') as typeof Pg);
}

/** `pg-copy-streams` (COPY TO and COPY FROM as streams), loaded on first use. */
export function pgCopyStreams(): typeof CopyStreams {
  return (copyStreams ??= requireCjs('pg-copy-streams') as typeof CopyStreams);
}
