/**
 * What the monitoring views read of a complete version besides its predictor: a sample of its
 * training data (the drift reference, the frame partial dependence averages over) and every
 * category training saw (from the artifact's encoders). Read once per version and cached.
 *
 * The training sample is the one kept with the version; a version trained before samples were
 * kept gets a deterministic sample of its FROM query's rows as they are now (said in the report).
 */
import fs from 'node:fs';
import { deserializeArtifact, knownCategories } from '../../automl/index';
import type { ModelRegistry } from '../registry';
import type { ModelVersionRecord } from '../store';
import { type DataAccess, type Sample, querySample } from './data';

/** Rows of the training sample read from a FROM query when the version kept none. */
const REFERENCE_SAMPLE_ROWS = 5000;

export interface TrainingEvidence {
  sample: Sample;
  /** Where the sample came from: kept at training, or read again from the FROM query. */
  source: 'kept' | 'query';
  /** Category keys training saw, per categorical input. */
  known: Record<string, string[]>;
}

const key = (r: ModelVersionRecord) => `${r.project}/${r.name}/${r.version}`.toLowerCase();

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
    const sample = await querySample(
      this.access,
      { db: rec.fromDb, query: rec.selectQuery },
      REFERENCE_SAMPLE_ROWS,
      `The FROM query of '${rec.project}.${rec.name}' version ${rec.version}`,
    );
    return { sample, source: 'query', known: knownCategories(artifact) };
  }
}
