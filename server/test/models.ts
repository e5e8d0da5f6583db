/**
 * The one "wait until the model is trained" of the server tests, for an in-process instance
 * (server/sql/__tests__/model-helpers.ts) and for one behind a real port (./harness.ts) alike.
 * It asks what clients ask, `<project>.models_versions` through SQL, until the version is
 * `complete` or `error`: a condition, bounded by the number of polls, never a fixed sleep.
 */
import type { Instance } from '../instance';

/** Something that answers SQL as the SQL endpoint's body: an Instance, or a Harness's `sql`. */
type SqlTarget = Instance | { sql(query: string): Promise<any>; instance?: Instance };

/**
 * The pause between two reads of a training's status: until the instance has no training queued
 * or running (its trainer says so when the last one ends) or 500 ms have passed, and at least
 * 50 ms. A read is a SQL query through the planner, 13 ms of CPU in process (load 6): read every
 * 50 ms, a wait for a training spent a quarter of a core asking, more the busier the machine (a
 * training then takes longer). The condition is still what clients read; only the pause between
 * reads changed, and it ends as soon as a training ends. A target without an in-process instance
 * (an HTTP client of another process) is read every 50 ms as before.
 */
export async function pollPause(target: SqlTarget): Promise<void> {
  const instance =
    typeof target.sql === 'function'
      ? (target as { instance?: Instance }).instance
      : (target as Instance);
  const started = Date.now();
  if (instance) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      instance.models.idle(),
      new Promise<void>((res) => (timer = setTimeout(res, 500))),
    ]);
    clearTimeout(timer);
  }
  const left = 50 - (Date.now() - started);
  if (left > 0) await new Promise((res) => setTimeout(res, left));
}

async function answer(target: SqlTarget, query: string): Promise<any> {
  return typeof target.sql === 'function' ? target.sql(query) : target.sql.execute({ query });
}

export interface Trained {
  status: 'complete' | 'error';
  error: string | null;
}

/** Polls a model's active version (or `version`) until it is complete or failed. */
export async function waitForModel(
  target: SqlTarget,
  name: string,
  opts: { project?: string; version?: number; polls?: number } = {},
): Promise<Trained> {
  const project = opts.project ?? 'mindsdb';
  const which = opts.version === undefined ? 'active = 1' : `version = ${opts.version}`;
  const query = `SELECT status, error FROM ${project}.models_versions WHERE name = '${name.replace(/'/g, "''")}' AND ${which}`;
  let last = 'absent';
  for (let i = 0; i < (opts.polls ?? 6000); i++) {
    const r = await answer(target, query);
    if (r.type === 'error') throw new Error(`waiting for ${project}.${name}: ${r.error_message}`);
    const [status, error] = r.data?.[0] ?? [];
    if (status === 'complete' || status === 'error') return { status, error: error ?? null };
    last = status ?? 'absent';
    await pollPause(target);
  }
  throw new Error(`model ${project}.${name} still ${last} after the test's polls`);
}

/** Waits as waitForModel does, and fails the test with the model's error when it failed. */
export async function waitComplete(
  target: SqlTarget,
  name: string,
  opts: { project?: string; version?: number } = {},
): Promise<void> {
  const t = await waitForModel(target, name, opts);
  if (t.status === 'error') throw new Error(`model ${name} failed to train: ${t.error}`);
}
