import { performance } from 'node:perf_hooks';
import { startHarness } from '../server/test/harness';

const h = await startHarness();
const sql = async (q: string) => {
  const r = await h.sql(q);
  if (r.type === 'error') throw new Error(r.error_message);
  return r;
};
await sql(`CREATE MODEL mindsdb.bench_rentals FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price`);
await h.instance.models.idle();
await sql(`CREATE TABLE files.rentals_1m AS SELECT h.* FROM range(1000) r, example_db.demo_data.home_rentals_this_month h`);
const eng = h.instance.catalog.engine as any;
const orig = eng.query.bind(eng);
let log: string[] = [];
eng.query = async (s: string, o: any) => {
  const t0 = performance.now();
  const r = await orig(s, o);
  log.push(`${(performance.now() - t0).toFixed(0)} ms  ${s.replace(/\s+/g, ' ').slice(0, 90)}`);
  if (s.startsWith('SELECT count(*) AS n')) (await import('node:fs')).writeFileSync('.prof/count.sql', s);
  return r;
};
const ref = { project: 'mindsdb', name: 'bench_rentals' };
for (let i = 0; i < 4; i++) {
  log = [];
  const t0 = performance.now();
  await h.instance.monitoring.drift.compute(ref, { query: 'SELECT * FROM rentals_1m', db: 'files' });
  console.log(`total ${(performance.now() - t0).toFixed(0)} ms`);
  console.log(log.join('\n'));
}
let t0 = performance.now();
await sql(`SELECT count(*), avg(sqft), count(DISTINCT neighborhood) FROM files.rentals_1m`);
console.log(`scan ${(performance.now() - t0).toFixed(0)} ms`);
await h.close();
