import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
import { loadConfig } from '../config';
import { createInstance } from '../instance';
import { castColumns, predictionValues } from '../catalog/models-predict';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-'));
const inst = await createInstance(loadConfig({}, { DATA_DIR: dir }));
const q = async (query: string) => { const r: any = await inst.sql.execute({ query }); if (r.type === 'error') throw new Error(r.error_message); return r; };
await q('CREATE MODEL mindsdb.hr FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price');
await inst.models.idle();
const r = await q('SELECT * FROM example_db.demo_data.home_rentals, range(40)');
const cols: Record<string, unknown[]> = {}; r.column_names.forEach((c: string, j: number) => cols[c] = r.data.map((row: any) => row[j]));
const n = r.data.length;
const rec = inst.models.get({ project: 'mindsdb', name: 'hr' });
const pred = await inst.models.predictor(rec);
for (let k = 0; k < 4; k++) {
  let t = performance.now();
  const { inputs, truth } = castColumns(pred.description, cols as any, n);
  const t1 = performance.now();
  const ps = pred.predictColumns!({ ...inputs, rental_price: truth! }, n);
  const t2 = performance.now();
  predictionValues(pred.description, ps, truth);
  const t3 = performance.now();
  console.log(`cast ${(t1 - t).toFixed(0)} engine ${(t2 - t1).toFixed(0)} outputs ${(t3 - t2).toFixed(0)} ms for ${n}`);
}
await inst.close();
