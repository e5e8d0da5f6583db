/**
 * The front door against an attacker (issue 12, classes 1, 2, 4 and 11): authentication decided
 * on the route Fastify dispatches to, whatever the spelling of the path; cross-site requests and
 * DNS rebinding refused with auth off; sessions, logout and the login limiter; CREATE DATABASE
 * as a port scanner; and Fastify's and Node's own errors in the JSON envelope.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginLimiter, SessionTokens } from '../auth';
import { registeredRoutes } from '../openapi';
import { hostAllowed } from '../../integrations';
import { startHarness, tempDataDir, type Harness } from '../../test/harness';
import { rawRequest, rawSocket } from '../../test/http';
import { spawnInstance } from '../../test/process';
import { trainingCache } from '../../test/training-cache';

const JSON_TYPE = { 'content-type': 'application/json' };

/** A concrete path for a registered route pattern. */
const concrete = (route: string) => route.replace(/:\w+/g, 'mindsdb').replace(/\*/g, 'x');

/**
 * Spellings of one path that a router might send to the same handler: percent-encoding (of one
 * character, of every character, upper and lower hex), case, duplicate slashes, dot segments, a
 * trailing slash, a matrix parameter, a query string, an encoded slash, and the `/v1/api` prefix.
 */
function spellings(p: string): string[] {
  const enc = (s: string, lower = false) =>
    [...s]
      .map((c) =>
        c === '/' ? c : `%${c.charCodeAt(0).toString(16)[lower ? 'toLowerCase' : 'toUpperCase']()}`,
      )
      .join('');
  const segs = p.split('/');
  return [
    p,
    p.replace('/api', '/%61pi'),
    p.replace('/api', '/%61%70%69'),
    enc(p),
    enc(p, true),
    p.toUpperCase(),
    `/${p}`,
    p.replace('/api/', '/api//'),
    p.replace('/api/', '/api/./'),
    `/x/..${p}`,
    p.replace('/api/', '/api/x/../'),
    `${p}/`,
    `${p}//`,
    `${p};x=1`,
    `${p}?a=1`,
    `${segs.slice(0, -1).join('/')}%2F${segs.at(-1)}`,
    `/v1/api${p}`,
    `/v1/api${p.replace('/api', '/%61pi')}/`,
    p.replace(/\/([a-z])/g, (_, c: string) => `/%${c.charCodeAt(0).toString(16)}`),
  ];
}

describe('class 1: authentication on the dispatched route, whatever the spelling', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      ...trainingCache(),
      AUTH_USERNAME: 'ada',
      AUTH_PASSWORD: 's3cret-pass',
    });
  });
  afterAll(async () => {
    await h.close();
  });

  it('answers 401 without a token on every registered route except login, status and ping, under each spelling', async () => {
    const routes = registeredRoutes(h.app).map((r) => `${r.method} ${r.url}`);
    expect(routes.length).toBeGreaterThan(15);
    const open: string[] = [];
    let tried = 0;
    for (const key of routes) {
      const [method, pattern] = key.split(' ');
      const isPublic =
        key === 'GET /api/status' || key === 'GET /api/util/ping' || key === 'POST /api/login';
      for (const p of spellings(concrete(pattern))) {
        const withBody = method === 'POST' || method === 'PUT';
        const r = await rawRequest(
          h.url,
          method,
          p,
          withBody ? JSON_TYPE : {},
          withBody ? '{"query": "CREATE TABLE mindsdb.pwned AS SELECT 1"}' : undefined,
        );
        tried++;
        if (isPublic) continue;
        if (r.status !== 401) open.push(`${method} ${p} -> ${r.status}`);
        else expect(r.json?.error_code).toBe(8);
      }
    }
    expect(open).toEqual([]);
    expect(tried).toBeGreaterThan(300);
    // Nothing ran: the table the bodies tried to create does not exist.
    const login = await h.post('/api/login', { username: 'ada', password: 's3cret-pass' });
    const q = await h.post(
      '/api/sql/query',
      { query: "SELECT count(*) FROM information_schema.tables WHERE table_name = 'pwned'" },
      { authorization: `Bearer ${login.body.token}` },
    );
    expect(q.body.data).toEqual([[0]]);
  });

  it('still opens status and login, and HEAD of status, without a token', async () => {
    expect((await rawRequest(h.url, 'GET', '/%61pi/status')).status).toBe(200);
    expect((await rawRequest(h.url, 'HEAD', '/api/status')).status).toBe(200);
    const bad = await rawRequest(
      h.url,
      'POST',
      '/api/login/',
      JSON_TYPE,
      '{"username": "ada", "password": "nope"}',
    );
    expect(bad.status).toBe(401);
    expect(bad.json.error_message).toBe('Wrong username or password');
  });

  it('answers unknown paths by their prefix only, so the route table is not probed without a token', async () => {
    // Under the paths MindsDB protects (and this instance's own), 401 whether a route is there.
    for (const p of ['/api/projects/no/such/route', '/api/sql/nothing', '/v1/api/nothing'])
      expect((await rawRequest(h.url, 'GET', p)).status, p).toBe(401);
    // Elsewhere MindsDB's 404, as MindsDB answers (its Python SDK's login relies on it).
    for (const p of ['/api/no/such/route', '/cloud/login', '/%61pi/nothing'])
      expect((await rawRequest(h.url, 'GET', p)).status, p).toBe(404);
  });
});

describe('class 2: cross-site requests and DNS rebinding with auth off', () => {
  let h: Harness;
  let allowed: Harness;
  beforeAll(async () => {
    h = await startHarness(trainingCache());
    allowed = await startHarness({
      ...trainingCache(),
      ALLOWED_ORIGINS: ['http://playground.test:5173'],
      ALLOWED_HOSTS: ['instance.test'],
    });
  });
  afterAll(async () => {
    await h.close();
    await allowed.close();
  });

  const sql = (base: string, query: string, headers: Record<string, string>) =>
    rawRequest(base, 'POST', '/api/sql/query', headers, JSON.stringify({ query }));

  const exists = async (table: string) =>
    (await h.sql(`SELECT count(*) FROM information_schema.tables WHERE table_name = '${table}'`))
      .data[0][0];

  it('refuses a text/plain POST (what a cross-site form or fetch sends without preflight) before it runs', async () => {
    const target = path.join(h.dataDir, 'exports', 'csrf.csv');
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const r = await sql(h.url, `COPY (SELECT 1) TO '${target}'`, { 'content-type': type });
      expect(r.status).toBe(415);
      expect(r.json).toMatchObject({ type: 'error', error_code: 3 });
    }
    const none = await rawRequest(h.url, 'POST', '/api/sql/query', {}, '{"query": "SELECT 1"}');
    expect(none.status).toBe(415);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('refuses a request from a foreign or null Origin, even with a JSON content type', async () => {
    for (const origin of [
      'http://evil.example',
      'null',
      'http://127.0.0.1.evil.example',
      'http://localhost:1',
      `${h.url}.evil.example`,
    ]) {
      const r = await sql(h.url, 'CREATE TABLE mindsdb.csrf AS SELECT 1', {
        ...JSON_TYPE,
        origin,
      });
      expect(r.status, origin).toBe(403);
      expect(r.json).toMatchObject({ type: 'error', error_code: 10 });
      expect(r.json.error_message).toMatch(/origin/i);
    }
    // GETs too: nothing of the instance is readable from another origin.
    const get = await rawRequest(h.url, 'GET', '/api/projects', { origin: 'http://evil.example' });
    expect(get.status).toBe(403);
    expect(await exists('csrf')).toBe(0);
  });

  it('refuses a cross-site state change that carries no Origin (Sec-Fetch-Site)', async () => {
    const r = await sql(h.url, 'CREATE TABLE mindsdb.csrf2 AS SELECT 1', {
      ...JSON_TYPE,
      'sec-fetch-site': 'cross-site',
    });
    expect(r.status).toBe(403);
    expect(await exists('csrf2')).toBe(0);
  });

  it('accepts no Origin, the instance own origin, and a configured one', async () => {
    expect((await sql(h.url, 'SELECT 1', JSON_TYPE)).json.data).toEqual([[1]]);
    const own = await sql(h.url, 'SELECT 2', { ...JSON_TYPE, origin: h.url });
    expect(own.json.data).toEqual([[2]]);
    const configured = await sql(allowed.url, 'SELECT 3', {
      ...JSON_TYPE,
      origin: 'http://playground.test:5173',
    });
    expect(configured.json.data).toEqual([[3]]);
  });

  it('refuses a Host that is not the instance (DNS rebinding) with 421', async () => {
    const port = new URL(h.url).port;
    for (const host of [
      `attacker.example:${port}`,
      'attacker.example',
      `127.0.0.1.nip.io:${port}`,
      `localhost.attacker.example:${port}`,
      `evil.localhost:${port}`,
      'bad host',
    ]) {
      const r = await sql(h.url, 'SELECT 1', { ...JSON_TYPE, host });
      expect(r.status, host).toBe(421);
      expect(r.json.error_code).toBe(10);
    }
    const status = await rawRequest(h.url, 'GET', '/api/status', { host: 'attacker.example' });
    expect(status.status).toBe(421);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, '10.1.2.3']) {
      expect((await sql(h.url, 'SELECT 1', { ...JSON_TYPE, host })).status, host).toBe(200);
    }
    const named = await sql(allowed.url, 'SELECT 1', { ...JSON_TYPE, host: 'instance.test:80' });
    expect(named.status).toBe(200);
  });

  it('refuses an upload in a body type a cross-site form can send', async () => {
    const r = await rawRequest(
      h.url,
      'PUT',
      '/api/files/sneaky',
      { 'content-type': 'text/plain' },
      'a,b\n1,2\n',
    );
    expect(r.status).toBe(415);
    expect(r.json.error_message).toMatch(/multipart\/form-data/);
  });
});

describe('class 4: sessions, logout and the login limiter', () => {
  it('keeps a logged-out token revoked across a restart, while other tokens live on', async () => {
    const dir = tempDataDir();
    const cfg = {
      AUTH_USERNAME: 'ada',
      AUTH_PASSWORD: 's3cret-pass',
      AUTH_SECRET: 'a-long-enough-secret-for-tests',
    };
    let h = await startHarness({ ...trainingCache(), ...cfg }, dir);
    const login = async () =>
      (await h.post('/api/login', { username: 'ada', password: 's3cret-pass' })).body.token;
    const out = await login();
    const kept = await login();
    expect((await h.post('/api/logout', {}, { authorization: `Bearer ${out}` })).status).toBe(200);
    await h.close({ keepData: true });
    h = await startHarness({ ...trainingCache(), ...cfg }, dir);
    const q = (token: string) =>
      h.post('/api/sql/query', { query: 'SELECT 1' }, { authorization: `Bearer ${token}` });
    expect((await q(out)).status).toBe(401);
    expect((await q(kept)).status).toBe(200);
    const file = fs.statSync(path.join(dir, 'sessions', 'revoked.json'));
    expect(file.mode & 0o777).toBe(0o600);
    await h.close();
  });

  it('does not grow the revocation list for forged, foreign or expired tokens', () => {
    const dir = tempDataDir();
    const file = path.join(dir, 'revoked.json');
    const tokens = new SessionTokens('secret-one-secret-one', 60, file);
    const foreign = new SessionTokens('secret-two-secret-two', 60).issue('ada').token;
    const expired = new SessionTokens('secret-one-secret-one', -10).issue('ada').token;
    for (let i = 0; i < 1000; i++) {
      tokens.revoke(
        `${Buffer.from(JSON.stringify({ jti: `x${i}`, exp: 9e9 })).toString('base64url')}.sig`,
      );
      tokens.revoke(foreign);
      tokens.revoke(expired);
      tokens.revoke('garbage');
    }
    expect(tokens.revokedCount).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
    const own = tokens.issue('ada').token;
    tokens.revoke(own);
    tokens.revoke(own);
    expect(tokens.revokedCount).toBe(1);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers logout without a valid session 401 over HTTP (and revokes nothing)', async () => {
    const h = await startHarness({
      ...trainingCache(),
      AUTH_USERNAME: 'ada',
      AUTH_PASSWORD: 's3cret-pass',
    });
    for (let i = 0; i < 50; i++) {
      const r = await h.post('/api/logout', {}, { authorization: `Bearer forged.${i}` });
      expect(r.status).toBe(401);
    }
    expect(fs.existsSync(path.join(h.dataDir, 'sessions', 'revoked.json'))).toBe(false);
    await h.close();
  });

  it('does not let another local process lock the real user out by failing with other usernames', async () => {
    const h = await startHarness({
      ...trainingCache(),
      AUTH_USERNAME: 'ada',
      AUTH_PASSWORD: 's3cret-pass',
      LOGIN_ATTEMPTS_PER_MINUTE: 5,
    });
    for (let i = 0; i < 30; i++) {
      const r = await h.post('/api/login', { username: `mallory${i % 3}`, password: 'guess' });
      expect([401, 429]).toContain(r.status);
    }
    const ok = await h.post('/api/login', { username: 'ada', password: 's3cret-pass' });
    expect(ok.status).toBe(200);
    // Guessing at the real username is limited wherever it comes from.
    for (let i = 0; i < 5; i++) await h.post('/api/login', { username: 'ada', password: 'guess' });
    const limited = await h.post('/api/login', { username: 'ada', password: 's3cret-pass' });
    expect(limited.status).toBe(429);
    expect(limited.body.error_message).toMatch(/Too many login attempts; try again in \d+ s/);
    await h.close();
  });

  it('counts failures per username and per remote address, not for loopback addresses', () => {
    let now = 0;
    const l = new LoginLimiter(3, 60_000, () => now);
    const remote = LoginLimiter.keys('X', '203.0.113.9');
    expect(remote).toEqual(['user:x', 'addr:203.0.113.9']);
    expect(LoginLimiter.keys('x', '127.0.0.1')).toEqual(['user:x']);
    for (let i = 0; i < 3; i++) l.fail(LoginLimiter.keys(`u${i}`, '203.0.113.9'));
    // That address is stopped for any username; others are not.
    expect(l.retryAfter(LoginLimiter.keys('ada', '203.0.113.9'))).toBeGreaterThan(0);
    expect(l.retryAfter(LoginLimiter.keys('ada', '198.51.100.1'))).toBe(0);
    expect(l.retryAfter(LoginLimiter.keys('ada', '127.0.0.1'))).toBe(0);
    now += 60_001;
    expect(l.retryAfter(LoginLimiter.keys('ada', '203.0.113.9'))).toBe(0);
    // Memory stays bounded whatever is sprayed.
    for (let i = 0; i < 20_000; i++) l.fail([`user:spray${i}`]);
    expect(l.size).toBeLessThanOrEqual(10_000);
  });
});

describe('class 4: CREATE DATABASE is not a port scanner', () => {
  let h: Harness;
  let listener: net.Server;
  let listenerPort = 0;
  let accepted = 0;
  beforeAll(async () => {
    h = await startHarness(trainingCache());
    // Something that is not PostgreSQL: accepts, answers garbage and closes.
    listener = net.createServer((s) => {
      accepted++;
      s.end('HTTP/1.1 400 Bad Request\r\n\r\n', () => s.destroy());
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    listenerPort = (listener.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await h.close();
    await new Promise((r) => listener.close(r));
  });

  const create = (name: string, host: string, port: number) =>
    h.sql(
      `CREATE DATABASE ${name} WITH ENGINE = 'postgres', PARAMETERS = {"host": "${host}", "port": ${port}, "user": "u", "password": "p", "database": "d", "connect_timeout": 1}`,
    );
  /** The message with the parts that name the target removed. */
  const shape = (m: string) => m.replace(/'p\d'/, "'p'").replace(/at [^,]+:\d+,/, 'at HOST,');

  it('gives the same answer for a closed port, a filtered host and a port where something else listens', async () => {
    const closedPort = await new Promise<number>((r) => {
      const s = net.createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => r(p));
      });
    });
    const closed = await create('p1', '127.0.0.1', closedPort);
    const other = await create('p2', '127.0.0.1', listenerPort);
    const filtered = await create('p3', '10.255.255.1', 5432);
    expect(accepted).toBeGreaterThan(0);
    for (const r of [closed, other, filtered]) {
      expect(r).toMatchObject({ type: 'error', error_code: 3 });
    }
    expect(shape(closed.error_message)).toBe(shape(other.error_message));
    expect(shape(closed.error_message)).toBe(shape(filtered.error_message));
    expect(closed.error_message).toMatch(/no PostgreSQL server answered/);
  });

  it('refuses hosts outside INTEGRATION_HOSTS without connecting', async () => {
    const limited = await startHarness({
      ...trainingCache(),
      INTEGRATION_HOSTS: ['db.internal', '10.0.0.0/8'],
    });
    const before = accepted;
    const r = await limited.sql(
      `CREATE DATABASE pg1 WITH ENGINE = 'postgres', PARAMETERS = {"host": "127.0.0.1", "port": ${listenerPort}, "user": "u", "database": "d"}`,
    );
    expect(r).toMatchObject({ type: 'error', error_code: 10 });
    expect(r.error_message).toMatch(/not in INTEGRATION_HOSTS/);
    expect(accepted).toBe(before);
    await limited.close();
  });

  it('matches INTEGRATION_HOSTS by name, wildcard, address and CIDR range', () => {
    const list = ['db.internal', '*.corp.example', '192.0.2.7', '10.0.0.0/8', 'fd00::/8'];
    expect(hostAllowed('DB.internal', list)).toBe(true);
    expect(hostAllowed('pg.corp.example', list)).toBe(true);
    expect(hostAllowed('corp.example.evil', list)).toBe(false);
    expect(hostAllowed('192.0.2.7', list)).toBe(true);
    expect(hostAllowed('10.20.30.40', list)).toBe(true);
    expect(hostAllowed('11.0.0.1', list)).toBe(false);
    expect(hostAllowed('fd12::1', list)).toBe(true);
    expect(hostAllowed('localhost', list)).toBe(false);
    expect(hostAllowed('anything', [])).toBe(true);
  });
});

describe("class 11: Fastify's and Node's own errors in the JSON envelope", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      ...trainingCache(),
      BODY_LIMIT_BYTES: 64 * 1024,
      MAX_UPLOAD_BYTES: 1000,
    });
  });
  afterAll(async () => {
    await h.close();
  });

  it('answers a malformed percent-escape with a JSON 400', async () => {
    for (const p of ['/api/%zz', '/api/projects/%E0%A4%A', '/api/sql/query%']) {
      const r = await rawRequest(h.url, 'GET', p);
      expect(r.status, p).toBe(400);
      // The SQL route's envelope is JSON; the rest answer problem details.
      expect(r.type).toMatch(/^application\/(problem\+)?json/);
      expect(r.json.error_code).toBe(3);
    }
  });

  it('answers a URL segment over the limit with a JSON 414', async () => {
    const r = await rawRequest(h.url, 'GET', `/api/projects/${'p'.repeat(600)}`);
    expect(r.status).toBe(414);
    expect(r.json).toEqual({
      title: 'URI Too Long',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/),
      detail: 'A segment of the URL is longer than the limit (500 characters)',
      error_code: 6,
      error_message: 'A segment of the URL is longer than the limit (500 characters)',
    });
  });

  it('answers headers over the limit and malformed HTTP with JSON and closes', async () => {
    const big = await rawSocket(
      h.url,
      `GET /api/status HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(big.status).toBe(431);
    expect(big.json.error_code).toBe(6);
    const garbage = await rawSocket(h.url, 'NOT HTTP AT ALL\r\n\r\n');
    expect(garbage.status).toBe(400);
    expect(garbage.json).toEqual({
      title: 'Bad Request',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/),
      detail: 'The request is not valid HTTP',
      error_code: 3,
      error_message: 'The request is not valid HTTP',
    });
  });

  it('answers a body shorter than its Content-Length with JSON (and keeps serving)', async () => {
    const r = await rawSocket(
      h.url,
      `POST /api/sql/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query": "SELECT 1"}`,
      { halfClose: true },
    );
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      title: 'Bad Request',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/),
      detail: 'The request ended before the body its Content-Length announced',
      error_code: 3,
      error_message: 'The request ended before the body its Content-Length announced',
    });
    expect((await h.sql('SELECT 7')).data).toEqual([[7]]);
  });

  it('answers in the SQL envelope on every spelling of the SQL route', async () => {
    for (const p of ['/api/sql/query/', '/%61pi/sql/query', '/api/sql/query?x=1']) {
      const r = await rawRequest(h.url, 'POST', p, JSON_TYPE, '{"query": 5}');
      expect(r.status, p).toBe(400);
      expect(r.json, p).toMatchObject({
        type: 'error',
        column_names: [],
        error_code: 3,
        context: { db: 'mindsdb' },
      });
    }
  });

  it('names the limit in 413 answers, for bodies and for uploads', async () => {
    const body = await h.post('/api/sql/query', { query: `SELECT '${'x'.repeat(70_000)}'` });
    expect(body.status).toBe(413);
    expect(body.body.error_message).toMatch(/limit \(65536 bytes, BODY_LIMIT_BYTES\)/);
    const up = await rawRequest(
      h.url,
      'PUT',
      '/api/files/big',
      { 'content-type': 'text/csv' },
      `a\n${'1\n'.repeat(1000)}`,
    );
    expect(up.status).toBe(413);
    expect(up.json.error_message).toMatch(/upload limit \(1000 bytes/);
  });

  it('answers predict on a damaged artifact with a 409 naming the model, which then shows error', async () => {
    const dir = tempDataDir();
    let m = await startHarness(trainingCache(), dir);
    await m.sql(
      'CREATE MODEL mindsdb.fragile FROM example_db (SELECT * FROM demo_data.home_rentals LIMIT 300) PREDICT rental_price',
    );
    for (let i = 0; i < 600; i++) {
      const r = await m.sql("SELECT status FROM mindsdb.models WHERE name = 'fragile'");
      if (r.data[0][0] === 'complete') break;
      await new Promise((res) => setTimeout(res, 100));
    }
    await m.close({ keepData: true });
    for (const damage of ['{"format": "broken', '{}']) {
      fs.writeFileSync(path.join(dir, 'models', 'mindsdb', 'fragile', '1.json'), damage);
      m = await startHarness(trainingCache(), dir);
      const r = await m.post('/api/projects/mindsdb/models/fragile/predict', [{ sqft: 800 }]);
      expect(r.status).toBe(409);
      expect(r.body.error_code).toBe(4);
      expect(r.body.error_message).toMatch(
        /Model 'mindsdb\.fragile' \(version 1\).*error.*damaged/,
      );
      const row = await m.sql("SELECT status, error FROM mindsdb.models WHERE name = 'fragile'");
      expect(row.data[0][0]).toBe('error');
      expect(row.data[0][1]).toMatch(/artifact .*1\.json is missing or damaged/);
      const sql = await m.sql('SELECT rental_price FROM mindsdb.fragile WHERE sqft = 800');
      expect(sql).toMatchObject({ type: 'error', error_code: 4 });
      await m.close({ keepData: true });
      // Repaired for the next round: the version is complete again in the store.
      const store = path.join(dir, 'models', 'models.json');
      fs.writeFileSync(
        store,
        fs.readFileSync(store, 'utf8').replace('"status": "error"', '"status": "complete"'),
      );
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names the damaged file when catalog.json is corrupt at start-up, and stops without retrying', async () => {
    const dir = tempDataDir();
    fs.writeFileSync(path.join(dir, 'catalog.json'), '{"version": 1, "projects": [');
    const err = await spawnInstance(dir).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain(path.join(dir, 'catalog.json'));
    expect((err as Error).message).toMatch(/is damaged \(not valid JSON/);
    // Said once and not retried: the same damaged file would fail every new start the same way.
    expect((err as Error).message.match(/Instance process \d+ started/g)).toHaveLength(1);
    expect((err as Error).message).toContain('cannot start with this DATA_DIR');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
