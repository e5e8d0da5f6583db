/**
 * A full disk (issue 12, class 8): a failed write leaves the previous state whole (no half-made
 * project, file or catalog), the message says "Disk full", and the instance starts and answers
 * reads on a full disk. The atomic writer is tested with ENOSPC injected at the fs layer; the
 * instance is tested on a real, small tmpfs when this machine lets the tests mount one (root),
 * which the project's CI machine does.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeFileAtomic } from '../../engine/atomic';
import { ServiceError } from '../../errors';
import { startHarness, type Harness } from '../harness';

describe('the atomic writer on a full disk (ENOSPC injected)', () => {
  it('says "Disk full" with 507, keeps the previous content and leaves no temporary file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'playground-enospc-'));
    const file = path.join(dir, 'catalog.json');
    writeFileAtomic(file, '{"v": 1}');
    const spy = vi.spyOn(fs, 'writeFileSync').mockImplementation(() => {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
        code: 'ENOSPC',
      });
    });
    let err: unknown;
    try {
      writeFileAtomic(file, '{"v": 2}');
    } catch (e) {
      err = e;
    } finally {
      spy.mockRestore();
    }
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).httpStatus).toBe(507);
    expect((err as ServiceError).message).toMatch(/^Disk full: could not write catalog\.json/);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"v": 1}');
    expect(fs.readdirSync(dir)).toEqual(['catalog.json']);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

/** A small tmpfs to fill, when the machine allows mounting one. */
const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'playground-fulldisk-'));
const mounted =
  process.getuid?.() === 0 &&
  spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', mountPoint]).status === 0;
if (!mounted) fs.rmSync(mountPoint, { recursive: true, force: true });

describe.runIf(mounted)('an instance on a real full disk (a 48 MB tmpfs)', () => {
  const dir = path.join(mountPoint, 'data');
  const filler = path.join(mountPoint, 'filler');
  let h: Harness;
  const fill = () => {
    const fd = fs.openSync(filler, 'w');
    const block = Buffer.alloc(1 << 20);
    try {
      for (;;) fs.writeSync(fd, block);
    } catch (err) {
      expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      fs.closeSync(fd);
    }
  };
  beforeAll(async () => {
    fs.mkdirSync(dir);
    h = await startHarness({}, dir);
    await h.sql('CREATE TABLE mindsdb.kept AS SELECT range AS i FROM range(1000)');
    const up = await fetch(`${h.url}/api/files/sales`, {
      method: 'PUT',
      headers: { 'content-type': 'text/csv' },
      body: 'id,amount\n1,10\n2,20\n',
    });
    expect(up.status).toBe(200);
    fill();
  });
  afterAll(async () => {
    await h?.close();
    spawnSync('umount', [mountPoint]);
    fs.rmSync(mountPoint, { recursive: true, force: true });
  });

  it('answers writes with "Disk full" and changes nothing', async () => {
    for (const q of [
      'CREATE TABLE mindsdb.big AS SELECT range AS i, md5(range::VARCHAR) AS h FROM range(3000000)',
      'INSERT INTO mindsdb.kept SELECT range FROM range(200000)',
    ]) {
      const r = await h.sql(q);
      expect(r.type, q).toBe('error');
      expect(r.error_code).toBe(99);
      expect(r.error_message).toMatch(/^Disk full/);
    }
    expect((await h.sql('SELECT count(*) FROM mindsdb.kept')).data).toEqual([[1000]]);
    expect((await h.sql('SELECT count(*) FROM mindsdb.big')).type).toBe('error');
  });

  it('leaves no half-made project and an intact catalog when CREATE PROJECT finds the disk full', async () => {
    const before = fs.readFileSync(path.join(dir, 'catalog.json'), 'utf8');
    const r = await h.sql('CREATE PROJECT full_p');
    expect(r).toMatchObject({ type: 'error' });
    expect(r.error_message).toMatch(/^Disk full/);
    expect((await h.sql('SHOW PROJECTS')).data.flat()).not.toContain('full_p');
    expect(fs.readdirSync(path.join(dir, 'projects'))).toEqual([]);
    expect(fs.readFileSync(path.join(dir, 'catalog.json'), 'utf8')).toBe(before);
    expect((await h.sql('SELECT count(*) FROM mindsdb.kept')).data).toEqual([[1000]]);
  });

  it('keeps the previous upload whole when a new one finds the disk full', async () => {
    const big = `id,amount\n${Array.from({ length: 3_000_000 }, (_, i) => `${i},${i % 97}`).join('\n')}`;
    const res = await fetch(`${h.url}/api/files/sales`, {
      method: 'PUT',
      headers: { 'content-type': 'text/csv' },
      body: big,
    });
    expect(res.status).toBe(507);
    expect(((await res.json()) as { error_message: string }).error_message).toMatch(/^Disk full/);
    expect((await h.sql('SELECT count(*), sum(amount) FROM files.sales')).data).toEqual([[2, 30]]);
    expect(fs.readdirSync(path.join(dir, 'uploads', '.incoming'))).toEqual([]);
  });

  it('refuses CREATE MODEL that cannot be stored, and leaves no model stuck in generating', async () => {
    const r = await h.sql(
      'CREATE MODEL mindsdb.nospace FROM example_db (SELECT * FROM demo_data.home_rentals LIMIT 300) PREDICT rental_price',
    );
    expect(r.type).toBe('error');
    expect(r.error_message).toMatch(/^Disk full/);
    expect((await h.sql("SELECT * FROM mindsdb.models WHERE name = 'nospace'")).data).toEqual([]);
  });

  it('ends a model whose artifact cannot be written in error, saying disk full', async () => {
    // Room for the small bookkeeping writes, not for the trained artifact.
    const reserve = path.join(mountPoint, 'reserve');
    fs.rmSync(filler);
    fs.writeFileSync(reserve, Buffer.alloc(64 * 1024));
    fill();
    fs.rmSync(reserve);
    const r = await h.sql(
      'CREATE MODEL mindsdb.halfway FROM example_db (SELECT * FROM demo_data.customer_churn) PREDICT Exited',
    );
    expect(r.type).not.toBe('error');
    let row: unknown[] = [];
    for (let i = 0; i < 600; i++) {
      row = (await h.sql("SELECT status, error FROM mindsdb.models WHERE name = 'halfway'"))
        .data[0];
      if (row[0] === 'complete' || row[0] === 'error') break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(row[0]).toBe('error');
    expect(String(row[1])).toMatch(/Disk full/);
    expect(fs.readdirSync(path.join(dir, 'models', 'mindsdb', 'halfway'))).toEqual([]);
  });

  it('starts again on the full disk and answers reads, then writes once space is free', async () => {
    await h.close({ keepData: true });
    h = await startHarness({}, dir);
    expect((await h.sql('SELECT count(*) FROM mindsdb.kept')).data).toEqual([[1000]]);
    expect((await h.sql('SELECT count(*) FROM example_db.demo_data.home_rentals')).data).toEqual([
      [5037],
    ]);
    fs.rmSync(filler);
    expect((await h.sql('INSERT INTO mindsdb.kept VALUES (1000)')).type).toBe('ok');
    expect((await h.sql('CREATE PROJECT full_p')).type).toBe('ok');
  });
});
