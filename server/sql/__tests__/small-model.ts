/**
 * A small, exact model for tests of how model queries are planned and answered (not of how well
 * it predicts): `files.small` holds y = 2x + 1 (+ 5 when c = 'b') over 120 rows, x and a category c
 * as inputs, and `mindsdb.small_m` is trained on it. The training comes from the run's training
 * cache when another file trained the same request.
 */
import { expect } from 'vitest';
import { startHarness, type Harness } from '../../test/harness';
import { waitForModel } from '../../test/models';
import { trainingCache } from '../../test/training-cache';

export async function startWithSmallModel(): Promise<Harness> {
  const h = await startHarness(trainingCache());
  const created = await h.sql(
    `CREATE TABLE files.small AS SELECT i % 20 AS x, CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END AS c,
       (i % 20) * 2 + 1 + CASE WHEN i % 2 = 0 THEN 0 ELSE 5 END AS y FROM range(120) t(i)`,
  );
  expect(created.type).toBe('ok');
  const model = await h.sql(
    'CREATE MODEL mindsdb.small_m FROM files (SELECT * FROM small) PREDICT y',
  );
  expect(model.type).toBe('table');
  await waitForModel(h.instance, 'small_m');
  return h;
}
