import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, exposureProblem } from '../../config';
import { startHarness, type Harness } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    AUTH_USERNAME: 'ada',
    AUTH_PASSWORD: 's3cret-pass',
    LOGIN_ATTEMPTS_PER_MINUTE: 5,
  });
});
afterAll(async () => {
  await h.close();
});

const login = (username: string, password: string, ip = '127.0.0.1') =>
  fetch(`${h.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ username, password }),
  });

describe('authentication', () => {
  it('reports auth on and not confirmed in status without a session', async () => {
    const r = await h.get('/api/status');
    expect(r.status).toBe(200);
    expect(r.body.auth).toEqual({ http_auth_enabled: true, confirmed: false, provider: 'local' });
  });

  it('answers 401 JSON on SQL and other routes without a session', async () => {
    const sql = await h.post('/api/sql/query', { query: 'SELECT 1' });
    expect(sql.status).toBe(401);
    expect(sql.body).toMatchObject({ type: 'error', error_code: 8, column_names: [] });
    expect(sql.body.error_message).toMatch(/Authentication required/);
    const other = await h.get('/api/projects');
    expect(other.status).toBe(401);
    expect(other.body.error_code).toBe(8);
    const prefixed = await h.get('/v1/api/api/projects/mindsdb/models/x/describe');
    expect(prefixed.status).toBe(401);
  });

  it('rejects wrong credentials with 401 and a message that does not say which part was wrong', async () => {
    const r = await login('ada', 'nope');
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({
      title: 'Unauthorized',
      detail: 'Wrong username or password',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/),
      error_code: 8,
      error_message: 'Wrong username or password',
    });
  });

  it('logs in with a signed HttpOnly SameSite=Lax session cookie that opens the API', async () => {
    const r = await login('ada', 's3cret-pass');
    expect(r.status).toBe(200);
    const setCookie = r.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^session=[\w-]+\.[\w-]+;/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Max-Age=43200/);
    const cookie = setCookie.split(';')[0];
    const q = await h.post('/api/sql/query', { query: 'SELECT 41 + 1 AS x' }, { cookie });
    expect(q.status).toBe(200);
    expect(q.body.data).toEqual([[42]]);
    const st = await h.get('/api/status', { cookie });
    expect(st.body.auth.confirmed).toBe(true);
  });

  it('accepts the token as a Bearer header for scripts, and refuses a tampered one', async () => {
    const { token } = (await (await login('ada', 's3cret-pass')).json()) as { token: string };
    const ok = await h.post(
      '/api/sql/query',
      { query: 'SELECT 1 AS x' },
      { authorization: `Bearer ${token}` },
    );
    expect(ok.body.data).toEqual([[1]]);
    const [payload, sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ u: 'ada', exp: 9999999999, jti: 'x' })).toString(
      'base64url',
    );
    for (const bad of [`${forged}.${sig}`, `${payload}.${sig.slice(0, -2)}xx`, 'garbage', '']) {
      const r = await h.post(
        '/api/sql/query',
        { query: 'SELECT 1' },
        { authorization: `Bearer ${bad}` },
      );
      expect(r.status).toBe(401);
    }
  });

  it('ends the session on logout', async () => {
    const r = await login('ada', 's3cret-pass');
    const cookie = (r.headers.get('set-cookie') ?? '').split(';')[0];
    const out = await h.post('/api/logout', {}, { cookie });
    expect(out.status).toBe(200);
    const after = await h.post('/api/sql/query', { query: 'SELECT 1' }, { cookie });
    expect(after.status).toBe(401);
  });

  it('validates the login body', async () => {
    const r = await h.post('/api/login', { username: 'ada' });
    expect(r.status).toBe(400);
    expect(r.body.error_message).toMatch(/password/);
  });

  it('rate-limits login attempts per client and answers 429 with when to retry', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await login('ada', 'wrong', '10.9.9.9')).status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    const limited = await login('ada', 's3cret-pass', '10.9.9.9');
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { error_message: string }).error_message).toMatch(
      /Too many login attempts; try again in \d+ s/,
    );
  });
});

describe('sandbox when auth is on', () => {
  let s: Harness;
  let cookie = '';
  beforeAll(async () => {
    s = await startHarness({ AUTH_USERNAME: 'ada', AUTH_PASSWORD: 's3cret-pass' });
    const r = await fetch(`${s.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ada', password: 's3cret-pass' }),
    });
    cookie = (r.headers.get('set-cookie') ?? '').split(';')[0];
  });
  afterAll(async () => {
    await s.close();
  });
  const cases = [
    ["SELECT * FROM read_csv('/etc/passwd')", /Permission Error/],
    ["COPY (SELECT 1) TO '/tmp/escape.csv'", /may write only inside .*exports/],
    // Refused before DuckDB sees them (statements with instance-wide effects), same code 10.
    ["ATTACH '/tmp/other.duckdb' AS other", /ATTACH is not allowed/],
    ['INSTALL httpfs', /INSTALL and LOAD/],
    ['SET enable_external_access = true', /SET\/RESET would change engine settings/],
  ] as const;
  for (const [sql, re] of cases) {
    it(`refuses ${sql.split(' ').slice(0, 3).join(' ')}`, async () => {
      const r = await s.post('/api/sql/query', { query: sql }, { cookie });
      expect(r.body.type).toBe('error');
      expect(r.body.error_code).toBe(10);
      expect(r.body.error_message).toMatch(re);
    });
  }

  it('still allows files inside DATA_DIR/exports', async () => {
    const file = `${s.dataDir}/exports/inside.csv`;
    const w = await s.post(
      '/api/sql/query',
      { query: `COPY (SELECT 1 AS a) TO '${file}'` },
      { cookie },
    );
    expect(w.body.type).toBe('ok');
    const r = await s.post(
      '/api/sql/query',
      { query: `SELECT a FROM read_csv('${file}')` },
      { cookie },
    );
    expect(r.body.data).toEqual([[1]]);
  });
});

describe('exposure', () => {
  it('refuses a non-loopback bind without auth, with a clear reason', () => {
    expect(exposureProblem(loadConfig({ HOST: '0.0.0.0' }))).toMatch(
      /Refusing to listen on 0.0.0.0 without authentication/,
    );
    expect(
      exposureProblem(loadConfig({ HOST: '0.0.0.0', AUTH_USERNAME: 'a', AUTH_PASSWORD: 'b' })),
    ).toBeNull();
    expect(
      exposureProblem(loadConfig({ HOST: '0.0.0.0', ALLOW_UNAUTHENTICATED_REMOTE: '1' })),
    ).toBeNull();
    expect(exposureProblem(loadConfig({ HOST: '127.0.0.1' }))).toBeNull();
    expect(exposureProblem(loadConfig({ AUTH_USERNAME: 'a' }))).toMatch(
      /Set both AUTH_USERNAME and AUTH_PASSWORD/,
    );
  });

  it('sends no permissive CORS headers', async () => {
    const r = await fetch(`${h.url}/api/status`, { headers: { origin: 'https://evil.example' } });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });
});
