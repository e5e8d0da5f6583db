/**
 * Issue 22, item 2(b): a native crash of the engine is survived. The instance process is killed
 * with SIGSEGV (what a crash inside DuckDB does to it) while a request runs; the supervisor
 * (server/main.ts) answers that request with a clear error in the documented shape, starts a new
 * instance on the same DATA_DIR, committed data is there, the statement that was running is
 * refused on sight, and /api/status says what happened.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../harness';
import { spawnInstance, type InstanceProcess } from '../process';

const dirs: string[] = [];
const procs: InstanceProcess[] = [];
afterAll(async () => {
  for (const p of procs) await p.stop().catch(() => {});
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const SLOW = 'SELECT count(*) FROM range(100000000000) AS a WHERE a.range % 7 = 3';

async function post(url: string, path: string, body: unknown) {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: (await res.json()) as any,
  };
}

/** Polls until `fn` returns a value (the instance restarts; bounded by the test's own cap). */
async function until<T>(fn: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the engine killed with SIGSEGV mid-request', () => {
  it('answers the request, restarts, keeps committed data and refuses the statement', async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    const p = await spawnInstance(dir, { TRAINING_WARMUP: '0' });
    procs.push(p);
    expect(
      (await p.sql('CREATE TABLE mindsdb.kept AS SELECT range AS i FROM range(1000)')).type,
    ).toBe('ok');
    const first = p.instancePid();

    // The slow statement is running when the engine dies.
    const sqlAnswer = post(p.url, '/api/sql/query', { query: SLOW });
    await until(async () => {
      const s = (await (await fetch(`${p.url}/api/status`)).json()) as any;
      return s.engine.active >= 1 ? true : undefined;
    });
    process.kill(first, 'SIGSEGV');

    const r = await sqlAnswer;
    expect(r.status).toBe(503);
    expect(r.type).toMatch(/^application\/json/);
    expect(r.body).toMatchObject({ type: 'error', column_names: [], error_code: 99 });
    expect(r.body.error_message).toMatch(/The engine crashed while this request ran \(SIGSEGV\)/);

    // A new instance process answers, on the same port and data.
    const status = await until(async () => {
      const res = await fetch(`${p.url}/api/status`);
      return res.ok ? ((await res.json()) as any) : undefined;
    });
    expect(p.instancePid()).not.toBe(first);
    expect(status.engine).toMatchObject({
      restarts: 1,
      quarantined: 1,
      last_crash: { signal: 'SIGSEGV', quarantined: true, statements: [SLOW] },
    });
    expect((await p.sql('SELECT count(*), sum(i) FROM mindsdb.kept')).data).toEqual([
      [1000, 499500],
    ]);

    // The statement that was running is refused on sight, also when a link would run it.
    const again = await p.sql(SLOW);
    expect(again).toMatchObject({ type: 'error', error_code: 10 });
    expect(again.error_message).toMatch(/was running when the engine crashed \(SIGSEGV at /);
    const verdict = await post(p.url, '/api/sql/classify', { query: SLOW });
    expect(verdict.body.statements[0].effect).toBe('refused');
    // Other statements run as ever.
    expect((await p.sql('SELECT 1 AS one')).data).toEqual([[1]]);
    expect(p.output()).toMatch(/ended unexpectedly \(signal SIGSEGV\)/);
    await p.stop();
  });
});
