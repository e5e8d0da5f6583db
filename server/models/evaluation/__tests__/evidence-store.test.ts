// The evidence file of a version: written by the training worker beside the artifact, read by
// the registry (null for a version without one, as older versions are), removed with the version.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instance } from '../../../instance';
import { run, waitForModel } from '../../../sql/__tests__/model-helpers';
import { openInstance, tempDataDir } from '../../../test/harness';
import { trainingCache } from '../../../test/training-cache';

let inst: Instance;
const dataDir = tempDataDir();

// The training is waited on by its condition; the bound only catches a hang, as in
// evaluation.test.ts (the default 60 s hook bound was shorter than waitForModel's own wait).
beforeAll(async () => {
  inst = await openInstance(trainingCache(), dataDir);
  await run(
    inst,
    `CREATE MODEL mindsdb.rentals FROM example_db (SELECT * FROM demo_data.home_rentals) PREDICT rental_price`,
  );
  expect((await waitForModel(inst, 'rentals')).status).toBe('complete');
}, 600_000);
afterAll(async () => {
  await inst.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('evidence of a trained version', () => {
  it('is written by the training worker and read by the registry', async () => {
    const file = inst.models.store.evidenceFile('mindsdb', 'rentals', 1);
    expect(fs.existsSync(file)).toBe(true);
    const ev = (await inst.models.evidence({ project: 'mindsdb', name: 'rentals' }))!;
    expect(ev.target).toBe('rental_price');
    expect(ev.heldOut.rows.columns).toContain('neighborhood');
    expect(ev.heldOut.rows.columns).not.toContain('rental_price');
    expect(ev.training.rows.columns).toContain('rental_price');
    expect(ev.heldOut.rows.rowCount).toBeGreaterThan(100);
    expect(ev.heldOut.lower!.length).toBe(ev.heldOut.rows.rowCount);
  });

  it('is null for a version without it (trained before it existed)', async () => {
    fs.rmSync(inst.models.store.evidenceFile('mindsdb', 'rentals', 1));
    // A restarted instance reads from disk (the running one keeps what it read).
    await inst.close();
    inst = await openInstance(trainingCache(), dataDir);
    expect(await inst.models.evidence({ project: 'mindsdb', name: 'rentals' })).toBeNull();
  });

  it('is removed with its version', async () => {
    await run(inst, `DROP MODEL mindsdb.rentals`);
    expect(fs.existsSync(inst.models.store.modelDir('mindsdb', 'rentals'))).toBe(false);
  });
});
