/**
 * The embedded demo database `example_db`, schema `demo_data`: the CSVs in `data/demo/` (copied
 * from MindsDB's tutorial and example repositories, credited in the README) loaded into DuckDB on
 * first start. Each table is created in one `CREATE TABLE ... AS` statement, which DuckDB commits
 * atomically, so an interrupted first start leaves no half-loaded table and the next start
 * finishes the job (idempotent: existing tables are left alone).
 *
 * Cleaning, documented in the README: home_rentals.sqft has two values written with a decimal
 * comma ("640,56"); the comma is read as a decimal point and the value rounded to whole square
 * feet so the column stays INTEGER. telco_churn.TotalCharges has 11 blank values; they become
 * NULL so the column is DOUBLE. Its Yes/No columns stay text as in the source (DuckDB's sniffer
 * would otherwise read them as BOOLEAN).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Engine } from '../engine/duckdb';
import { quoteString } from '../engine/quote';

export const DEMO_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../data/demo',
);

const csv = (file: string, extra = '') =>
  `read_csv(${quoteString(path.join(DEMO_DIR, file))}, header = true${extra})`;

export const DEMO_TABLES: { name: string; sql: string }[] = [
  {
    name: 'home_rentals',
    sql: `SELECT number_of_rooms, number_of_bathrooms,
            CAST(round(CAST(replace(sqft, ',', '.') AS DOUBLE)) AS INTEGER) AS sqft,
            location, days_on_market, initial_price, neighborhood, rental_price
          FROM ${csv('home_rentals.csv', ", types = {'sqft': 'VARCHAR'}")}`,
  },
  { name: 'customer_churn', sql: `SELECT * FROM ${csv('bank_customer_churn.csv')}` },
  {
    name: 'telco_churn',
    sql: `SELECT * REPLACE (TRY_CAST(NULLIF(trim(TotalCharges), '') AS DOUBLE) AS TotalCharges)
          FROM ${csv('telco_customer_churn.csv', ", types = {'TotalCharges': 'VARCHAR'}, auto_type_candidates = ['BIGINT', 'DOUBLE', 'VARCHAR']")}`,
  },
  { name: 'concrete_strength', sql: `SELECT * FROM ${csv('concrete_strength.csv')}` },
  { name: 'diabetes', sql: `SELECT * FROM ${csv('diabetes_train.csv')}` },
  { name: 'diabetes_test', sql: `SELECT * FROM ${csv('diabetes_test.csv')}` },
  // Synthetic (scripts/generate-house-sales.ts): quarterly sale prices per type and bedrooms.
  { name: 'house_sales', sql: `SELECT * FROM ${csv('house_sales.csv')}` },
  // Synthetic (scripts/generate-home-rentals-this-month.ts): home_rentals with known shifts, for
  // the drift demo.
  {
    name: 'home_rentals_this_month',
    sql: `SELECT * FROM ${csv('home_rentals_this_month.csv')}`,
  },
];

/** Creates the missing demo tables; returns the names it created. */
export async function loadDemoData(engine: Engine): Promise<string[]> {
  await engine.exec('CREATE SCHEMA IF NOT EXISTS example_db.demo_data');
  const existing = new Set(
    (
      await engine.rows(
        `SELECT table_name FROM information_schema.tables WHERE table_catalog = 'example_db' AND table_schema = 'demo_data'`,
      )
    ).map((r) => String(r[0])),
  );
  const created: string[] = [];
  for (const t of DEMO_TABLES) {
    if (existing.has(t.name)) continue;
    await engine.exec(`CREATE TABLE example_db.demo_data.${t.name} AS ${t.sql}`);
    created.push(t.name);
  }
  return created;
}
