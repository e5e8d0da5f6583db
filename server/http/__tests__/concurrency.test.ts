/**
 * 50 clients at once mixing SQL queries, SQL and REST predictions and describes while two models
 * train in the background: every answer must be the answer the same request gets on a quiet
 * instance (models are deterministic), and the trainings must complete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, waitComplete, type Harness } from '../../test/harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ MAX_CONCURRENT_TRAININGS: 2 });
  await h.sql(
    'CREATE MODEL mindsdb.rentals FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price',
  );
  await waitComplete(h, 'rentals');
});
afterAll(async () => {
  await h.close();
});

describe('concurrency', () => {
  it('answers 50 concurrent clients correctly while two models train', async () => {
    const requests: { name: string; send: () => Promise<unknown> }[] = [
      {
        name: 'sql',
        send: async () =>
          (
            await h.sql(
              'SELECT location, count(*) FROM example_db.demo_data.home_rentals GROUP BY 1 ORDER BY 1',
            )
          ).data,
      },
      {
        name: 'sql-predict',
        send: async () =>
          (
            await h.sql(
              "SELECT rental_price, rental_price_min, rental_price_max FROM mindsdb.rentals WHERE sqft = 823 AND location = 'good' AND number_of_rooms = 2",
            )
          ).data,
      },
      {
        name: 'sql-join',
        send: async () =>
          (
            await h.sql(
              'SELECT t.sqft, m.rental_price FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.rentals AS m ORDER BY t.sqft LIMIT 20',
            )
          ).data,
      },
      {
        name: 'sql-describe',
        send: async () => (await h.sql('DESCRIBE mindsdb.rentals.features')).data,
      },
      {
        name: 'rest-predict',
        send: async () =>
          (
            await h.post('/api/projects/mindsdb/models/rentals/predict', [
              { sqft: 900, location: 'great', number_of_rooms: 1 },
              { sqft: 500, location: 'poor' },
            ])
          ).body,
      },
      {
        name: 'rest-describe',
        send: async () => (await h.get('/api/projects/mindsdb/models/rentals/describe')).body,
      },
    ];
    // The answers on a quiet instance.
    const expected = new Map<string, unknown>();
    for (const r of requests) expected.set(r.name, await r.send());
    for (const [name, v] of expected) expect(v, `${name} baseline`).toBeTruthy();

    await h.sql(
      'CREATE MODEL mindsdb.concrete FROM example_db (SELECT * FROM demo_data.concrete_strength) PREDICT concrete_strength',
    );
    await h.sql(
      'CREATE MODEL mindsdb.churn FROM example_db (SELECT * FROM demo_data.customer_churn) PREDICT Exited',
    );

    const mismatches: string[] = [];
    let answered = 0;
    await Promise.all(
      Array.from({ length: 50 }, async (_, client) => {
        for (let k = 0; k < 6; k++) {
          const r = requests[(client + k) % requests.length];
          const got = await r.send();
          answered++;
          if (JSON.stringify(got) !== JSON.stringify(expected.get(r.name))) {
            mismatches.push(`client ${client} ${r.name}: ${JSON.stringify(got).slice(0, 200)}`);
          }
        }
      }),
    );
    expect(mismatches).toEqual([]);
    expect(answered).toBe(300);
    await waitComplete(h, 'concrete');
    await waitComplete(h, 'churn');
    const acc = await h.sql(
      "SELECT name, accuracy FROM mindsdb.models WHERE name IN ('concrete', 'churn') ORDER BY name",
    );
    expect(acc.data[0][1]).toBeGreaterThan(0.7);
    expect(acc.data[1][1]).toBeGreaterThan(0.85);
  });
});
