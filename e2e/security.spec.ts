/**
 * The browser as the attacker (issue 12, class 2): a page on another origin that the user happens
 * to visit tries to make the instance run SQL, directly on 127.0.0.1 and through the playground's
 * proxy, with every request a page can send without the user's help (a no-cors fetch, a CORS
 * fetch, an HTML form posting text/plain); and a DNS-rebinding page whose name resolves to
 * 127.0.0.1. None of it may change anything. Real Chromium, a real instance, the real proxy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { chromiumPath } from '../playwright.config';

// rebind.test resolves to 127.0.0.1 in this browser, as an attacker's DNS would make it. And
// Chromium's own Private/Local Network Access checks are off: other browsers do not have them,
// so the instance must hold without them (the requests must reach it and be refused there).
test.use({
  launchOptions: {
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--host-resolver-rules=MAP rebind.test 127.0.0.1',
      '--disable-features=BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults,LocalNetworkAccessChecks',
    ],
  },
});

let instance: ChildProcess;
let instanceUrl = '';
let dataDir = '';
/** The instance's request log: proof the attacks reached it and how it answered them. */
let log = '';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smp-e2e-security-'));
  const port = await freePort();
  instanceUrl = `http://127.0.0.1:${port}`;
  instance = spawn(process.execPath, ['server/launch.mjs', 'server/main.ts'], {
    // Nothing here trains: no training worker warmed up (1.3-1.5 CPU-s a start).
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      TRAINING_WARMUP: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  instance.stdout!.on('data', (d) => (log += d));
  instance.stderr!.on('data', (d) => (log += d));
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${instanceUrl}/api/status`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the instance did not start');
});

test.afterAll(async () => {
  instance?.kill('SIGTERM');
  await new Promise((r) => instance?.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** What the attacker wants to run: it would leave a table behind. */
const attack = (n: number) =>
  JSON.stringify({ query: `CREATE TABLE mindsdb.pwned_${n} AS SELECT 1 AS x` });

/** Tables the attacks managed to create, asked the way a local script would (no Origin). */
async function pwned(base: string): Promise<unknown> {
  const r = await fetch(`${base}/api/sql/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: "SELECT count(*) FROM information_schema.tables WHERE table_name LIKE 'pwned%'",
    }),
  });
  return ((await r.json()) as { data: unknown }).data;
}

/** A page served from http://evil.test/ (Playwright answers for the name; requests are real). */
async function evilPage(page: Page) {
  await page.route('http://evil.test/', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>evil</title><p>hi' }),
  );
  await page.goto('http://evil.test/');
}

/** Every request a foreign page can send to `target` without the user's help. */
async function attackFrom(page: Page, target: string, first: number) {
  const outcomes = await page.evaluate(
    async ({ url, bodies }) => {
      const out: string[] = [];
      // 1. A "simple" request: no preflight, the response is opaque but the request goes out.
      try {
        await fetch(url, {
          method: 'POST',
          mode: 'no-cors',
          headers: { 'content-type': 'text/plain' },
          body: bodies[0],
        });
        out.push('no-cors sent');
      } catch {
        out.push('no-cors failed');
      }
      // 2. A JSON request: needs a CORS preflight, which the instance does not grant.
      try {
        const r = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: bodies[1],
        });
        out.push(`cors ${r.status}`);
      } catch {
        out.push('cors blocked');
      }
      // 3. The classic JSON-over-form CSRF: a text/plain form whose body is valid JSON.
      const frame = document.createElement('iframe');
      frame.name = 'sink';
      document.body.append(frame);
      const form = document.createElement('form');
      form.method = 'POST';
      form.action = url;
      form.enctype = 'text/plain';
      form.target = 'sink';
      // text/plain sends `name=value`: name `{"query": "...", "pad": "` and value `"}` make JSON.
      const input = document.createElement('input');
      input.name = `${bodies[2].slice(0, -1)}, "pad": "`;
      input.value = '"}';
      form.append(input);
      document.body.append(form);
      await new Promise<void>((resolve) => {
        frame.onload = () => resolve();
        setTimeout(resolve, 5000);
        form.submit();
      });
      out.push('form sent');
      return out;
    },
    {
      url: `${target}/api/sql/query`,
      bodies: [attack(first), attack(first + 1), attack(first + 2)],
    },
  );
  expect(outcomes).toContain('cors blocked');
}

test('a page on another origin cannot make the instance run SQL, directly or through the proxy', async ({
  page,
  baseURL,
}) => {
  await evilPage(page);
  await attackFrom(page, instanceUrl, 1);
  await attackFrom(page, baseURL!, 10);
  // The no-cors fetch and the form reached the instance and were refused (403: foreign Origin).
  const refused = log.match(/ POST \/api\/sql\/query 403 /g) ?? [];
  expect(refused.length).toBeGreaterThanOrEqual(2);
  expect(log).not.toMatch(/ POST \/api\/sql\/query 200 /);
  expect(await pwned(instanceUrl)).toEqual([[0]]);
  expect(await pwned(baseURL!)).toEqual([[0]]);

  // The playground itself, same-origin through the proxy, still works.
  await page.goto(baseURL!);
  const own = await page.evaluate(async () => {
    const r = await fetch('/api/sql/query', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'SELECT 40 + 2 AS x' }),
    });
    return { status: r.status, body: await r.json() };
  });
  expect(own.status).toBe(200);
  expect(own.body.data).toEqual([[42]]);
});

test.describe('DNS rebinding', () => {
  test('a page whose name now points at 127.0.0.1 is refused by the instance and the proxy', async ({
    page,
    baseURL,
  }) => {
    for (const base of [instanceUrl, baseURL!]) {
      const port = new URL(base).port;
      const origin = `http://rebind.test:${port}`;
      // The attacker's page, loaded while the name still pointed at the attacker.
      await page.route(`${origin}/`, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<!doctype html><p>rebound' }),
      );
      await page.goto(`${origin}/`);
      // Same-origin now, so the page could read the answers, if there were any to read.
      const res = await page.evaluate(async (body) => {
        const q = await fetch('/api/sql/query', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const s = await fetch('/api/status');
        return { sql: q.status, status: s.status, text: await s.text() };
      }, attack(20));
      expect(res.sql, base).not.toBe(200);
      expect(res.status, base).not.toBe(200);
      expect(res.text).not.toContain('"version"');
    }
    expect(await pwned(instanceUrl)).toEqual([[0]]);
    expect(await pwned(baseURL!)).toEqual([[0]]);
  });
});

/**
 * Issue 22, item 1: a shared link (`#sql=...&run=1`) that any page can open in the user's
 * browser. The playground sends the request itself, so no Origin check stops it: only the
 * instance's judgement of what the SQL does (POST /api/sql/classify) decides whether it runs on
 * open. Each attack hides a change behind spellings a text scanner misreads.
 */
test.describe('shared links', () => {
  const table = 'precious_links';
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
  const rows = async (request: import('@playwright/test').APIRequestContext) =>
    (
      await (
        await request.post('/api/sql/query', {
          data: { query: `SELECT count(*), sum(i) FROM mindsdb.${table}` },
        })
      ).json()
    ).data;

  test.beforeAll(async ({ request }) => {
    const r = await request.post('/api/sql/query', {
      data: {
        query: `CREATE OR REPLACE TABLE mindsdb.${table} AS SELECT range AS i FROM range(5)`,
      },
    });
    expect((await r.json()).type).toBe('ok');
  });

  const ATTACKS: { sql: string; says: RegExp }[] = [
    {
      sql: `WITH a AS (SELECT E'\\'' AS q) DELETE FROM mindsdb.${table}`,
      says: /Changes data · DELETE/,
    },
    {
      sql: `WITH a AS (SELECT E'\\'' AS q) UPDATE mindsdb.${table} SET i = 100`,
      says: /Changes data · UPDATE/,
    },
    {
      sql: `WITH a AS (SELECT $$'$$ AS q) INSERT INTO mindsdb.${table} SELECT 7`,
      says: /Changes data · INSERT/,
    },
    {
      sql: `EXPLAIN ANALYZE WITH a AS (SELECT E'\\'' AS q) DELETE FROM mindsdb.${table}`,
      says: /Changes data · EXPLAIN DELETE/,
    },
    {
      sql: `SELECT $q$ ' $q$ AS x; /* ' */ DELETE FROM mindsdb.${table}`,
      says: /Changes data · DELETE/,
    },
    { sql: `-- SELECT\nDELETE FROM mindsdb.${table} -- '`, says: /Changes data · DELETE/ },
    {
      sql: `SELECT json_structure(repeat('[', 100000) || repeat(']', 100000))`,
      says: /json_structure\(\) can crash the engine/,
    },
  ];

  for (const { sql, says } of ATTACKS) {
    test(`a link to ${JSON.stringify(sql.slice(0, 60))} asks and changes nothing`, async ({
      page,
      request,
    }) => {
      await page.goto(`/#sql=${b64(sql)}&db=mindsdb&run=1`);
      const confirm = page.getByRole('alertdialog', { name: 'Run the shared SQL?' });
      await expect(confirm).toBeVisible();
      await expect(confirm.getByRole('list', { name: 'Statements that would run' })).toContainText(
        says,
      );
      await expect(confirm.getByRole('button', { name: 'Don’t run' })).toBeFocused();
      expect(await rows(request)).toEqual([[5, 10]]);
      await confirm.getByRole('button', { name: 'Don’t run' }).click();
      await expect(confirm).toBeHidden();
      expect(await rows(request)).toEqual([[5, 10]]);
      const status = await (await request.get('/api/status')).json();
      expect(status.version).toBeTruthy();
    });
  }

  test('a link to a plain SELECT still runs at once', async ({ page }) => {
    await page.goto(`/#sql=${b64(`SELECT count(*) AS n FROM mindsdb.${table}`)}&db=mindsdb&run=1`);
    await expect(page.getByRole('status', { name: 'Result status' })).toContainText(
      '1 row · 1 column',
    );
    await expect(page.getByRole('alertdialog', { name: 'Run the shared SQL?' })).toHaveCount(0);
  });

  test("the instance judges only the tour's training step a change", async ({ request }) => {
    const { TOUR_STEPS } = await import('../src/app/tour');
    for (const step of TOUR_STEPS) {
      if (step.action.kind !== 'sql') continue;
      const r = await request.post('/api/sql/classify', { data: { query: step.action.sql } });
      const verdict = await r.json();
      const writes = verdict.statements.some((s: { effect: string }) =>
        ['write', 'unknown'].includes(s.effect),
      );
      expect(writes, step.id).toBe(step.id === 'train');
    }
  });
});

test.describe('heavy queries', () => {
  test('a query waiting for an engine connection shows its place in line', async ({
    page,
    request,
    baseURL,
  }) => {
    const heavy = 'SELECT count(*) FROM range(10000000000) AS a WHERE a.range % 7 = 3';
    const engine = async () => (await (await request.get('/api/status')).json()).engine;
    const { limit } = await engine();
    // Every connection held, and one more heavy query in line before the user's.
    const ac = new AbortController();
    const held = Array.from({ length: limit + 1 }, () =>
      fetch(`${baseURL}/api/sql/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: heavy }),
        signal: ac.signal,
      }).catch(() => undefined),
    );
    try {
      await expect.poll(async () => (await engine()).waiting).toBe(1);
      await page.goto(`/#sql=${Buffer.from(heavy).toString('base64url')}&db=mindsdb&run=1`);
      await page
        .getByRole('alertdialog', { name: 'Run the shared SQL?' })
        .getByRole('button', { name: 'Run it' })
        .click();
      await expect(
        page.getByRole('status').filter({ hasText: 'Waiting: 2nd in line' }),
      ).toBeVisible();
      expect((await engine()).queue).toEqual([
        expect.objectContaining({ position: 2, short: false, query_id: expect.any(String) }),
      ]);
      // Cancelling leaves the line at once.
      await page.getByRole('button', { name: 'Cancel', exact: true }).click();
      await expect.poll(async () => (await engine()).queue).toEqual([]);
    } finally {
      ac.abort();
      await Promise.all(held);
    }
    await expect.poll(async () => (await engine()).active).toBe(0);
  });
});
