import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config';
import { createInstance } from '../instance';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smoke-'));
const inst = await createInstance(loadConfig({}, { DATA_DIR: dir }));
const q = async (query: string, db?: string) => {
  const t = Date.now();
  const r = await inst.sql.execute({ query, db });
  console.log(`[${Date.now() - t}ms]`, query.slice(0, 90), '\n  ', JSON.stringify(r).slice(0, 700));
  return r as any;
};
const t0 = Date.now();
await q('CREATE MODEL mindsdb.home_rentals_model FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price');
for (;;) {
  const r = await inst.sql.execute({ query: "SELECT status, error, current_training_phase FROM mindsdb.models WHERE name = 'home_rentals_model'" });
  const st = (r as any).data?.[0]?.[0];
  if (st === 'complete' || st === 'error') break;
  await new Promise((res) => setTimeout(res, 100));
}
console.log('trained in', Date.now() - t0);
await q("SELECT * FROM mindsdb.models");
await q("SELECT rental_price, rental_price_explain FROM mindsdb.home_rentals_model WHERE sqft = 823 AND location = 'good'");
await q("SELECT * FROM mindsdb.home_rentals_model WHERE sqft = \"823\" AND location = \"good\"");
await q('SELECT t.rental_price AS real, m.rental_price AS predicted FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.home_rentals_model AS m LIMIT 3');
await q('SELECT m.rental_price AS predicted, t.*, m.* FROM example_db.demo_data.home_rentals AS t JOIN mindsdb.home_rentals_model AS m WHERE t.sqft > 900 ORDER BY m.rental_price DESC LIMIT 2');
await q('DESCRIBE mindsdb.home_rentals_model');
await q('DESCRIBE home_rentals_model.features');
await q('DESCRIBE mindsdb.home_rentals_model.1.model');
await q('DESCRIBE example_db.demo_data.home_rentals');
await q('SHOW MODELS');
await q('SHOW TABLES');
await inst.close();
