/**
 * Durable file writes: write to a temporary file in the same folder, fsync it, rename it over the
 * target and fsync the folder, so a crash leaves either the old or the new content, never half.
 * A write that fails (a full disk above all) removes its temporary file and leaves the target as
 * it was; the error says "disk full" when that is the cause. Files are created 0600 and folders
 * 0700: DATA_DIR holds credentials.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { ERROR_CODES, ServiceError } from '../errors';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

/** Errno codes that mean the file system has no room left. */
const FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

export function isDiskFull(err: unknown): boolean {
  const e = err as NodeJS.ErrnoException | undefined;
  return (
    (!!e?.code && FULL.has(e.code)) ||
    /No space left on device|Disk quota exceeded|disk (is )?full/i.test(String(e?.message))
  );
}

/** A ServiceError for a write that found the disk full (507), naming what was being written. */
export function diskFullError(what: string, err?: unknown): ServiceError {
  const detail = err instanceof Error && err.message ? `: ${err.message.split('\n')[0]}` : '';
  return new ServiceError(
    ERROR_CODES.INTERNAL,
    `Disk full: could not write ${what}; nothing was changed. Free some space and try again${detail}`,
    507,
  );
}

export function ensureDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
}

export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const dir = path.dirname(file);
  ensureDir(dir);
  const tmp = path.join(
    dir,
    `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    const fd = fs.openSync(tmp, 'w', FILE_MODE);
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    if (isDiskFull(err)) throw diskFullError(path.basename(file), err);
    throw err;
  }
  try {
    const dfd = fs.openSync(dir, 'r');
    fs.fsyncSync(dfd);
    fs.closeSync(dfd);
  } catch {
    // Some file systems refuse fsync on directories; the rename is still atomic there.
  }
}

/**
 * A JSON file's content, or undefined when it does not exist. A file that is not valid JSON is
 * an error naming the file, so a damaged catalog says which file at start-up.
 */
export function readJsonFile<T>(file: string): T | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new Error(
      `${file} is damaged (not valid JSON: ${(err as Error).message}); restore it from a backup or move it away to start without it`,
      { cause: err },
    );
  }
}

/** Removes temporary files left behind by a crash during writeFileAtomic. */
export function sweepTempFiles(dir: string): void {
  if (!fs.existsSync(dir)) return;
  for (const f of fs.readdirSync(dir)) {
    if (f.startsWith('.') && f.endsWith('.tmp')) fs.rmSync(path.join(dir, f), { force: true });
  }
}

/**
 * Tightens the modes of an existing folder tree to 0700 (folders) and 0600 (files), for a
 * DATA_DIR written by an older version. Symbolic links are left alone.
 */
export function restrictModes(root: string): void {
  const walk = (p: string) => {
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    if (!st || st.isSymbolicLink()) return;
    if (st.isDirectory()) {
      if ((st.mode & 0o777) !== DIR_MODE) fs.chmodSync(p, DIR_MODE);
      for (const f of fs.readdirSync(p)) walk(path.join(p, f));
    } else if (st.isFile() && (st.mode & 0o077) !== 0) {
      fs.chmodSync(p, st.mode & 0o700);
    }
  };
  walk(root);
}
