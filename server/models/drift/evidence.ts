/**
 * What the monitoring views read of a complete version besides its predictor: the evidence kept
 * at training (docs/evaluation.md, "Evidence kept": a sample of the training data, the held-out
 * rows) and every category training saw (from the artifact's encoders: the description lists at
 * most 100). Read once per version and cached.
 *
 * A version trained before evidence was kept (or finetuned) gets a deterministic sample of its
 * FROM query's rows as they are now instead, and the reports say so.
 */
import fs from 'node:fs';
import {
  cellAt,
  deserializeArtifact,
  knownCategories,
  type CellValue,
  type ColumnarData,
} from '../../automl/index';
import type { ModelRegistry } from '../registry';
import type { ModelVersionRecord } from '../store';
import { type DataAccess, type Sample, querySample } from './data';

/** Rows of the training sample read from a FROM query when the version kept none. */
const REFERENCE_SAMPLE_ROWS = 5000;

export interface TrainingEvidence {
  sample: Sample;
  /** Where the sample came from: kept at training, or read again from the FROM query. */
  source: 'kept' | 'query';
  /** Held-out rows kept at training (inputs only), or null. */
  heldOut: Sample | null;
  /** Category keys training saw, per categorical input. */
  known: Record<string, string[]>;
}

const key = (r: ModelVersionRecord) => `${r.project}/${r.name}/${r.version}`.toLowerCase();

/** Columnar evidence rows as plain cells per column. */
function toSample(t: ColumnarData): Sample {
  const columns: Record<string, CellValue[]> = {};
  t.columns.forEach((c, j) => {
    const col = t.data[j];
    columns[c] = Array.from({ length: t.rowCount }, (_, i) => cellAt(col, i));
  });
  return { columns, n: t.rowCount };
}

/** At most `k` rows of a sample, evenly spaced (a kept sample may be in the data's order). */
export function spread(s: Sample, k: number): Sample {
  if (s.n <= k) return s;
  const at = Array.from({ length: k }, (_, j) => Math.floor(((j + 0.5) * s.n) / k));
  const columns: Record<string, CellValue[]> = {};
  for (const [c, v] of Object.entries(s.columns)) columns[c] = at.map((i) => v[i]);
  return { columns, n: k };
}

export class EvidenceReader {
  private readonly cache = new Map<string, Promise<TrainingEvidence>>();

  constructor(
    private readonly models: ModelRegistry,
    private readonly access: DataAccess,
  ) {}

  training(rec: ModelVersionRecord): Promise<TrainingEvidence> {
    const k = key(rec);
    let p = this.cache.get(k);
    if (!p) {
      p = this.read(rec).catch((err: unknown) => {
        this.cache.delete(k);
        throw err;
      });
      this.cache.set(k, p);
    }
    return p;
  }

  private async read(rec: ModelVersionRecord): Promise<TrainingEvidence> {
    const file = this.models.store.artifactFile(rec.project, rec.name, rec.version);
    const artifact = deserializeArtifact(await fs.promises.readFile(file, 'utf8'));
    const known = knownCategories(artifact);
    const kept = await this.models.evidence(rec);
    if (kept) {
      return {
        sample: toSample(kept.training.rows),
        source: 'kept',
        heldOut: toSample(kept.heldOut.rows),
        known,
      };
    }
    const sample = await querySample(
      this.access,
      { db: rec.fromDb, query: rec.selectQuery },
      REFERENCE_SAMPLE_ROWS,
      `The FROM query of '${rec.project}.${rec.name}' version ${rec.version}`,
    );
    return { sample, source: 'query', heldOut: null, known };
  }
}
