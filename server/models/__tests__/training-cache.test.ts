import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Instance } from '../../instance';
import { HITS } from '../training-cache';
import { run, tempDir, waitForModel } from '../../sql/__tests__/model-helpers';
import { openInstance } from '../../test/harness';

const TABLE =
  "CREATE TABLE files.line AS SELECT i % 50 AS x, (i % 7) * 0.5 AS z, CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END AS c, (i % 50) * 2 + (i % 7) AS y FROM range(300) t(i) ORDER BY i";

describe('the training cache (TRAINING_CACHE_DIR)', () => {
  const opened: { inst: Instance; dir: string }[] = [];
  afterEach(async () => {
    for (const o of opened.splice(0)) {
      await o.inst.close();
      fs.rmSync(o.dir, { recursive: true, force: true });
    }
  });

  /** A fresh instance (its own DATA_DIR) with the table, sharing `cache`. */
  async function instance(cache: string): Promise<Instance> {
    const dir = tempDir();
    const inst = await openInstance({ TRAINING_CACHE_DIR: cache }, dir);
    opened.push({ inst, dir });
    await run(inst, TABLE);
    return inst;
  }

  /** Trains `name` on the table and returns its artifact's hash. */
  async function train(inst: Instance, name: string, extra = ''): Promise<string> {
    await run(
      inst,
      `CREATE MODEL mindsdb.${name} FROM files (SELECT * FROM line) PREDICT y${extra}`,
    );
    const t = await waitForModel(inst, name);
    expect(t).toEqual({ status: 'complete', error: null });
    const rec = inst.models.list('mindsdb').find((r) => r.name === name)!;
    // The artifact's hash: a fresh training differs at least in its recorded training time.
    const file = inst.models.store.artifactFile('mindsdb', name, rec.version);
    return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  }

  it('serves an identical request the first training, and trains again when data, target or USING differ', async () => {
    const cache = tempDir();
    try {
      const first = await instance(cache);
      const trained = await train(first, 'a');
      expect(first.models.trainingWorkers().started).toBe(1);

      // Another instance, another name, the same request: no engine run, the same model.
      const second = await instance(cache);
      expect(await train(second, 'b')).toBe(trained);
      expect(second.models.trainingWorkers().started).toBe(0);
      const ask = (m: string) =>
        run(
          second,
          `SELECT y, y_explain IS NOT NULL AS e FROM mindsdb.${m} WHERE x = 10 AND z = 1 AND c = 'a'`,
        );
      expect((await ask('b')).data).toEqual(
        (
          await run(
            first,
            `SELECT y, y_explain IS NOT NULL AS e FROM mindsdb.a WHERE x = 10 AND z = 1 AND c = 'a'`,
          )
        ).data,
      );
      expect(await run(second, 'DESCRIBE mindsdb.b')).toMatchObject(
        await run(first, 'DESCRIBE mindsdb.a'),
      );

      // Other options: the engine runs.
      await train(second, 'c', ' USING max_iterations = 20');
      expect(second.models.trainingWorkers().started).toBe(1);
      // Other data (one row changed): the engine runs again (the idle worker takes it).
      await run(second, 'UPDATE files.line SET y = y + 1 WHERE x = 3');
      const otherData = await train(second, 'd');
      expect(otherData).not.toBe(trained);
      // One entry per distinct request, each whole.
      expect(fs.readFileSync(path.join(cache, HITS), 'utf8').trim().split('\n')).toHaveLength(1);
      const entries = fs
        .readdirSync(cache)
        .filter((f) => f !== HITS)
        .sort();
      expect(entries).toHaveLength(3);
      for (const e of entries)
        expect(fs.readdirSync(path.join(cache, e)).sort()).toContain('meta.json');
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
  });
  it('trains a request once when two instances ask for it at the same time, and takes over the lock of a holder that died', async () => {
    const cache = tempDir();
    const other = tempDir();
    try {
      const [a, b] = [await instance(cache), await instance(cache)];
      const [ta, tb] = await Promise.all([train(a, 'a'), train(b, 'b')]);
      expect(tb).toBe(ta);
      // One of the two trained; the other waited for its entry.
      expect(a.models.trainingWorkers().started + b.models.trainingWorkers().started).toBe(1);
      expect(fs.readdirSync(cache).filter((f) => f.endsWith('.lock'))).toEqual([]);

      // A lock left by a process that is gone (killed while training) does not block the key.
      const [key] = fs.readdirSync(cache).filter((f) => /^[0-9a-f]{64}$/.test(f));
      fs.writeFileSync(path.join(other, `${key}.lock`), '2147483646');
      const c = await instance(other);
      await train(c, 'c');
      expect(c.models.trainingWorkers().started).toBe(1);
      expect(fs.existsSync(path.join(other, `${key}.lock`))).toBe(false);
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
