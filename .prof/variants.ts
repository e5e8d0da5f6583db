import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { startHarness } from '../server/test/harness';

const h = await startHarness();
await h.sql(`CREATE TABLE files.rentals_1m AS SELECT h.* FROM range(1000) r, example_db.demo_data.home_rentals_this_month h`);
const eng = h.instance.catalog.engine;
const full = fs.readFileSync('.prof/count.sql', 'utf8');
const bath = `CASE WHEN TRY_CAST(NULLIF(trim(CAST(__today."number_of_bathrooms" AS VARCHAR)), '') AS DOUBLE) IS NULL THEN NULLIF(trim(CAST(__today."number_of_bathrooms" AS VARCHAR)), '') WHEN TRY_CAST(NULLIF(trim(CAST(__today."number_of_bathrooms" AS VARCHAR)), '') AS DOUBLE) = trunc(TRY_CAST(NULLIF(trim(CAST(__today."number_of_bathrooms" AS VARCHAR)), '') AS DOUBLE)) AND abs(TRY_CAST(NULLIF(trim(CAST(__today."number_of_bathrooms" AS VARCHAR)), '') AS DOUBLE)) < 1e15 THEN CAST(CAST(TRY_CAST(NULLIF(trim(CAST(__today."number_of_bathrooms" AS VARCHAR)), '') AS DOUBLE) AS BIGINT) AS VARCHAR) ELSE CAST(TRY_CAST(NULLIF(trim(CAST(__today."number_of_bathrooms" AS VARCHAR)), '') AS DOUBLE) AS VARCHAR) END AS k1`;
if (!full.includes(bath)) throw new Error('bath');
const E = '[284::DOUBLE, 385::DOUBLE, 473::DOUBLE, 539::DOUBLE, 623::DOUBLE, 715::DOUBLE, 829::DOUBLE, 922::DOUBLE, 1082::DOUBLE]::DOUBLE[]';
const nums = ['number_of_rooms', 'sqft', 'days_on_market', 'initial_price'];
const cats = ['number_of_bathrooms', 'location', 'neighborhood'];
const numInner = nums.map((c, i) => `CASE WHEN isfinite(TRY_CAST("${c}" AS DOUBLE)) THEN TRY_CAST("${c}" AS DOUBLE) END AS v${i}`).join(', ');
const numAgg = (i: number) => `histogram(v${i}, ${E}), count(v${i}), sum(v${i}), count(*) FILTER (WHERE v${i} < 101::DOUBLE), count(*) FILTER (WHERE v${i} > 1249::DOUBLE)`;
const catInner = cats.map((c, i) => `NULLIF(trim(CAST("${c}" AS VARCHAR)), '') AS k${i}`).join(', ');
const catAgg = (i: number) => `histogram_exact(k${i}, ['good', 'poor', 'great']), count(k${i}), count(*) FILTER (WHERE k${i} IN ('good','poor','great'))`;
const untyped = full
  .replace(/CASE WHEN isfinite\(CAST\((__today\."\w+") AS DOUBLE\)\) THEN CAST\(\1 AS DOUBLE\) END/g, 'CASE WHEN isfinite(TRY_CAST($1 AS DOUBLE)) THEN TRY_CAST($1 AS DOUBLE) END')
  .replace(/CAST\((__today\."\w+") AS DOUBLE\) AS (v\d)/g, 'CASE WHEN isfinite(TRY_CAST($1 AS DOUBLE)) THEN TRY_CAST($1 AS DOUBLE) END AS $2');
console.log(full.split('\n').filter((l) => l.includes('__today.')).join('\n'));
const variants: Record<string, string> = { typed: full, untyped };
const threads = await eng.query(`SELECT current_setting('threads')`, {});
console.log('threads', threads.rows);
for (let rep = 0; rep < 4; rep++) {
  for (const [k, s] of Object.entries(variants)) {
    const t0 = performance.now();
    await eng.query(s, { db: 'files', maxRows: 1 });
    console.log(k, (performance.now() - t0).toFixed(0));
  }
}
await h.close();
