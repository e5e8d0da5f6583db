import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { houseSalesCsv } from '../../../scripts/generate-house-sales';
import { DEMO_DIR, DEMO_TABLES } from '../demo-data';

describe('demo table house_sales', () => {
  it('is exactly what the seeded generator script writes', () => {
    expect(houseSalesCsv()).toBe(readFileSync(path.join(DEMO_DIR, 'house_sales.csv'), 'utf8'));
  });

  it('loads the generated CSV with a DATE saledate, seven (type, bedrooms) groups and quarter ends', async () => {
    const t = DEMO_TABLES.find((x) => x.name === 'house_sales')!;
    const db = await DuckDBInstance.create(':memory:');
    const conn = await db.connect();
    try {
      await conn.run(`CREATE TABLE house_sales AS ${t.sql}`);
      const types = await conn.runAndReadAll('DESCRIBE house_sales');
      expect(types.getRows().map((r) => [r[0], r[1]])).toEqual([
        ['saledate', 'DATE'],
        ['ma', 'BIGINT'],
        ['type', 'VARCHAR'],
        ['bedrooms', 'BIGINT'],
      ]);
      const stats = await conn.runAndReadAll(
        `SELECT count(*)::INT, count(DISTINCT (type, bedrooms))::INT, min(saledate)::VARCHAR, max(saledate)::VARCHAR,
                bool_and(saledate = last_day(saledate) AND month(saledate) % 3 = 0)
         FROM house_sales`,
      );
      expect(stats.getRows()).toEqual([[330, 7, '2007-09-30', '2019-09-30', true]]);
    } finally {
      conn.closeSync();
      db.closeSync();
    }
  });
});
