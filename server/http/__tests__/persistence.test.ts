import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startHarness, tempDataDir } from '../../test/harness';

describe('persistence', () => {
  it('keeps tables and projects across restarts and loads the demo data only once', async () => {
    const dir = tempDataDir();
    const a = await startHarness({}, dir);
    await a.sql('CREATE TABLE mindsdb.kept AS SELECT 42 AS answer');
    await a.sql('CREATE PROJECT kept_project');
    await a.sql('CREATE TABLE kept_project.t AS SELECT 7 AS seven');
    await a.sql('DELETE FROM example_db.demo_data.diabetes WHERE 1 = 1');
    await a.close({ keepData: true });

    const b = await startHarness({}, dir);
    expect((await b.sql('SELECT answer FROM mindsdb.kept')).data).toEqual([[42]]);
    expect((await b.sql('SELECT seven FROM kept_project.t')).data).toEqual([[7]]);
    // Idempotent loader: an existing table is the user's, never reloaded over their changes.
    expect((await b.sql('SELECT count(*) FROM example_db.demo_data.diabetes')).data).toEqual([[0]]);
    expect((await b.sql('SHOW PROJECTS')).data).toEqual([['mindsdb'], ['kept_project']]);
    await b.close({ keepData: true });
    expect(fs.existsSync(`${dir}/catalog.json`)).toBe(true);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
