/**
 * Watching complete versions after training (issue 27): drift of today's data, feature effects
 * and the diff between two versions, sharing one reader of the evidence kept with each version.
 * server/instance.ts builds it beside the registry; the HTTP routes and SQL statements call it.
 */
import { DriftService } from './drift/drift';
import type { DataAccess } from './drift/data';
import { EvidenceReader } from './drift/evidence';
import { EffectsService } from './effects/service';
import type { ModelRegistry } from './registry';
import { DiffService } from './version-diff/service';

export class Monitoring {
  readonly drift: DriftService;
  readonly effects: EffectsService;
  readonly diff: DiffService;

  constructor(models: ModelRegistry, access: DataAccess) {
    const evidence = new EvidenceReader(models, access);
    this.drift = new DriftService(models, access, evidence);
    this.effects = new EffectsService(models, evidence);
    this.diff = new DiffService(models, access, evidence);
    // The model card shows the latest drift snapshot and the effects of the top inputs.
    models.cardParts.push(async (rec) => ({
      drift: this.drift.latest(rec),
      effects: await this.effects.compute(rec, { top: 3 }).catch(() => null),
    }));
  }
}
