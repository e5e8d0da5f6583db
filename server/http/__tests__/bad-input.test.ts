/**
 * The bad-input catalogue: malformed requests across every endpoint, each answered with its
 * specific 4xx JSON error (status, code and a message naming the problem), and the instance
 * alive and unchanged after each one.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';

let h: Harness;
let auth: Harness;

/** A model's status once training is over (waits on the trainer, not on a clock). */
async function statusAfterTraining(name: string) {
  await h.instance.models.idle();
  const r = await h.sql(`SELECT status FROM mindsdb.models WHERE name = '${name}'`);
  return r.data?.[0]?.[0];
}

beforeAll(async () => {
  h = await startHarness({
    ...trainingCache(),
    BODY_LIMIT_BYTES: 1024 * 1024,
    MAX_QUERY_CHARS: 100_000,
  });
  await h.sql('CREATE TABLE mindsdb.precious AS SELECT range AS i FROM range(10)');
  await h.sql(
    'CREATE MODEL mindsdb.good FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price',
  );
  // A model whose training fails: one row of data.
  await h.sql(
    'CREATE MODEL mindsdb.broken FROM example_db (SELECT * FROM demo_data.home_rentals LIMIT 1) PREDICT rental_price',
  );
  expect(await statusAfterTraining('good')).toBe('complete');
  expect(await statusAfterTraining('broken')).toBe('error');
  auth = await startHarness({
    ...trainingCache(),
    AUTH_USERNAME: 'ada',
    AUTH_PASSWORD: 'pw-123456',
    LOGIN_ATTEMPTS_PER_MINUTE: 1000,
  });
  // Bounded by the work (two trainings), whatever the machine's load.
}, 600_000);
afterAll(async () => {
  await h.close();
  await auth.close();
});

type Case = {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: string | Buffer;
  type?: string;
  headers?: Record<string, string>;
  status: number;
  code?: number;
  message: RegExp;
  on?: () => Harness;
};

const J = 'application/json';

/**
 * A raw HTTP request: the path goes out byte for byte (fetch would normalise `%2e%2e` away) and a
 * GET may carry a body (as curl sends describe's `{"attribute": ...}`).
 */
function raw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string | Buffer,
) {
  const u = new URL(base);
  return new Promise<{ status: number; type: string; text: string; nosniff: boolean }>(
    (resolve, reject) => {
      const h =
        body === undefined
          ? headers
          : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
      const req = http.request(
        { host: u.hostname, port: u.port, method, path, headers: h },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              type: String(res.headers['content-type'] ?? ''),
              text: Buffer.concat(chunks).toString('utf8'),
              nosniff: res.headers['x-content-type-options'] === 'nosniff',
            }),
          );
        },
      );
      req.on('error', reject);
      if (body !== undefined) req.end(body);
      else req.end();
    },
  );
}
const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const P = '/api/projects/mindsdb/models';
const badUtf8 = Buffer.concat([
  Buffer.from('{"query": "SELECT \''),
  Buffer.from([0xff, 0xfe, 0xc3]),
  Buffer.from('\'"}'),
]);

const cases: Case[] = [
  // POST /api/sql/query
  {
    name: 'sql: body not JSON',
    method: 'POST',
    path: '/api/sql/query',
    body: '{"query": ',
    status: 400,
    code: 3,
    message: /not valid JSON/,
  },
  {
    name: 'sql: body a JSON array',
    method: 'POST',
    path: '/api/sql/query',
    body: '["SELECT 1"]',
    status: 400,
    code: 3,
    message: /must be a JSON object, got an array/,
  },
  {
    name: 'sql: body JSON null',
    method: 'POST',
    path: '/api/sql/query',
    body: 'null',
    status: 400,
    code: 3,
    message: /got null/,
  },
  {
    name: 'sql: body a JSON string',
    method: 'POST',
    path: '/api/sql/query',
    body: '"SELECT 1"',
    status: 400,
    code: 3,
    message: /got string/,
  },
  {
    name: 'sql: body a number',
    method: 'POST',
    path: '/api/sql/query',
    body: '42',
    status: 400,
    code: 3,
    message: /got number/,
  },
  {
    name: 'sql: empty body',
    method: 'POST',
    path: '/api/sql/query',
    body: '',
    status: 400,
    code: 3,
    message: /empty/,
  },
  {
    name: 'sql: query missing',
    method: 'POST',
    path: '/api/sql/query',
    body: '{}',
    status: 400,
    code: 3,
    message: /^query is required$/,
  },
  {
    name: 'sql: query a number',
    method: 'POST',
    path: '/api/sql/query',
    body: '{"query": 1}',
    status: 400,
    code: 3,
    message: /^query must be a string$/,
  },
  {
    name: 'sql: query an object',
    method: 'POST',
    path: '/api/sql/query',
    body: '{"query": {"sql": "SELECT 1"}}',
    status: 400,
    code: 3,
    message: /^query must be a string$/,
  },
  {
    name: 'sql: query empty',
    method: 'POST',
    path: '/api/sql/query',
    body: '{"query": ""}',
    status: 400,
    code: 3,
    message: /must not be empty/,
  },
  {
    name: 'sql: query whitespace',
    method: 'POST',
    path: '/api/sql/query',
    body: '{"query": " \\n\\t "}',
    status: 400,
    code: 3,
    message: /must not be empty/,
  },
  {
    name: 'sql: context a string',
    method: 'POST',
    path: '/api/sql/query',
    body: '{"query": "SELECT 1", "context": "mindsdb"}',
    status: 400,
    code: 3,
    message: /context/,
  },
  {
    name: 'sql: context.db a number',
    method: 'POST',
    path: '/api/sql/query',
    body: '{"query": "SELECT 1", "context": {"db": 1}}',
    status: 400,
    code: 3,
    message: /context.db must be a string/,
  },
  {
    name: 'sql: params an array',
    method: 'POST',
    path: '/api/sql/query',
    body: '{"query": "SELECT 1", "params": [1]}',
    status: 400,
    code: 3,
    message: /params must be an object/,
  },
  {
    name: 'sql: unknown response_format',
    method: 'POST',
    path: '/api/sql/query',
    body: '{"query": "SELECT 1", "response_format": "xml"}',
    status: 400,
    code: 3,
    message: /response_format/,
  },
  {
    name: 'sql: query over the length limit',
    method: 'POST',
    path: '/api/sql/query',
    body: JSON.stringify({ query: `SELECT '${'x'.repeat(200_000)}'` }),
    status: 413,
    code: 6,
    message: /limit is 100000/,
  },
  {
    name: 'sql: body over the size limit',
    method: 'POST',
    path: '/api/sql/query',
    body: JSON.stringify({ query: `SELECT '${'x'.repeat(2 * 1024 * 1024)}'` }),
    status: 413,
    code: 6,
    message: /larger than the limit/,
  },
  {
    name: 'sql: XML content type',
    method: 'POST',
    path: '/api/sql/query',
    body: '<query/>',
    type: 'application/xml',
    status: 415,
    code: 3,
    message: /Content-Type/,
  },
  {
    name: 'sql: invalid UTF-8',
    method: 'POST',
    path: '/api/sql/query',
    body: badUtf8,
    status: 400,
    code: 3,
    message: /not valid UTF-8/,
  },
  {
    name: 'sql: JSON nested 100k deep in query',
    method: 'POST',
    path: '/api/sql/query',
    body: `{"query": ${deep(100_000)}}`,
    status: 400,
    code: 3,
    message: /deeper than 64 levels/,
  },
  {
    name: 'sql: JSON nested deep in context',
    method: 'POST',
    path: '/api/sql/query',
    body: `{"query": "SELECT 1", "context": {"x": ${deep(5000)}}}`,
    status: 400,
    code: 3,
    message: /deeper than 64 levels/,
  },
  {
    name: 'sql: prototype poisoning',
    method: 'POST',
    path: '/api/sql/query',
    body: '{"query": "SELECT 1", "__proto__": {"x": 1}}',
    status: 400,
    code: 3,
    message: /not valid JSON/,
  },
  {
    name: 'sql: GET instead of POST',
    method: 'GET',
    path: '/api/sql/query',
    status: 404,
    code: 2,
    message: /No route GET \/api\/sql\/query/,
  },
  // POST .../predict
  {
    name: 'predict: unknown project',
    method: 'POST',
    path: '/api/projects/nope/models/good/predict',
    body: '[{"sqft": 1}]',
    status: 404,
    code: 2,
    message: /nope/,
  },
  {
    name: 'predict: unknown model',
    method: 'POST',
    path: `${P}/nope/predict`,
    body: '[{"sqft": 1}]',
    status: 404,
    code: 2,
    message: /nope/,
  },
  {
    name: 'predict: unknown version',
    method: 'POST',
    path: `${P}/good.99/predict`,
    body: '[{"sqft": 1}]',
    status: 404,
    code: 2,
    message: /version 99|99/,
  },
  {
    name: 'predict: SQL in the model name',
    method: 'POST',
    path: `${P}/${encodeURIComponent("good'; DROP TABLE mindsdb.precious; --")}/predict`,
    body: '[{"sqft": 1}]',
    status: 404,
    code: 2,
    message: /not|does not exist|Unknown|no model/i,
  },
  {
    name: 'predict: body not JSON',
    method: 'POST',
    path: `${P}/good/predict`,
    body: '[{"sqft": ',
    status: 400,
    code: 3,
    message: /not valid JSON/,
  },
  {
    name: 'predict: array of numbers',
    method: 'POST',
    path: `${P}/good/predict`,
    body: '[1, 2]',
    status: 400,
    code: 3,
    message: /row 1 is a number/,
  },
  {
    name: 'predict: array of arrays',
    method: 'POST',
    path: `${P}/good/predict`,
    body: '[[823, "good"]]',
    status: 400,
    code: 3,
    message: /row 1 is an array/,
  },
  {
    name: 'predict: second row a string',
    method: 'POST',
    path: `${P}/good/predict`,
    body: '[{"sqft": 1}, "x"]',
    status: 400,
    code: 3,
    message: /row 2 is a string/,
  },
  {
    name: 'predict: data of the wrong type',
    method: 'POST',
    path: `${P}/good/predict`,
    body: '{"data": 5}',
    status: 400,
    code: 3,
    message: /data/,
  },
  {
    name: 'predict: data a string that is not JSON',
    method: 'POST',
    path: `${P}/good/predict`,
    body: '{"data": "[{"}',
    status: 400,
    code: 3,
    message: /data/,
  },
  {
    name: 'predict: object without data',
    method: 'POST',
    path: `${P}/good/predict`,
    body: '{"rows": []}',
    status: 400,
    code: 3,
    message: /data/,
  },
  {
    name: 'predict: uncastable value',
    method: 'POST',
    path: `${P}/good/predict`,
    body: '[{"sqft": 800}, {"sqft": "big"}]',
    status: 400,
    code: 3,
    message: /sqft.*row 2|row 2.*sqft/,
  },
  {
    name: 'predict: unknown column',
    method: 'POST',
    path: `${P}/good/predict`,
    body: '[{"sqfeet": 800}]',
    status: 400,
    code: 3,
    message: /sqfeet/,
  },
  {
    name: 'predict: model in error',
    method: 'POST',
    path: `${P}/broken/predict`,
    body: '[{"sqft": 800}]',
    status: 409,
    code: 4,
    message: /error/,
  },
  {
    name: 'predict: XML content type',
    method: 'POST',
    path: `${P}/good/predict`,
    body: '<row/>',
    type: 'application/xml',
    status: 415,
    code: 3,
    message: /Content-Type/,
  },
  {
    name: 'predict: body over the size limit',
    method: 'POST',
    path: `${P}/good/predict`,
    body: JSON.stringify([{ location: 'x'.repeat(2 * 1024 * 1024) }]),
    status: 413,
    code: 6,
    message: /limit/,
  },
  {
    name: 'predict: nested too deep',
    method: 'POST',
    path: `${P}/good/predict`,
    body: `[{"sqft": ${deep(200)}}]`,
    status: 400,
    code: 3,
    message: /deeper than 64 levels/,
  },
  {
    name: 'predict: a number beyond a 64-bit float (1e999)',
    method: 'POST',
    path: `${P}/good/predict`,
    body: '[{"sqft": 800}, {"sqft": 1e999, "location": "good"}]',
    status: 400,
    code: 3,
    message: /number at \[1\]\.sqft is too large for a 64-bit float/,
  },
  {
    name: 'predict: -1e999 in the envelope form',
    method: 'POST',
    path: `${P}/good/predict`,
    body: '{"data": [{"sqft": -1e999}]}',
    status: 400,
    code: 3,
    message: /number at data\[0\]\.sqft is too large/,
  },
  {
    name: 'predict: prototype poisoning in the second row',
    method: 'POST',
    path: `${P}/good/predict`,
    body: '[{"sqft": 800}, {"sqft": 900, "__proto__": {"location": "good"}}]',
    status: 400,
    code: 3,
    message: /not valid JSON/,
  },
  {
    name: 'predict: constructor.prototype poisoning in a row',
    method: 'POST',
    path: `${P}/good/predict`,
    body: '[{"sqft": 800, "constructor": {"prototype": {"x": 1}}}]',
    status: 400,
    code: 3,
    message: /not valid JSON/,
  },
  // GET .../describe
  {
    name: 'describe: unknown attribute in the query string',
    method: 'GET',
    path: `${P}/good/describe?attribute=bogus`,
    status: 400,
    code: 3,
    message: /info, features, model, progress/,
  },
  {
    name: 'describe: unknown attribute in the body',
    method: 'GET',
    path: `${P}/good/describe`,
    body: '{"attribute": "nope"}',
    status: 400,
    code: 3,
    message: /allowed/,
  },
  {
    name: 'describe: attribute not a string',
    method: 'GET',
    path: `${P}/good/describe`,
    body: '{"attribute": 5}',
    status: 400,
    code: 3,
    message: /attribute/,
  },
  {
    name: 'describe: body not JSON',
    method: 'GET',
    path: `${P}/good/describe`,
    body: '{"attribute": ',
    status: 400,
    code: 3,
    message: /JSON/,
  },
  {
    name: 'describe: unknown model',
    method: 'GET',
    path: `${P}/nope/describe`,
    status: 404,
    code: 2,
    message: /nope/,
  },
  {
    name: 'describe: model in error',
    method: 'GET',
    path: `${P}/broken/describe`,
    status: 409,
    code: 4,
    message: /error/,
  },
  // projects and models
  {
    name: 'projects: unknown project',
    method: 'GET',
    path: '/api/projects/nope',
    status: 404,
    code: 2,
    message: /nope/,
  },
  {
    name: 'projects: models of an unknown project',
    method: 'GET',
    path: '/api/projects/nope/models',
    status: 404,
    code: 2,
    message: /nope/,
  },
  {
    name: 'projects: unknown model',
    method: 'GET',
    path: `${P}/nope`,
    status: 404,
    code: 2,
    message: /nope/,
  },
  {
    name: 'projects: delete an unknown model',
    method: 'DELETE',
    path: `${P}/nope`,
    status: 404,
    code: 2,
    message: /nope/,
  },
  {
    name: 'projects: path traversal in the project',
    method: 'GET',
    path: '/api/projects/..%2F..%2Fetc%2Fpasswd/models',
    status: 404,
    code: 2,
    message: /does not exist|not found|No route/i,
  },
  {
    name: 'projects: SQL in the project name',
    method: 'GET',
    path: `/api/projects/${encodeURIComponent("mindsdb' OR '1'='1")}/models`,
    status: 404,
    code: 2,
    message: /does not exist/,
  },
  // files
  {
    name: 'files: traversal with ../',
    method: 'PUT',
    path: '/api/files/..%2Fescape',
    body: 'a,b\n1,2\n',
    type: 'text/csv',
    status: 400,
    code: 3,
    message: /name/i,
  },
  {
    name: 'files: a slash in the name',
    method: 'PUT',
    path: '/api/files/a%2Fb',
    body: 'a,b\n1,2\n',
    type: 'text/csv',
    status: 400,
    code: 3,
    message: /name/i,
  },
  {
    name: 'files: dot-dot encoded',
    method: 'PUT',
    path: '/api/files/%2e%2e',
    body: 'a,b\n1,2\n',
    type: 'text/csv',
    status: 400,
    code: 3,
    message: /name/i,
  },
  {
    name: 'files: double-encoded dot-dot',
    method: 'PUT',
    path: '/api/files/%252e%252e',
    body: 'a,b\n1,2\n',
    type: 'text/csv',
    status: 400,
    code: 3,
    message: /name/i,
  },
  {
    name: 'files: a space in the name',
    method: 'PUT',
    path: '/api/files/my%20file',
    body: 'a,b\n1,2\n',
    type: 'text/csv',
    status: 400,
    code: 3,
    message: /name/i,
  },
  {
    name: 'files: binary garbage',
    method: 'PUT',
    path: '/api/files/garbage',
    body: Buffer.from([0, 1, 2, 255, 254, 0, 0, 7, 8, 9, 0, 0]),
    type: 'application/octet-stream',
    status: 400,
    code: 3,
    message: /./,
  },
  {
    name: 'files: empty file',
    method: 'PUT',
    path: '/api/files/empty',
    body: '',
    type: 'text/csv',
    status: 400,
    code: 3,
    message: /empty/i,
  },
  {
    name: 'files: multipart without a boundary',
    method: 'PUT',
    path: '/api/files/mp',
    body: 'a,b\n1,2\n',
    type: 'multipart/form-data',
    status: 400,
    code: 3,
    message: /multipart body is malformed: .*[Bb]oundary/,
  },
  {
    name: 'sql: 1e999 in params',
    method: 'POST',
    path: '/api/sql/query',
    body: '{"query": "SELECT :x AS x", "params": {"x": 1e999}}',
    status: 400,
    code: 3,
    message: /number at params\.x is too large/,
  },
  {
    name: 'files: delete an unknown file',
    method: 'DELETE',
    path: '/api/files/nope',
    status: 404,
    code: 2,
    message: /nope/,
  },
  // the front door: what a page on another origin or a rebound name can send
  {
    name: 'sql: text/plain body (a cross-site form)',
    method: 'POST',
    path: '/api/sql/query',
    body: '{"query": "DROP TABLE mindsdb.precious"}',
    type: 'text/plain',
    status: 415,
    code: 3,
    message: /application\/json/,
  },
  {
    name: 'sql: form-encoded body',
    method: 'POST',
    path: '/api/sql/query',
    body: '{"query": "DROP TABLE mindsdb.precious"}',
    type: 'application/x-www-form-urlencoded',
    status: 415,
    code: 3,
    message: /application\/json/,
  },
  {
    name: 'sql: a foreign Origin',
    method: 'POST',
    path: '/api/sql/query',
    body: '{"query": "DROP TABLE mindsdb.precious"}',
    headers: { origin: 'http://evil.example' },
    status: 403,
    code: 10,
    message: /origin 'http:\/\/evil.example' are not allowed/,
  },
  {
    name: 'sql: a foreign Host (DNS rebinding)',
    method: 'POST',
    path: '/api/sql/query',
    body: '{"query": "DROP TABLE mindsdb.precious"}',
    headers: { host: 'rebound.example:47334' },
    status: 421,
    code: 10,
    message: /does not answer to host 'rebound.example:47334'/,
  },
  {
    name: 'files: text/plain upload',
    method: 'PUT',
    path: '/api/files/plain',
    body: 'a,b\n1,2\n',
    type: 'text/plain',
    status: 415,
    code: 3,
    message: /multipart\/form-data/,
  },
  {
    name: 'a malformed percent-escape in the path',
    method: 'GET',
    path: '/api/projects/%zz/models',
    status: 400,
    code: 3,
    message: /malformed percent-escape/,
  },
  {
    name: 'a path segment over 500 characters',
    method: 'GET',
    path: `/api/projects/${'p'.repeat(501)}`,
    status: 414,
    code: 6,
    message: /longer than the limit \(500 characters\)/,
  },
  // routes, status
  {
    name: 'status: POST',
    method: 'POST',
    path: '/api/status',
    body: '{}',
    status: 404,
    code: 2,
    message: /No route POST/,
  },
  {
    name: 'unknown API route',
    method: 'GET',
    path: '/api/nothing/here',
    status: 404,
    code: 2,
    message: /No route GET \/api\/nothing\/here/,
  },
  {
    name: 'openapi: POST',
    method: 'POST',
    path: '/api/openapi.json',
    body: '{}',
    status: 404,
    code: 2,
    message: /No route/,
  },
  // authentication (an instance with auth on)
  {
    name: 'auth: SQL without a session',
    method: 'POST',
    path: '/api/sql/query',
    body: '{"query": "SELECT 1"}',
    status: 401,
    code: 8,
    message: /Authentication required/,
    on: () => auth,
  },
  {
    name: 'auth: predict without a session',
    method: 'POST',
    path: `${P}/good/predict`,
    body: '[]',
    status: 401,
    code: 8,
    message: /Authentication required/,
    on: () => auth,
  },
  {
    name: 'auth: a forged bearer token',
    method: 'POST',
    path: '/api/sql/query',
    body: '{"query": "SELECT 1"}',
    headers: { authorization: 'Bearer eyJ1IjoiYWRhIn0.forged' },
    status: 401,
    code: 8,
    message: /Authentication required/,
    on: () => auth,
  },
  {
    name: 'auth: a forged session cookie',
    method: 'GET',
    path: '/api/projects',
    headers: { cookie: 'session=abc.def' },
    status: 401,
    code: 8,
    message: /Authentication required/,
    on: () => auth,
  },
  {
    name: 'login: wrong password',
    method: 'POST',
    path: '/api/login',
    body: '{"username": "ada", "password": "nope"}',
    status: 401,
    code: 8,
    message: /^Wrong username or password$/,
    on: () => auth,
  },
  {
    name: 'login: password missing',
    method: 'POST',
    path: '/api/login',
    body: '{"username": "ada"}',
    status: 400,
    code: 3,
    message: /password/,
    on: () => auth,
  },
  {
    name: 'login: username a number',
    method: 'POST',
    path: '/api/login',
    body: '{"username": 1, "password": "x"}',
    status: 400,
    code: 3,
    message: /username must be a string/,
    on: () => auth,
  },
  {
    name: 'login: body not JSON',
    method: 'POST',
    path: '/api/login',
    body: 'username=ada',
    status: 400,
    code: 3,
    message: /not valid JSON/,
    on: () => auth,
  },
];

describe('bad-input catalogue', () => {
  it('covers at least 60 malformed requests', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  for (const c of cases) {
    it(`${c.name} -> ${c.status}`, async () => {
      const target = c.on?.() ?? h;
      const headers: Record<string, string> = { ...(c.headers ?? {}) };
      if (c.body !== undefined) headers['content-type'] = c.type ?? J;
      const res = await raw(target.url, c.method, c.path, headers, c.body);
      const text = res.text;
      expect(res.status, text.slice(0, 300)).toBe(c.status);
      const body = JSON.parse(text);
      // The SQL route answers in its envelope; every other route in problem details.
      if (body.type === 'error') expect(res.type).toMatch(/^application\/json/);
      else {
        expect(res.type).toMatch(/^application\/problem\+json/);
        expect(typeof body.title).toBe('string');
        expect(body.detail).toBe(body.error_message);
        // MindsDB's timestamp (str(datetime.now())).
        expect(body.timestamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/);
      }
      // An error body is never sniffed into something a browser would run.
      expect(res.nosniff).toBe(true);
      if (c.code !== undefined) expect(body.error_code).toBe(c.code);
      expect(body.error_message).toMatch(c.message);
      expect(text).not.toMatch(/at .*\.ts:\d+/); // no stack traces
      // Still serving, and nothing stored was lost.
      const alive = await h.sql('SELECT count(*) FROM mindsdb.precious');
      expect(alive.data).toEqual([[10]]);
    });
  }

  it('caps the connections one client holds: past MAX_CONNECTIONS_PER_CLIENT a 503, and it recovers', async () => {
    const capped = await startHarness({ ...trainingCache(), MAX_CONNECTIONS_PER_CLIENT: 20 });
    const u = new URL(capped.url);
    const open = (): Promise<net.Socket> =>
      new Promise((resolve, reject) => {
        const s = net.connect(Number(u.port), u.hostname, () => resolve(s));
        s.on('error', reject);
      });
    const held: net.Socket[] = [];
    try {
      // Half-open: connected, nothing sent.
      for (let i = 0; i < 20; i++) held.push(await open());
      const extra = await open();
      const reply = await new Promise<string>((resolve) => {
        let text = '';
        extra.on('data', (c) => (text += String(c)));
        extra.on('close', () => resolve(text));
      });
      expect(reply).toMatch(/^HTTP\/1\.1 503/);
      expect(reply).toMatch(/the limit is 20, MAX_CONNECTIONS_PER_CLIENT/);
      expect(reply).toMatch(/x-content-type-options: nosniff/i);
    } finally {
      for (const s of held) s.destroy();
    }
    // The held ones closed: the client is served again.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await capped.get('/api/status').catch(() => ({ status: 0 }))).status;
    }
    expect(status).toBe(200);
    await capped.close();
  });

  it('still predicts with the model after the whole catalogue', async () => {
    const r = await h.post(`${P}/good/predict`, [{ sqft: 823, location: 'good' }]);
    expect(r.status).toBe(200);
    expect(typeof r.body[0].rental_price).toBe('number');
  });
});
