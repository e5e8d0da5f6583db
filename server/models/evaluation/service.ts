/**
 * Questioning a model (docs/evaluation.md): each evaluation view of a complete version, from its
 * evidence (views.ts), and the two actions they lead to, both new versions so they can be undone:
 * serving another candidate (a RETRAIN with `USING model`) and saving a threshold (a copy of the
 * version whose decision uses it, no retraining). The registry owns one and lends it what it
 * needs through `EvaluationSource` (this folder imports no registry code).
 */
import type {
  EvaluationSummary,
  GroupsView,
  Leaderboard,
  SaveThresholdRequest,
  SlicesView,
  ThresholdView,
} from '../../../contract/evaluation';
import type { z } from 'zod';
import {
  type ModelDescription,
  type ModelEvidence,
  type Predictor,
  descriptionWarnings,
} from '../../automl/index';
import type { Engine } from '../../engine/duckdb';
import { badInput } from '../../errors';
import type { ModelVersionRecord } from '../store';
import type { CardEvaluation } from '../card/evaluation';
import * as views from './views';
import { HeldOutTables } from './where';

export interface EvaluationRef {
  project: string;
  name: string;
  version?: number;
}

/** What the evaluation needs of the registry. */
export interface EvaluationSource {
  ready(ref: EvaluationRef): ModelVersionRecord;
  predictor(rec: ModelVersionRecord): Promise<Predictor>;
  evidence(ref: EvaluationRef): Promise<ModelEvidence | null>;
  retrain(
    ref: EvaluationRef,
    spec: { using: Record<string, unknown>; tag?: string | null },
  ): Promise<ModelVersionRecord>;
  /** A new complete version from `base`'s artifact and evidence, changed by `change`. */
  deriveVersion(
    base: ModelVersionRecord,
    using: Record<string, unknown>,
    change: { threshold: number; positive: string | number | boolean },
  ): Promise<ModelVersionRecord>;
}

const quoteName = (s: string) =>
  /^[a-z_][a-z0-9_]*$/.test(s) ? s : `\`${s.replace(/`/g, '``')}\``;

/** The query a slice opens in the editor: the model's training source with its predictions. */
function sliceQuery(rec: ModelVersionRecord, where: string): string {
  const model = `${quoteName(rec.project)}.${quoteName(rec.name)}`;
  const t = quoteName(rec.target);
  const pred = quoteName(`predicted_${rec.target.toLowerCase()}`);
  return [
    `-- A slice of ${rec.project}.${rec.name} (version ${rec.version}): its error was measured on held-out rows;`,
    `-- this query predicts every row of the model's training source where the WHERE holds. Edit the WHERE.`,
    `SELECT *`,
    `FROM (`,
    `  SELECT t.*, m.${t} AS ${pred}`,
    `  FROM ${quoteName(rec.fromDb)} (${rec.selectQuery.trim().replace(/;\s*$/, '')}) AS t`,
    `  JOIN ${model} AS m`,
    `) AS s`,
    `WHERE ${where};`,
  ].join('\n');
}

/** Inputs a card groups by unless told: text-valued categories with 2 to 8 values (at most 4). */
function defaultGroupColumns(e: ModelEvidence, inputs: string[]): string[] {
  const rows = e.heldOut.rows;
  return rows.columns
    .filter((c, j) => {
      const col = rows.data[j];
      return (
        inputs.includes(c) && col.kind === 'text' && col.dict.length >= 2 && col.dict.length <= 8
      );
    })
    .slice(0, 4);
}

/** The saved decision of a version, from its USING options. */
function savedThreshold(rec: ModelVersionRecord, d: ModelDescription): EvaluationSummary['saved'] {
  const t = d.decision?.threshold;
  if (!t) return null;
  const payoff = rec.using.payoff as { tp: number; fp: number; tn: number; fn: number } | undefined;
  const ok =
    payoff &&
    typeof payoff === 'object' &&
    ['tp', 'fp', 'tn', 'fn'].every(
      (k) => typeof (payoff as Record<string, unknown>)[k] === 'number',
    );
  return {
    threshold: t.value,
    positive: t.positive,
    payoff: ok ? { tp: payoff.tp, fp: payoff.fp, tn: payoff.tn, fn: payoff.fn } : null,
    currency: typeof rec.using.currency === 'string' ? rec.using.currency : null,
  };
}

/** Results kept per evidence (so per version): a presenter asks the same views again and again. */
const MEMO_KEPT = 64;

export class ModelEvaluation {
  private readonly heldOut: HeldOutTables;
  /**
   * Each view's answer, kept with the evidence it was computed from: a version never changes, and
   * the evidence cache (evidence-store.ts) bounds how many versions stay, so this is bounded too.
   */
  private readonly memo = new WeakMap<ModelEvidence, Map<string, unknown>>();

  constructor(
    private readonly source: EvaluationSource,
    engine: Engine,
  ) {
    this.heldOut = new HeldOutTables({ timeoutMs: engine.defaults.timeoutMs });
  }

  /** `compute()`'s answer for `key` on this evidence, computed once (errors are not kept). */
  private once<T>(e: ModelEvidence, key: string, compute: () => T): T {
    let m = this.memo.get(e);
    if (!m) this.memo.set(e, (m = new Map()));
    if (m.has(key)) return m.get(key) as T;
    const v = compute();
    m.set(key, v);
    if (m.size > MEMO_KEPT) m.delete(m.keys().next().value!);
    return v;
  }

  close(): Promise<void> {
    return this.heldOut.close();
  }

  private async load(ref: EvaluationRef) {
    const rec = this.source.ready(ref);
    const description = (await this.source.predictor(rec)).description;
    const evidence = await this.source.evidence({ ...ref, version: rec.version });
    const x: views.ViewContext = {
      version: rec.version,
      description,
      warnings: descriptionWarnings(description),
      saved: savedThreshold(rec, description),
      sliceSql: (where) => sliceQuery(rec, where),
    };
    return { rec, evidence, x };
  }

  /** The evidence, or a BAD_INPUT saying to retrain (older versions have none). */
  private async need(ref: EvaluationRef) {
    const l = await this.load(ref);
    if (!l.evidence) {
      throw badInput(
        `Model '${l.rec.project}.${l.rec.name}' version ${l.rec.version} kept no evaluation evidence (it was trained before evidence was kept, or finetuned): retrain it to see this`,
      );
    }
    return { ...l, evidence: l.evidence };
  }

  async summary(ref: EvaluationRef): Promise<EvaluationSummary> {
    const { evidence, x } = await this.load(ref);
    return views.summary(evidence, x);
  }

  async leaderboard(ref: EvaluationRef): Promise<Leaderboard> {
    const { evidence, x } = await this.need(ref);
    return this.once(evidence, 'leaderboard', () => views.leaderboard(evidence, x));
  }

  async threshold(ref: EvaluationRef, positive?: string): Promise<ThresholdView> {
    const { evidence, x } = await this.need(ref);
    return this.once(evidence, `threshold\0${positive ?? ''}`, () =>
      views.threshold(evidence, x, positive),
    );
  }

  async calibration(ref: EvaluationRef, positive?: string) {
    const { evidence, x } = await this.need(ref);
    return this.once(evidence, `calibration\0${positive ?? ''}`, () =>
      views.calibration(evidence, x, positive),
    );
  }

  async intervals(ref: EvaluationRef, column?: string) {
    const { evidence, x } = await this.need(ref);
    return this.once(evidence, `intervals\0${column ?? ''}`, () =>
      views.intervals(evidence, x, column),
    );
  }

  async slices(
    ref: EvaluationRef,
    opts: { depth?: number; where?: string } = {},
  ): Promise<SlicesView> {
    const { evidence, x } = await this.need(ref);
    const tree = this.once(evidence, `slices\0${opts.depth ?? ''}`, () =>
      views.slices(evidence, x, { depth: opts.depth }),
    );
    if (!opts.where) {
      this.heldOut.prepare(evidence);
      return tree;
    }
    const where = opts.where.trim();
    const mask = await this.heldOut.mask(evidence, where);
    return { ...tree, asked: views.askedSlice(evidence, x, where, mask) };
  }

  async groups(
    ref: EvaluationRef,
    opts: { column?: string; threshold?: number; positive?: string },
  ): Promise<GroupsView> {
    if (!opts.column) throw badInput('Name the column to group by: ?column=<name>');
    const { evidence, x } = await this.need(ref);
    const key = `groups\0${opts.column}\0${opts.threshold ?? ''}\0${opts.positive ?? ''}`;
    return this.once(evidence, key, () =>
      views.groups(evidence, x, { ...opts, column: opts.column! }),
    );
  }

  /**
   * What the model card shows (server/models/card/evaluation.ts): every view that applies, and
   * "for whom" by `groups` (default: the text-valued inputs with 2 to 8 values, at most 4).
   */
  async card(
    ref: EvaluationRef,
    opts: { groups?: string[]; threshold?: number } = {},
  ): Promise<CardEvaluation> {
    const { evidence, x } = await this.load(ref);
    const summary = views.summary(evidence, x);
    const none = { leaderboard: null, threshold: null, shown: null, intervals: null, slices: null };
    if (!evidence) return { summary, ...none, groups: [] };
    const classifier = evidence.task !== 'regression';
    const binary = evidence.task === 'binary';
    const at = binary && opts.threshold !== undefined ? { threshold: opts.threshold } : {};
    const columns = opts.groups ?? defaultGroupColumns(evidence, x.description.inputs);
    return {
      summary,
      leaderboard: views.leaderboard(evidence, x),
      threshold: classifier ? views.threshold(evidence, x) : null,
      shown: binary ? (opts.threshold ?? null) : null,
      intervals: classifier ? null : views.intervals(evidence, x),
      slices: views.slices(evidence, x),
      groups: columns.map((column) => views.groups(evidence, x, { column, ...at })),
    };
  }

  /** A new version served by the candidate `using` names (trained again: RETRAIN USING model). */
  async serve(ref: EvaluationRef, candidate: string): Promise<ModelVersionRecord> {
    const { rec, evidence } = await this.need(ref);
    const c = evidence.candidates.find((k) => k.using === candidate.toLowerCase());
    if (!c) {
      const names = evidence.candidates.flatMap((k) =>
        k.using ? [`'${k.using}' (${k.name})`] : [],
      );
      throw badInput(
        `No candidate '${candidate}' to serve; this model's candidates are: ${names.join(', ')}`,
      );
    }
    return this.source.retrain(
      { project: rec.project, name: rec.name },
      { using: { ...rec.using, model: c.using }, tag: rec.tag },
    );
  }

  /** A new version deciding with `threshold` on the positive class (its payoff kept with it). */
  async saveThreshold(
    ref: EvaluationRef,
    body: z.infer<typeof SaveThresholdRequest>,
  ): Promise<ModelVersionRecord> {
    const { rec, evidence, x } = await this.need(ref);
    if (evidence.task !== 'binary') {
      throw badInput(
        `A threshold decides between two classes; model '${rec.project}.${rec.name}' predicts one of ${evidence.classes?.length ?? 0}`,
      );
    }
    const k = views.positiveIndex(
      evidence,
      body.positive === undefined ? undefined : String(body.positive),
      x.saved,
    );
    const positive = evidence.classes![k];
    const using: Record<string, unknown> = {
      ...rec.using,
      threshold: body.threshold,
      positive_class: positive,
    };
    delete using.payoff;
    delete using.currency;
    if (body.payoff) using.payoff = body.payoff;
    if (body.currency) using.currency = body.currency;
    return this.source.deriveVersion(rec, using, { threshold: body.threshold, positive });
  }
}
