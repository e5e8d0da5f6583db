import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import type { Instance } from '../../instance';
import { HITS } from '../training-cache';
import { run, tempDir, waitForModel } from '../../sql/__tests__/model-helpers';
import { openInstance } from '../../test/harness';

const TABLE =
  'CREATE TABLE files.line AS SELECT i % 40 AS x, (i % 40) * 3 + (i % 5) AS y FROM range(200) t(i) ORDER BY i';

describe('the training cache for some models only (TRAINING_CACHE_MODELS)', () => {
  const dirs: string[] = [];
  let inst: Instance | null = null;
  afterEach(async () => {
    await inst?.close();
    inst = null;
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('serves the named models from the cache and trains the others, stored or not', async () => {
    const [cache, dataDir] = [tempDir(), tempDir()];
    dirs.push(cache, dataDir);
    inst = await openInstance(
      { TRAINING_CACHE_DIR: cache, TRAINING_CACHE_MODELS: '^reused_' },
      dataDir,
    );
    await run(inst, TABLE);
    const hits = () => {
      try {
        return fs.readFileSync(path.join(cache, HITS), 'utf8').split('\n').filter(Boolean).length;
      } catch {
        return 0;
      }
    };
    const entries = () => fs.readdirSync(cache).filter((f) => /^[0-9a-f]{64}$/.test(f)).length;

    const train = async (name: string) => {
      await run(inst!, `CREATE MODEL mindsdb.${name} FROM files (SELECT * FROM line) PREDICT y`);
      expect(await waitForModel(inst!, name)).toEqual({ status: 'complete', error: null });
      return [entries(), hits()];
    };
    // [entries kept, reuses] after each training. A model the pattern does not name trains and
    // leaves nothing in the cache; a named one is kept, and the same request again is served; the
    // same request for a model outside the pattern, now that the cache holds it, trains again.
    expect(await train('watched_a')).toEqual([0, 0]);
    expect(await train('reused_b')).toEqual([1, 0]);
    expect(await train('reused_c')).toEqual([1, 1]);
    expect(await train('watched_d')).toEqual([1, 1]);
  });

  it('refuses a pattern that is not a regular expression', () => {
    expect(() => loadConfig({ TRAINING_CACHE_MODELS: '(' })).toThrow(/TRAINING_CACHE_MODELS/);
    expect(loadConfig({ TRAINING_CACHE_MODELS: '^e2e_' }).TRAINING_CACHE_MODELS).toBe('^e2e_');
  });
});
