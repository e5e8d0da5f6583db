import { startHarness } from '../server/test/harness';
const h = await startHarness();
const r = await h.instance.catalog.engine.query(`SELECT histogram_exact(k, ['a','b']) AS h, histogram(v, [1::DOUBLE, 2::DOUBLE]) AS g FROM (VALUES ('a', 0.5), ('b', 1.0), ('c', 1.5), (NULL, NULL), ('', 3.0), ('d', 2.0)) t(k, v)`, {});
console.log(JSON.stringify(r.rows));
await h.close();
