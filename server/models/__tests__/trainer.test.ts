/**
 * Training workers are reused: a worker that answered its request (a model, or the engine's
 * refusal of the data) trains the next one with its code already loaded and compiled; a worker
 * whose training was cancelled (DROP MODEL) is terminated and never handed another request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance } from '../../instance';
import { fails, run, waitForModel } from '../../sql/__tests__/model-helpers';
import { openInstance } from '../../test/harness';

let inst: Instance;

beforeAll(async () => {
  inst = await openInstance();
  await run(
    inst,
    `CREATE TABLE files.line AS SELECT i % 50 AS x, (i % 50) * 2 + 1 AS y, CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END AS c
     FROM range(300) t(i)`,
  );
  await run(
    inst,
    `CREATE TABLE files.big AS SELECT i % 97 AS x, i % 13 AS z, (i % 97) * 0.5 + (i % 13) AS y
     FROM range(100000) t(i)`,
  );
});

afterAll(async () => {
  await inst?.close();
  if (inst) fs.rmSync(inst.config.DATA_DIR, { recursive: true, force: true });
});

/** The model's prediction of y for x (and c = 'a'). */
async function predict(name: string, x: number): Promise<number> {
  const t = await run(inst, `SELECT y FROM mindsdb.${name} WHERE x = ${x} AND c = 'a'`);
  return Number(t.data[0][0]);
}

describe('training workers', () => {
  it('one worker trains model after model, each from its own data', async () => {
    expect(inst.models.trainingWorkers()).toEqual({ started: 0, idle: false });
    await run(inst, 'CREATE MODEL m1 FROM files (SELECT * FROM line) PREDICT y');
    expect(await waitForModel(inst, 'm1')).toEqual({ status: 'complete', error: null });
    await inst.models.idle();
    expect(inst.models.trainingWorkers()).toEqual({ started: 1, idle: true });
    // The second model learns the other direction: nothing of the first one leaks into it.
    await run(inst, 'CREATE MODEL m2 FROM files (SELECT x, c, 200 - y AS y FROM line) PREDICT y');
    expect(await waitForModel(inst, 'm2')).toEqual({ status: 'complete', error: null });
    await inst.models.idle();
    expect(inst.models.trainingWorkers()).toEqual({ started: 1, idle: true });
    expect(await predict('m1', 10)).toBeCloseTo(21, 0);
    expect(await predict('m2', 10)).toBeCloseTo(179, 0);
  });

  it('a reused worker (and its helper threads) trains the same model again, byte for byte', async () => {
    // 20k rows: the analysis is shared with the worker's resident model thread.
    await run(
      inst,
      `CREATE TABLE files.mid AS SELECT i % 97 AS x, (i * 7) % 13 AS z, CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END AS c,
       (i % 97) * 0.5 + (i * 7) % 13 + (i % 11) * 0.1 AS y FROM range(20000) t(i)`,
    );
    await run(inst, 'CREATE MODEL m_mid FROM files (SELECT * FROM mid) PREDICT y');
    expect(await waitForModel(inst, 'm_mid')).toEqual({ status: 'complete', error: null });
    // Another model in between, then the same training again.
    await run(inst, 'CREATE MODEL m_other FROM files (SELECT x, c, y FROM line) PREDICT y');
    expect(await waitForModel(inst, 'm_other')).toEqual({ status: 'complete', error: null });
    await run(inst, 'RETRAIN m_mid');
    expect(await waitForModel(inst, 'm_mid', { version: 2 })).toEqual({
      status: 'complete',
      error: null,
    });
    await inst.models.idle();
    expect(inst.models.trainingWorkers()).toEqual({ started: 1, idle: true });
    const dir = path.join(inst.config.DATA_DIR, 'models', 'mindsdb', 'm_mid');
    const artifact = (v: number) =>
      fs
        .readFileSync(path.join(dir, `${v}.json`), 'utf8')
        .replace(/"(trainingTimeMs|training_time)":[0-9.e+-]+/g, '');
    expect(artifact(2)).toBe(artifact(1));
  });

  it("a request the engine refuses leaves the worker reusable; the error is the engine's", async () => {
    await run(inst, 'CREATE MODEL m_bad FROM files (SELECT x, c, y FROM line LIMIT 3) PREDICT y');
    const bad = await waitForModel(inst, 'm_bad');
    expect(bad.status).toBe('error');
    expect(bad.error).toContain('training needs at least 5 rows');
    await inst.models.idle();
    expect(inst.models.trainingWorkers()).toEqual({ started: 1, idle: true });
  });

  it('a cancelled training ends its worker; the next training starts a fresh one', async () => {
    await run(inst, 'CREATE MODEL m_big FROM files (SELECT * FROM big) PREDICT y');
    // Wait until the worker has the request (training), then drop the model.
    for (;;) {
      const t = await run(inst, "SELECT status FROM mindsdb.models WHERE name = 'm_big'");
      if (t.data[0][0] === 'training') break;
      expect(t.data[0][0]).toBe('generating');
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(inst.models.trainingWorkers()).toEqual({ started: 1, idle: false });
    await run(inst, 'DROP MODEL m_big');
    await inst.models.idle();
    expect(inst.models.trainingWorkers()).toEqual({ started: 1, idle: false });
    expect((await fails(inst, 'DESCRIBE m_big')).message).toContain('m_big');
    await run(inst, 'CREATE MODEL m3 FROM files (SELECT * FROM line) PREDICT y');
    expect(await waitForModel(inst, 'm3')).toEqual({ status: 'complete', error: null });
    await inst.models.idle();
    expect(inst.models.trainingWorkers()).toEqual({ started: 2, idle: true });
    expect(await predict('m3', 20)).toBeCloseTo(41, 0);
  });
});

/** y = 2x + 1 on 300 rows. */
const lineTable = (i: Instance) =>
  run(
    i,
    'CREATE TABLE files.line AS SELECT i % 50 AS x, (i % 50) * 2 + 1 AS y FROM range(300) t(i)',
  );

describe('the warm-up worker', () => {
  it('warms up after start and then trains the first model; a model asked for meanwhile waits for it', async () => {
    const warm = await openInstance({ TRAINING_WARMUP: true, TRAINING_WARMUP_DELAY_MS: 1_000 });
    try {
      // Nothing starts with the instance: the warm-up waits its delay (1 s) ...
      expect(warm.models.trainingWorkers()).toEqual({ started: 0, idle: false });
      await lineTable(warm);
      // ... then starts one worker; a model created while it warms up waits for it.
      await warm.models.warmupDecided();
      expect(warm.models.trainingWorkers()).toEqual({ started: 1, idle: false });
      await run(warm, 'CREATE MODEL mw FROM files (SELECT * FROM line) PREDICT y');
      expect(await waitForModel(warm, 'mw')).toEqual({ status: 'complete', error: null });
      await warm.models.idle();
      expect(warm.models.trainingWorkers()).toEqual({ started: 1, idle: true });
      const t = await run(warm, 'SELECT y FROM mindsdb.mw WHERE x = 10');
      expect(Number(t.data[0][0])).toBeCloseTo(21, 0);
    } finally {
      await warm.close();
      fs.rmSync(warm.config.DATA_DIR, { recursive: true, force: true });
    }
  });

  it('a training asked for before the warm-up starts takes its place', async () => {
    const early = await openInstance({ TRAINING_WARMUP: true, TRAINING_WARMUP_DELAY_MS: 1_000 });
    try {
      await lineTable(early);
      await run(early, 'CREATE MODEL me FROM files (SELECT * FROM line) PREDICT y');
      expect(await waitForModel(early, 'me')).toEqual({ status: 'complete', error: null });
      await early.models.idle();
      // Past the warm-up's moment: it found a worker there and did not start another.
      await early.models.warmupDecided();
      expect(early.models.trainingWorkers()).toEqual({ started: 1, idle: true });
    } finally {
      await early.close();
      fs.rmSync(early.config.DATA_DIR, { recursive: true, force: true });
    }
  });
});
