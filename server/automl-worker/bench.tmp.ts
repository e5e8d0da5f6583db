import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
import { loadConfig } from '../config';
import { createInstance } from '../instance';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
const inst = await createInstance(loadConfig({}, { DATA_DIR: dir }));
const q = async (query: string) => { const r: any = await inst.sql.execute({ query }); if (r.type === 'error') throw new Error(r.error_message); return r; };
let t = Date.now();
await q('CREATE MODEL mindsdb.hr FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price');
for (;;) { const r = await q("SELECT status FROM mindsdb.models WHERE name='hr'"); if (r.data[0][0] !== 'generating' && r.data[0][0] !== 'training') break; await new Promise(r => setTimeout(r, 20)); }
console.log('train via SQL ms', Date.now() - t);
await q('CREATE TABLE files.big AS SELECT * FROM example_db.demo_data.home_rentals, range(40)');
for (const [label, sql, n] of [
  ['5k join', 'SELECT t.rental_price AS real, m.rental_price AS predicted FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.hr AS m', 5037],
  ['5k join where m', 'SELECT m.rental_price FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.hr AS m WHERE m.rental_price > 5000', 5037],
  ['200k join count', 'SELECT count(*), avg(m.rental_price) FROM files.big AS t JOIN mindsdb.hr AS m', 201480],
] as const) {
  for (let k = 0; k < 3; k++) { t = performance.now(); await q(sql); const ms = performance.now() - t; console.log(label, ms.toFixed(1), 'ms', Math.round(n / ms * 1000), 'rows/s'); }
}
// in-process predictColumns
const r = await q('SELECT * FROM files.big');
const cols: Record<string, unknown[]> = {}; r.column_names.forEach((c: string, j: number) => cols[c] = r.data.map((row: any) => row[j]));
t = performance.now(); await inst.models.predictColumns({ project: 'mindsdb', name: 'hr' }, cols, r.data.length, { unknownColumns: 'ignore' }); console.log('registry.predictColumns 200k', (performance.now() - t).toFixed(0), 'ms');
await inst.close();
