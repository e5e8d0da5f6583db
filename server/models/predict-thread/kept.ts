/**
 * Which compiled predictors the prediction thread keeps: the last few versions used, least
 * recently used first. Using a kept version only moves it to the back; its predictor is dropped
 * from the cache when it falls out of the last few, or when the instance says it was dropped.
 * (Dropping it on every use made each 4,096-row slice compile its model again: 4-10x slower
 * big predictions, measured by `npm run bench -- predict`.)
 */
import type { VersionKey } from './protocol';

/** The part of the predictor cache this needs (predict/cache.ts's PredictorCache). */
interface Evicts {
  delete(v: VersionKey): void;
}

const same = (a: VersionKey, b: VersionKey) =>
  a.project === b.project && a.name === b.name && a.version === b.version;

export class KeptVersions {
  private readonly kept: VersionKey[] = [];

  constructor(
    private readonly cache: Evicts,
    private readonly max: number,
  ) {}

  /** A slice of `v` was just predicted: keep its predictor, evicting the least recent past max. */
  use(v: VersionKey): void {
    const i = this.kept.findIndex((k) => same(k, v));
    if (i >= 0) this.kept.splice(i, 1);
    this.kept.push({ project: v.project, name: v.name, version: v.version });
    while (this.kept.length > this.max) this.forget(this.kept[0]);
  }

  /** `v` was dropped (or evicted): its compiled predictor goes. */
  forget(v: VersionKey): void {
    const i = this.kept.findIndex((k) => same(k, v));
    if (i >= 0) this.kept.splice(i, 1);
    this.cache.delete(v);
  }
}
