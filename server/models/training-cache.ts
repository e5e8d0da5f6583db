/**
 * A cache of finished trainings for test suites (TRAINING_CACHE_DIR, off by default): a training
 * whose request is byte-identical to an earlier one (mode, target, USING, time-series settings,
 * class rates, every column's name, kind and values, and a finetune's base artifact) takes that
 * training's artifact, evidence and accuracies instead of running the engine again. What a cached
 * version serves is what the engine produced for exactly that request, so the model is the same;
 * only the time is saved. The suite trains the same demo tables dozens of times (one
 * home_rentals training is ~9 s of CPU); suites turn it on per test file, and never where a test
 * watches a training run (its phases, a cancel, a crash meanwhile).
 *
 * An entry is a folder named by the request's hash, written under a temporary name and renamed
 * into place, so concurrent test processes sharing the folder see an entry whole or not at all;
 * `hits.log` gets a line per reuse.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../engine/atomic';
import type { TrainRequest } from './worker-protocol';

const ARTIFACT = 'artifact.json';
const EVIDENCE = 'evidence.json';
const META = 'meta.json';
/** Folder-level log of reuses, one key a line. */
export const HITS = 'hits.log';

interface Meta {
  accuracies: Record<string, number>;
}

const bytes = (a: ArrayBufferView, n: number) =>
  new Uint8Array(a.buffer, a.byteOffset, n * (a as Float64Array).BYTES_PER_ELEMENT);

/** The request's hash: everything the engine reads, values included (before they are transferred). */
export function trainingKey(req: TrainRequest): string {
  const h = crypto.createHash('sha256');
  const { data, artifactFile: _a, evidenceFile: _e, baseArtifactFile, ...settings } = req;
  h.update(JSON.stringify({ ...settings, columns: data.columns, rows: data.rowCount }));
  for (const col of data.data) {
    h.update(`\0${col.kind}\0`);
    switch (col.kind) {
      case 'number':
        h.update(bytes(col.values, data.rowCount));
        h.update(col.nulls ? bytes(col.nulls, data.rowCount) : 'no-nulls');
        break;
      case 'boolean':
        h.update(bytes(col.values, data.rowCount));
        break;
      case 'text':
        h.update(bytes(col.codes, data.rowCount));
        h.update(JSON.stringify(col.dict));
        break;
      case 'mixed':
        h.update(JSON.stringify(col.values.slice(0, data.rowCount)));
        break;
      case 'null':
        break;
    }
  }
  if (baseArtifactFile) h.update(fs.readFileSync(baseArtifactFile));
  return h.digest('hex');
}

export class TrainingCache {
  private readonly models: RegExp | null;

  /** `models`: only models whose name this regular expression matches use the cache. */
  constructor(
    private readonly dir: string,
    models: string | null = null,
  ) {
    this.models = models === null ? null : new RegExp(models);
  }

  /** Whether trainings of this model use the cache. */
  covers(model: string): boolean {
    return this.models === null || this.models.test(model);
  }

  /**
   * Writes a cached training's files where the request wants them and returns its accuracies, or
   * null when this request was never trained.
   */
  restore(key: string, req: TrainRequest): Meta | null {
    const entry = path.join(this.dir, key);
    let meta: Meta;
    try {
      meta = JSON.parse(fs.readFileSync(path.join(entry, META), 'utf8')) as Meta;
    } catch {
      return null;
    }
    // The evidence first, as the worker writes it: an artifact on disk means its version is whole.
    const evidence = path.join(entry, EVIDENCE);
    if (fs.existsSync(evidence)) writeFileAtomic(req.evidenceFile, fs.readFileSync(evidence));
    writeFileAtomic(req.artifactFile, fs.readFileSync(path.join(entry, ARTIFACT)));
    // One line per reuse (appends of one short line are atomic): the suite reports the count.
    fs.appendFileSync(path.join(this.dir, HITS), `${key}\n`);
    return meta;
  }

  /**
   * The cached training of this request, or the right to train it: while another job (of any
   * process sharing the folder) trains the same request, this one waits for its entry instead of
   * training it a second time. A claim is released (`release`) after `store`; a holder that died
   * leaves a lock naming a process that is gone, which is taken over. `signal` ends the wait.
   */
  async acquire(
    key: string,
    req: TrainRequest,
    signal: AbortSignal,
  ): Promise<{ hit: Meta } | { claim: string | null }> {
    const lock = path.join(this.dir, `${key}.lock`);
    for (;;) {
      const hit = this.restore(key, req);
      if (hit) return { hit };
      if (signal.aborted) return { claim: null };
      try {
        fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
        return { claim: lock };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return { claim: null };
      }
      if (!holderAlive(lock)) {
        fs.rmSync(lock, { force: true });
        continue;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  release(claim: string): void {
    fs.rmSync(claim, { force: true });
  }

  /** Keeps a finished training's files under its key (best effort: a failure only costs time). */
  store(key: string, req: TrainRequest, meta: Meta): void {
    const entry = path.join(this.dir, key);
    if (fs.existsSync(entry)) return;
    const tmp = `${entry}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    try {
      fs.mkdirSync(tmp, { recursive: true });
      fs.copyFileSync(req.artifactFile, path.join(tmp, ARTIFACT));
      if (fs.existsSync(req.evidenceFile))
        fs.copyFileSync(req.evidenceFile, path.join(tmp, EVIDENCE));
      fs.writeFileSync(path.join(tmp, META), JSON.stringify(meta));
      fs.renameSync(tmp, entry);
    } catch {
      // Another process stored the same key first, or the disk is full: the next training runs.
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
}

/** Whether the process named in a lock file runs (a lock being written counts as held). */
function holderAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(lock, 'utf8'));
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
