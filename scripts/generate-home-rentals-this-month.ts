/**
 * Writes data/demo/home_rentals_this_month.csv: a synthetic "this month" batch of listings for
 * the drift demo (docs/evaluation.md), made from data/demo/home_rentals.csv with known shifts, so
 * a model trained on home_rentals has something to notice:
 *
 * - 1,000 rows drawn with replacement from home_rentals;
 * - sqft x 1.15-1.35 (larger flats came on the market);
 * - initial_price x 1.08-1.18 and rental_price with it (rents went up);
 * - 40 % of 'poor' locations listed as 'good';
 * - 12 % of rows in 'harbor_district', a neighborhood the training data never saw;
 * - number_of_rooms, number_of_bathrooms and days_on_market unchanged.
 *
 * Seeded, so `npx tsx scripts/generate-home-rentals-this-month.ts` always writes the same bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { prng } from './generate-house-sales';

const DEMO = join(dirname(fileURLToPath(import.meta.url)), '..', 'data', 'demo');
const OUT = join(DEMO, 'home_rentals_this_month.csv');
const ROWS = 1000;

/** The CSV text: the same bytes on every run. */
export function homeRentalsThisMonthCsv(): string {
  const rnd = prng(2027);
  const uniform = (lo: number, hi: number) => lo + (hi - lo) * rnd();
  const source = Papa.parse<Record<string, string>>(
    readFileSync(join(DEMO, 'home_rentals.csv'), 'utf8'),
    { header: true, skipEmptyLines: true },
  ).data;
  const lines = [
    'number_of_rooms,number_of_bathrooms,sqft,location,days_on_market,initial_price,neighborhood,rental_price',
  ];
  for (let i = 0; i < ROWS; i++) {
    const r = source[Math.floor(rnd() * source.length)];
    // The source writes two sqft values with a decimal comma ("640,56").
    const sqft = Math.round(Number(r.sqft.replace(',', '.')) * uniform(1.15, 1.35));
    const initial = Number(r.initial_price);
    const newInitial = Math.round(initial * uniform(1.08, 1.18));
    const rental = Math.round((Number(r.rental_price) * newInitial) / initial);
    const location = r.location === 'poor' && rnd() < 0.4 ? 'good' : r.location;
    const neighborhood = rnd() < 0.12 ? 'harbor_district' : r.neighborhood;
    lines.push(
      [
        r.number_of_rooms,
        r.number_of_bathrooms,
        sqft,
        location,
        r.days_on_market,
        newInitial,
        neighborhood,
        rental,
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  writeFileSync(OUT, homeRentalsThisMonthCsv());
  process.stdout.write(`wrote ${ROWS} rows to ${OUT}\n`);
}
