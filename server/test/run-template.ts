/**
 * Something a test run makes once and every test process shares (the demo database, PostgreSQL's
 * initdb output): the first process that asks builds it in a work folder of its own inside the
 * run's `folder` (./global-setup.ts) and renames it into place in one step, so a reader only ever
 * sees it whole. A process that loses the race keeps the one already in place (a file renamed over
 * it is equal; a directory cannot be, and stays).
 */
import fs from 'node:fs';
import path from 'node:path';

export async function runTemplate(
  folder: string,
  name: string,
  /** Makes it inside `work` and returns its path there. */
  build: (work: string) => Promise<string>,
): Promise<string> {
  const done = path.join(folder, name);
  if (fs.existsSync(done)) return done;
  const work = fs.mkdtempSync(path.join(folder, `${name}-`));
  try {
    const built = await build(work);
    try {
      fs.renameSync(built, done);
    } catch (err) {
      if (!fs.existsSync(done)) throw err;
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return done;
}
