/**
 * Fuzzing the statement layer and the SQL endpoint: thousands of generated statements — model
 * statements cut short, stray quotes, unbalanced parentheses, random keywords — must each come
 * back as a table, ok or a 4xx-class error, never an internal error, a thrown exception or a hang.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ ...trainingCache(), STATEMENT_TIMEOUT_MS: 2000, MAX_RESULT_ROWS: 500 });
});
afterAll(async () => {
  await h.close();
});

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FRAGMENTS = [
  'SELECT',
  'FROM',
  'WHERE',
  'JOIN',
  'AS',
  'ON',
  'AND',
  'OR',
  'LIMIT',
  'ORDER BY',
  'GROUP BY',
  '*',
  ',',
  '.',
  '(',
  ')',
  ';',
  '=',
  '1',
  '2.5',
  '-3',
  "'x'",
  "'it''s'",
  '"q"',
  '`b`',
  '`',
  "'",
  '"',
  ':p',
  '::INT',
  '--c\n',
  '/*',
  '*/',
  'NULL',
  'TRUE',
  'CREATE',
  'MODEL',
  'PREDICTOR',
  'PREDICT',
  'USING',
  'RETRAIN',
  'FINETUNE',
  'DESCRIBE',
  'DROP',
  'SHOW',
  'FULL',
  'TABLES',
  'DATABASES',
  'MODELS',
  'PROJECTS',
  'PROJECT',
  'DATABASE',
  'USE',
  'IF',
  'NOT',
  'EXISTS',
  'OR REPLACE',
  'ENGINE',
  'PARAMETERS',
  'mindsdb',
  'example_db',
  'demo_data',
  'home_rentals',
  'mindsdb.models',
  'information_schema',
  'm',
  'p',
  'x',
  'sqft',
  'rental_price',
  'mindsdb.home_rentals_model',
  'mindsdb.m.2',
  'features',
  'info',
  'model',
  'progress',
  '{',
  '}',
  '[',
  ']',
  'example_db.demo_data.home_rentals',
  'range(3)',
  'LIKE',
  "'%a%'",
  'VALUES',
  'INSERT INTO',
  'TABLE',
  'SET',
  'ACTIVE',
];

const TEMPLATES = [
  'CREATE MODEL mindsdb.fz FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price',
  'SELECT rental_price FROM mindsdb.home_rentals_model WHERE sqft = 823 AND location = "good"',
  'SELECT t.sqft, m.rental_price FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.home_rentals_model AS m LIMIT 5',
  'DESCRIBE mindsdb.home_rentals_model.features',
  "SHOW FULL TABLES FROM example_db LIKE '%rent%'",
  "SELECT * FROM mindsdb.models WHERE name = 'x' AND active = 1",
  'RETRAIN mindsdb.home_rentals_model USING max_iterations = 5',
  'DROP MODEL IF EXISTS mindsdb.nope',
];

function generate(rand: () => number): string {
  const r = rand();
  if (r < 0.4) {
    // A real statement, cut, spliced or with one fragment inserted.
    const t = TEMPLATES[Math.floor(rand() * TEMPLATES.length)];
    const cut = Math.floor(rand() * (t.length + 1));
    const frag = FRAGMENTS[Math.floor(rand() * FRAGMENTS.length)];
    return rand() < 0.5 ? t.slice(0, cut) : `${t.slice(0, cut)} ${frag} ${t.slice(cut)}`;
  }
  const n = 1 + Math.floor(rand() * 14);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(FRAGMENTS[Math.floor(rand() * FRAGMENTS.length)]);
  return parts.join(rand() < 0.8 ? ' ' : '');
}

describe('fuzzing the statement layer', () => {
  it('answers 3000 generated statements without an internal error or exception', async () => {
    const rand = prng(20261121);
    const kinds: Record<string, number> = {};
    for (let i = 0; i < 3000; i++) {
      const q = generate(rand);
      let r;
      try {
        r = await h.instance.sql.execute({ query: q, params: { p: 1 } });
      } catch (err) {
        throw new Error(`execute threw for ${JSON.stringify(q)}`, { cause: err });
      }
      if (r.type === 'error' && r.error_code === 99)
        throw new Error(`internal error for ${JSON.stringify(q)}: ${r.error_message}`);
      expect(['table', 'ok', 'error']).toContain(r.type);
      kinds[r.type] = (kinds[r.type] ?? 0) + 1;
    }
    // The generator must exercise both paths, or this test proves nothing.
    expect(kinds.error).toBeGreaterThan(500);
    expect((kinds.table ?? 0) + (kinds.ok ?? 0)).toBeGreaterThan(50);
  });

  it('answers 300 generated statements over HTTP with 200 and a well-formed body', async () => {
    const rand = prng(7);
    for (let i = 0; i < 300; i++) {
      const q = generate(rand);
      const r = await h.post('/api/sql/query', { query: q });
      // An empty query is an envelope error (400) by design; everything else the engine processes.
      const expected = q.trim() === '' ? 400 : 200;
      if (r.status !== expected)
        throw new Error(`HTTP ${r.status} for ${JSON.stringify(q)}: ${JSON.stringify(r.body)}`);
      expect(r.body.column_names).toBeInstanceOf(Array);
      expect(typeof r.body.context.db).toBe('string');
      if (r.body.type === 'error') expect(r.body.error_code).not.toBe(99);
    }
    expect((await h.sql('SELECT 1 AS alive')).data).toEqual([[1]]);
  });
});
