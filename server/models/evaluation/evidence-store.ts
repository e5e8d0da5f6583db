/**
 * The evidence of complete versions (docs/evaluation.md, "Evidence kept"), read from its file on
 * first use and kept for the next questions: a presenter asks several views of one model in a
 * row. A decoded 50k-row evidence holds a few megabytes, so only the latest few stay.
 */
import fs from 'node:fs';
import { type ModelEvidence, deserializeEvidence } from '../../automl/index';
import { ERROR_CODES, ServiceError } from '../../errors';
import type { ModelVersionRecord } from '../store';

/** Evidence of this many versions stays decoded (the least recently asked goes first). */
const KEPT = 4;

const keyOf = (r: ModelVersionRecord) => `${r.project}/${r.name}/${r.version}`.toLowerCase();

export class EvidenceCache {
  private readonly kept = new Map<string, Promise<ModelEvidence | null>>();

  /** The version's evidence, or null when it has none (trained before it existed, finetuned). */
  get(rec: ModelVersionRecord, file: string): Promise<ModelEvidence | null> {
    const key = keyOf(rec);
    let p = this.kept.get(key);
    if (p) {
      this.kept.delete(key);
    } else {
      p = fs.promises.readFile(file, 'utf8').then(
        (s) => {
          try {
            return deserializeEvidence(s);
          } catch (err) {
            throw new ServiceError(
              ERROR_CODES.INTERNAL,
              `The evaluation evidence of model '${rec.project}.${rec.name}' version ${rec.version} cannot be read: ${(err as Error).message}; retrain the model`,
            );
          }
        },
        (err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT') return null;
          throw err;
        },
      );
      // A failed read is not kept: the next question tries again.
      p.catch(() => this.kept.delete(key));
    }
    this.kept.set(key, p);
    while (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
    return p;
  }

  delete(rec: ModelVersionRecord): void {
    this.kept.delete(keyOf(rec));
  }
}
