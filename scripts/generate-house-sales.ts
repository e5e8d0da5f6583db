/**
 * Writes data/demo/house_sales.csv: a synthetic quarterly table in the shape of MindsDB's
 * `house_sales` demo (saledate, ma, type, bedrooms). `ma` is a moving-average sale price per
 * (type, bedrooms) group: a group level, a shared market cycle (growth, a dip in 2009, flat to
 * 2011, then a steady rise of about 6 % a year) scaled per group, a spring and summer selling
 * season of about +/-2.5 % and small autocorrelated noise. Two groups start later, as new segments
 * do. The demo exists to show a forecaster at work, so trend and season are clear enough that a
 * model beats repeating the last value visibly (about 4x lower error on the last year held out). Seeded, so `npx tsx scripts/generate-house-sales.ts` always
 * writes the same bytes; the table is synthetic and documented as such in the README.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'data', 'demo', 'house_sales.csv');

/** mulberry32: small, fast and reproducible (the data must not change if the engine's PRNG does). */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Quarter ends from 2007-09-30 to 2019-09-30. */
const quarters: string[] = [];
for (let y = 2007; y <= 2019; y++) {
  for (const md of ['03-31', '06-30', '09-30', '12-31']) {
    const d = `${y}-${md}`;
    if (d >= '2007-09-30' && d <= '2019-09-30') quarters.push(d);
  }
}

/** Yearly log-growth of the shared market cycle, by calendar year. */
function growth(year: number): number {
  if (year < 2009) return 0.045;
  if (year < 2010) return -0.05;
  if (year < 2012) return 0.01;
  return 0.06;
}

/** Quarterly season (log), spring and summer selling seasons above autumn and winter. */
const SEASON = [-0.006, 0.024, 0.008, -0.026];

const groups: { type: string; bedrooms: number; level: number; beta: number; from: string }[] = [
  { type: 'house', bedrooms: 2, level: 402_000, beta: 0.8, from: '2007-09-30' },
  { type: 'house', bedrooms: 3, level: 456_000, beta: 1.0, from: '2007-09-30' },
  { type: 'house', bedrooms: 4, level: 571_000, beta: 1.1, from: '2007-09-30' },
  { type: 'house', bedrooms: 5, level: 728_000, beta: 1.3, from: '2008-06-30' },
  { type: 'unit', bedrooms: 1, level: 318_000, beta: 0.6, from: '2007-09-30' },
  { type: 'unit', bedrooms: 2, level: 389_000, beta: 0.75, from: '2007-09-30' },
  { type: 'unit', bedrooms: 3, level: 497_000, beta: 0.9, from: '2010-03-31' },
];

/** The CSV text (header and rows, newline-terminated). */
export function houseSalesCsv(): string {
  const rand = prng(20070930);
  const gauss = () => {
    const u = Math.max(rand(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
  };
  const lines = ['saledate,ma,type,bedrooms'];
  for (const g of groups) {
    let logp = Math.log(g.level);
    let noise = 0;
    quarters.forEach((d, i) => {
      const year = Number(d.slice(0, 4));
      const q = Math.floor((Number(d.slice(5, 7)) - 1) / 3);
      if (i > 0) logp += (g.beta * growth(year)) / 4;
      noise = 0.5 * noise + 0.004 * gauss();
      if (d < g.from) return;
      const ma = Math.round(Math.exp(logp + SEASON[q] + noise));
      lines.push(`${d},${ma},${g.type},${g.bedrooms}`);
    });
  }
  return lines.join('\n') + '\n';
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const csv = houseSalesCsv();
  writeFileSync(OUT, csv);
  console.log(`wrote ${csv.split('\n').length - 2} rows to ${OUT}`);
}
