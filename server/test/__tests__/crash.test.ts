/**
 * Crash tests: the instance is killed with SIGKILL in the middle of work and restarted on the same
 * DATA_DIR. Everything committed before the kill must be there and answer; interrupted work must
 * be marked or absent, never half-visible.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../demo-template';
import { tempDataDir } from '../harness';
import { spawnInstance, type InstanceProcess } from '../process';
import { DEMO_TABLES } from '../../catalog/demo-data';

const dirs: string[] = [];
const procs: InstanceProcess[] = [];
afterAll(async () => {
  for (const p of procs) await p.stop().catch(() => {});
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/**
 * A fresh DATA_DIR with the run's demo database in it (../demo-template.ts), for the tests whose
 * subject is not the first start's demo data load.
 */
async function seededDataDir(): Promise<string> {
  const dir = tempDataDir();
  dirs.push(dir);
  await seedDemoData(dir);
  return dir;
}

async function start(dir: string, env: Record<string, string> = {}) {
  const p = await spawnInstance(dir, env);
  procs.push(p);
  return p;
}

/** Polls a model's status until `ok` says so (bounded by the test's timeout, not a count). */
async function until(p: InstanceProcess, model: string, ok: (status: string) => boolean) {
  for (;;) {
    const r = await p.sql(`SELECT status FROM mindsdb.models WHERE name = '${model}'`);
    const status = r.data?.[0]?.[0];
    if (ok(status)) return;
    if (status === 'error') throw new Error(`${model} failed: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** Polls until `cond` holds: the moment a kill must hit is a state of the instance, not a time. */
async function when(cond: () => boolean | Promise<boolean>) {
  while (!(await cond())) await new Promise((res) => setTimeout(res, 20));
}

/** Statements the instance's engine is running now (GET /api/status). */
async function running(p: InstanceProcess): Promise<number> {
  const r = await fetch(`${p.url}/api/status`);
  return ((await r.json()) as { engine: { active: number } }).engine.active;
}

describe('kill -9 and restart', () => {
  it('during CREATE TABLE AS: committed tables survive, the interrupted one is absent', async () => {
    const dir = await seededDataDir();
    const a = await start(dir);
    expect(
      (await a.sql('CREATE TABLE mindsdb.committed AS SELECT range AS i FROM range(1000)')).type,
    ).toBe('ok');
    // A CTAS that takes seconds; kill the process while it runs.
    const pending = a
      .sql(
        'CREATE TABLE mindsdb.half AS SELECT a.range AS i, md5(a.range::VARCHAR) AS h FROM range(60000000) a',
      )
      .catch(() => 'connection lost');
    await when(async () => (await running(a)) > 0);
    await a.kill9();
    expect(await pending).toBe('connection lost');

    const b = await start(dir);
    expect((await b.sql('SELECT count(*), sum(i) FROM mindsdb.committed')).data).toEqual([
      [1000, 499500],
    ]);
    const half = await b.sql('SELECT count(*) FROM mindsdb.half');
    expect(half.type).toBe('error');
    expect(half.error_message).toMatch(/half does not exist/);
    // The demo data is intact and the instance takes new work.
    expect((await b.sql('SELECT count(*) FROM example_db.demo_data.home_rentals')).data).toEqual([
      [5037],
    ]);
    expect((await b.sql('CREATE TABLE mindsdb.after AS SELECT 1 AS x')).type).toBe('ok');
    await b.stop();
  });

  it('during the first start (demo data load): the next start completes the load', async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    // Kill while the instance is still starting (somewhere in opening or loading the demo data).
    const child = spawn(process.execPath, ['server/launch.mjs', 'server/main.ts'], {
      env: { ...process.env, DATA_DIR: dir, PORT: '0' },
      stdio: 'ignore',
    });
    // Once the demo database file exists the load is under way.
    await when(() => fs.existsSync(`${dir}/example_db.duckdb`));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const b = await start(dir);
    const r = await b.sql(
      `SELECT count(*) FROM information_schema.tables WHERE table_catalog = 'example_db' AND table_schema = 'demo_data'`,
    );
    expect(r.data).toEqual([[DEMO_TABLES.length]]);
    await b.stop();
  });

  it('during training: complete models answer after restart, the interrupted one says so', async () => {
    const dir = await seededDataDir();
    // No warm-up training competing for the cores; each step waits on the state it needs, never
    // on a count of polls (a loaded machine makes both trainings slower, not the test wrong).
    const a = await start(dir, { TRAINING_WARMUP: '0' });
    await a.sql(
      'CREATE MODEL mindsdb.done FROM mindsdb (SELECT range AS x, range % 5 AS c, range * 2 + range % 5 AS y FROM range(400)) PREDICT y',
    );
    await until(a, 'done', (s) => s === 'complete');
    const before = await a.sql('SELECT y FROM mindsdb.done WHERE x = 10 AND c = 0');
    expect(before.type).toBe('table');
    // A training big enough to still be running when the process dies.
    await a.sql(
      'CREATE MODEL mindsdb.cut FROM example_db (SELECT t.* FROM demo_data.customer_churn t, range(30)) PREDICT Exited',
    );
    await until(a, 'cut', (s) => s === 'training');
    await a.kill9();

    const b = await start(dir, { TRAINING_WARMUP: '0' });
    const after = await b.sql('SELECT y FROM mindsdb.done WHERE x = 10 AND c = 0');
    expect(after.data).toEqual(before.data);
    const cut = await b.sql("SELECT status, error FROM mindsdb.models WHERE name = 'cut'");
    expect(cut.data[0][0]).toBe('error');
    expect(cut.data[0][1]).toMatch(/interrupted/);
    const use = await b.sql('SELECT Exited FROM mindsdb.cut WHERE Age = 40');
    expect(use.type).toBe('error');
    expect(use.error_message).toMatch(/error/);
    await b.stop();
  });

  it('during a file upload: the previous version of the file stays whole, no half table appears', async () => {
    const dir = await seededDataDir();
    const a = await start(dir);
    const put = (body: string) =>
      fetch(`${a.url}/api/files/sales`, {
        method: 'PUT',
        headers: { 'content-type': 'text/csv' },
        body,
      });
    expect((await put('id,amount\n1,10\n2,20\n')).status).toBe(200);
    // A large upload, killed while the instance is receiving it: the request is sent with a
    // Content-Length of the whole file but only its first half is written before the kill.
    const big = Buffer.from(
      'id,amount\n' + Array.from({ length: 1_500_000 }, (_, i) => `${i},${i % 97}`).join('\n'),
    );
    const u = new URL(a.url);
    const req = http.request({
      host: u.hostname,
      port: u.port,
      method: 'PUT',
      path: '/api/files/sales',
      headers: { 'content-type': 'text/csv', 'content-length': String(big.length) },
    });
    req.on('error', () => undefined);
    await new Promise<void>((r) => req.write(big.subarray(0, big.length >> 1), () => r()));
    // The half that was sent is being written to the upload's temporary file.
    const incoming = `${dir}/uploads/.incoming`;
    await when(() => fs.existsSync(incoming) && fs.readdirSync(incoming).length > 0);
    await a.kill9();
    req.destroy();

    const b = await start(dir);
    const r = await b.sql('SELECT count(*), sum(amount) FROM files.sales');
    expect(r.data).toEqual([[2, 30]]);
    const leftovers = await b.sql(
      "SELECT count(*) FROM information_schema.tables WHERE table_catalog = 'files' AND table_name LIKE '__upload%'",
    );
    expect(leftovers.data).toEqual([[0]]);
    const uploads = `${dir}/uploads`;
    expect(fs.existsSync(uploads) ? fs.readdirSync(uploads) : []).toEqual([]);
    await b.stop();
  });

  it('keeps 8 acknowledged writes made around stray BEGINs (alone, in a script, before an error)', async () => {
    const dir = await seededDataDir();
    const a = await start(dir);
    expect((await a.sql('CREATE TABLE mindsdb.acks (i INTEGER)')).type).toBe('ok');
    const strays = [
      'BEGIN TRANSACTION',
      'BEGIN; INSERT INTO mindsdb.acks VALUES (999)',
      'BEGIN; SELECT 1/0',
      'START TRANSACTION; INSERT INTO mindsdb.acks VALUES (998); COMMIT',
    ];
    const acks: unknown[] = [];
    for (let i = 1; i <= 8; i++) {
      // A stray BEGIN from another client lands between the writes, and one alongside each write.
      const [w, stray] = await Promise.all([
        a.sql(`INSERT INTO mindsdb.acks VALUES (${i})`),
        a.sql(strays[i % strays.length]),
      ]);
      expect(stray.type).toBe('error');
      acks.push(w);
    }
    for (const w of acks) expect(w).toMatchObject({ type: 'ok', affected_rows: 1 });
    expect((await a.sql('SELECT count(*), sum(i) FROM mindsdb.acks')).data).toEqual([[8, 36]]);
    await a.kill9();

    const b = await start(dir);
    expect((await b.sql('SELECT count(*), sum(i), max(i) FROM mindsdb.acks')).data).toEqual([
      [8, 36, 8],
    ]);
    await b.stop();
  });

  /**
   * Sends `first` to the supervisor while a statement of seconds runs (in-flight requests keep the
   * clean stop waiting), then each of `more` once the instance has begun to stop; resolves with
   * what the statement's request got, once the supervisor has exited.
   */
  async function signalWhileStopping(
    a: InstanceProcess,
    first: NodeJS.Signals,
    more: NodeJS.Signals[],
  ) {
    const pending = a
      .sql(
        'CREATE TABLE mindsdb.slow AS SELECT a.range AS i, md5(a.range::VARCHAR) AS h FROM range(60000000) a',
      )
      .catch(() => 'connection lost');
    await when(async () => (await running(a)) > 0);
    // 'close': the child's last lines (the SIGKILL notice) are read from its pipe once its stdio
    // closes, which can be after 'exit' (a busy machine made this miss them once).
    const exited = new Promise<void>((r) => a.child.once('close', () => r()));
    a.child.kill(first);
    await when(() => a.output().includes('Shutting down (the supervisor)'));
    for (const s of more) a.child.kill(s);
    await exited;
    return pending;
  }

  it('one Ctrl-C under npm run dev (SIGINT from the terminal, SIGTERM from dev.mjs) stops cleanly with exit code 0', async () => {
    const a = await start(await seededDataDir());
    await signalWhileStopping(a, 'SIGINT', ['SIGTERM']);
    expect(a.output()).toMatch(
      /SIGINT received: shutting down\n[^]*SIGTERM received: shutting down/,
    );
    expect(a.output()).not.toMatch(/SIGKILL|EPIPE|Unhandled/);
    expect(a.child.exitCode).toBe(0);
  });

  it('the same signal again while the instance stops (Ctrl-C twice) ends it at once, with exit code 1', async () => {
    // A SIGKILL keeps what was committed (the kill -9 tests above restart on the DATA_DIR).
    const a = await start(await seededDataDir());
    const pid = a.instancePid();
    // Before: a signal during shutdown asked the instance to stop again over its IPC channel, and
    // when that channel had just closed the supervisor died of an unhandled EPIPE.
    expect(await signalWhileStopping(a, 'SIGTERM', ['SIGTERM', 'SIGTERM'])).toBe('connection lost');
    expect(a.output()).toMatch(
      new RegExp(`Stopping the instance process ${pid} now \\(SIGKILL\\)`),
    );
    expect(a.output()).not.toMatch(/EPIPE|Unhandled|Error/);
    expect(a.child.exitCode).toBe(1);
  });
});
