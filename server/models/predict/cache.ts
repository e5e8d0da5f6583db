/**
 * The predictors of complete model versions, each version's artifact read and compiled once, on
 * first use, and forgotten when the version goes away.
 */
import fs from 'node:fs';
import { deserializeArtifact, loadPredictor, type Predictor } from '../../automl/index';
import { heavyTurn } from '../../engine/turns';
import { ERROR_CODES, ServiceError } from '../../errors';
import type { ModelVersionRecord } from '../store';

const label = (r: ModelVersionRecord) => `${r.project}.${r.name}`;
const cacheKey = (r: ModelVersionRecord) => `${r.project}/${r.name}/${r.version}`.toLowerCase();

/** The predictors of complete versions, each artifact read once, on first use. */
export class PredictorCache {
  private readonly predictors = new Map<string, Promise<Predictor>>();

  /** `loaded`: called with each predictor made (the instance's thread sets how it warms). */
  constructor(private readonly loaded?: (p: Predictor) => void) {}

  get(rec: ModelVersionRecord, artifactFile: string): Promise<Predictor> {
    const key = cacheKey(rec);
    let p = this.predictors.get(key);
    if (!p) {
      p = fs.promises
        .readFile(artifactFile, 'utf8')
        .then((s) => {
          const p = loadPredictor(deserializeArtifact(s));
          this.loaded?.(p);
          return p;
        })
        .catch((err: unknown) => {
          this.predictors.delete(key);
          throw new ServiceError(
            ERROR_CODES.INTERNAL,
            `The artifact of model '${label(rec)}' version ${rec.version} cannot be loaded: ${err instanceof Error ? err.message : String(err)}`,
          );
        });
      this.predictors.set(key, p);
    }
    return p;
  }

  delete(rec: ModelVersionRecord): void {
    this.predictors.delete(cacheKey(rec));
  }
}

/**
 * Runs a warm-up's steps (Predictor.warmInSteps) on this thread one per turn of the event loop,
 * behind short requests (engine/turns.ts), until one answers true: a request waits for one step
 * (one group of trees compiled and warmed, milliseconds), never for a whole warm-up.
 */
export function stepBetweenTurns(step: () => boolean): void {
  const next = (): void => void heavyTurn().then(() => (step() ? undefined : next()));
  next();
}
