/**
 * DATA_DIR holds credentials (the key that encrypts integration secrets, revoked sessions, the
 * catalog): everything in it is for the instance's user only, 0700 folders and 0600 files, also
 * what DuckDB and the training workers create, and also in a DATA_DIR an older version left with
 * looser modes. The instance runs as its own process here, as `npm run instance` starts it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../harness';
import { spawnInstance, type InstanceProcess } from '../process';

const dirs: string[] = [];
const procs: InstanceProcess[] = [];
afterAll(async () => {
  for (const p of procs) await p.stop().catch(() => {});
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Every path under `root` whose mode is not 0700 (folders) or 0600 (files). */
function looseModes(root: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = fs.lstatSync(p);
    const mode = st.mode & 0o777;
    if (st.isDirectory()) {
      if (mode !== 0o700) out.push(`${path.relative(root, p) || '.'} ${mode.toString(8)}`);
      for (const f of fs.readdirSync(p)) walk(path.join(p, f));
    } else if (st.isFile() && mode !== 0o600) {
      out.push(`${path.relative(root, p)} ${mode.toString(8)}`);
    }
  };
  walk(root);
  return out;
}

describe('DATA_DIR modes', () => {
  it('creates every folder 0700 and every file 0600: DuckDB files, uploads, models, keys, sessions', async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    const a = await spawnInstance(dir, {
      AUTH_USERNAME: 'ada',
      AUTH_PASSWORD: 's3cret-pass',
      AUTH_SECRET: 'a-long-enough-secret-for-tests',
    });
    procs.push(a);
    const login = await fetch(`${a.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ada', password: 's3cret-pass' }),
    });
    const { token } = (await login.json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    const sql = async (query: string) =>
      (
        await fetch(`${a.url}/api/sql/query`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...auth },
          body: JSON.stringify({ query }),
        })
      ).json() as Promise<{ type: string; data?: unknown[][] }>;
    expect((await sql('CREATE PROJECT moded')).type).toBe('ok');
    expect((await sql('CREATE TABLE moded.t AS SELECT 1 AS x')).type).toBe('ok');
    await sql(
      'CREATE MODEL mindsdb.moded_m FROM example_db (SELECT * FROM demo_data.home_rentals LIMIT 300) PREDICT rental_price',
    );
    const put = await fetch(`${a.url}/api/files/moded_f`, {
      method: 'PUT',
      headers: { 'content-type': 'text/csv', ...auth },
      body: 'a,b\n1,2\n',
    });
    expect(put.status).toBe(200);
    expect(
      (
        await sql(
          `CREATE DATABASE pg_m WITH ENGINE = 'postgres', PARAMETERS = {"host": "127.0.0.1", "port": 1, "user": "u", "password": "p", "database": "d"}`,
        )
      ).type,
    ).toBe('error');
    for (let i = 0; i < 600; i++) {
      const r = await sql("SELECT status FROM mindsdb.models WHERE name = 'moded_m'");
      if (r.data?.[0]?.[0] === 'complete') break;
      await new Promise((res) => setTimeout(res, 100));
    }
    await fetch(`${a.url}/api/logout`, { method: 'POST', headers: auth });
    await a.stop();
    expect(fs.existsSync(path.join(dir, 'sessions', 'revoked.json'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'models', 'mindsdb', 'moded_m', '1.json'))).toBe(true);
    expect(looseModes(dir)).toEqual([]);
  });

  it('tightens the modes of a DATA_DIR an older version left open', async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    const a = await spawnInstance(dir);
    procs.push(a);
    await a.stop();
    fs.chmodSync(dir, 0o755);
    fs.chmodSync(path.join(dir, 'catalog.json'), 0o644);
    fs.chmodSync(path.join(dir, 'mindsdb.duckdb'), 0o644);
    fs.chmodSync(path.join(dir, 'projects'), 0o755);
    const b = await spawnInstance(dir);
    procs.push(b);
    expect((await b.sql('SELECT 1')).data).toEqual([[1]]);
    await b.stop();
    expect(looseModes(dir)).toEqual([]);
  });
});
