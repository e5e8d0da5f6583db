/**
 * Models across restarts and the training queue: a complete model answers at once after the
 * instance reopens its DATA_DIR, a training cut off by the shutdown shows `error` (never
 * `training` forever) and can be retrained, and MAX_CONCURRENT_TRAININGS bounds the workers.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../errors';
import { INTERRUPTED_ERROR } from '../../models/store';
import { fails, objects, open, run, tempDir, waitForModel } from './model-helpers';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('restart', () => {
  it('keeps complete models usable and turns an interrupted training into an error', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const before = await open(dir);
    await run(
      before,
      'CREATE MODEL mindsdb.concrete FROM example_db (SELECT * FROM demo_data.concrete_strength) PREDICT concrete_strength',
    );
    expect(await waitForModel(before, 'concrete')).toEqual({ status: 'complete', error: null });
    const predict =
      'SELECT concrete_strength FROM mindsdb.concrete WHERE cement = 300 AND water = 180 AND age = 28';
    const expected = (await run(before, predict)).data;
    // Started and cut off by the shutdown right away.
    await run(
      before,
      'CREATE MODEL mindsdb.churn FROM example_db (SELECT * FROM demo_data.customer_churn) PREDICT Exited',
    );
    await before.close();

    const after = await open(dir);
    try {
      expect((await run(after, predict)).data).toEqual(expected);
      const [info] = objects(await run(after, 'DESCRIBE mindsdb.concrete.info'));
      expect(info.outputs).toEqual(['concrete_strength']);
      const rows = objects(
        await run(after, 'SELECT name, status, error FROM mindsdb.models ORDER BY name'),
      );
      expect(rows).toEqual([
        { NAME: 'churn', STATUS: 'error', ERROR: INTERRUPTED_ERROR },
        { NAME: 'concrete', STATUS: 'complete', ERROR: null },
      ]);
      const e = await fails(after, 'SELECT Exited FROM mindsdb.churn WHERE Age = 40');
      expect(e.code).toBe(ERROR_CODES.MODEL_NOT_READY);
      expect(e.message).toContain(`its status is error: ${INTERRUPTED_ERROR}`);
      // The interrupted model recovers with RETRAIN (on fewer rows to keep the test short).
      await run(
        after,
        'RETRAIN mindsdb.churn FROM example_db (SELECT * FROM demo_data.customer_churn LIMIT 1000)',
      );
      expect(await waitForModel(after, 'churn', { version: 2 })).toEqual({
        status: 'complete',
        error: null,
      });
      const active = await run(
        after,
        "SELECT version FROM mindsdb.models WHERE name = 'churn' AND active = 1",
      );
      expect(active.data).toEqual([[2]]);
    } finally {
      await after.close();
    }
  });
});

describe('training queue', () => {
  it('runs at most MAX_CONCURRENT_TRAININGS trainings at once; the others wait as generating', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const inst = await open(dir, { MAX_CONCURRENT_TRAININGS: 1 });
    try {
      for (const name of ['q1', 'q2', 'q3']) {
        const [row] = objects(
          await run(
            inst,
            // Small trainings: the bound is the property, not the models.
            `CREATE MODEL ${name} FROM mindsdb (SELECT range AS x, range % 4 AS c, range * 3 + range % 4 AS y FROM range(300)) PREDICT y`,
          ),
        );
        expect(row.STATUS).toBe('generating');
      }
      // Waits for the queue to drain (an event, not a poll that competes with the trainings for
      // the cores); the trainer counts the most trainings that ran at once.
      await inst.models.idle();
      const statuses = (
        await run(inst, "SELECT status FROM mindsdb.models WHERE name LIKE 'q%' ORDER BY name")
      ).data.map((r) => r[0]);
      expect(statuses).toEqual(['complete', 'complete', 'complete']);
      expect(inst.models.peakTrainings()).toBe(1);
    } finally {
      await inst.close();
    }
  });
});
