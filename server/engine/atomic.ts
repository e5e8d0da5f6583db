/**
 * Durable file writes: write to a temporary file in the same folder, fsync it, rename it over the
 * target and fsync the folder, so a crash leaves either the old or the new content, never half.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(
    dir,
    `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`,
  );
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  try {
    const dfd = fs.openSync(dir, 'r');
    fs.fsyncSync(dfd);
    fs.closeSync(dfd);
  } catch {
    // Some file systems refuse fsync on directories; the rename is still atomic there.
  }
}

export function readJsonFile<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Removes temporary files left behind by a crash during writeFileAtomic. */
export function sweepTempFiles(dir: string): void {
  if (!fs.existsSync(dir)) return;
  for (const f of fs.readdirSync(dir)) {
    if (f.startsWith('.') && f.endsWith('.tmp')) fs.rmSync(path.join(dir, f), { force: true });
  }
}
