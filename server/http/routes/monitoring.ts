/**
 * Watching a model after training (issue 27): drift of today's data against the training
 * sample, feature effects and the diff between two versions or models. Registered under both `/`
 * and the spec's `/v1/api` prefix like the other model routes. Thin: the services in
 * `server/models/monitoring.ts` decide everything; SQL has the same reports as
 * `DESCRIBE m.drift|effects|diff`.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  DiffReport,
  DiffRequest,
  DriftReport,
  DriftRequest,
  EffectsQuery,
  EffectsReport,
  ModelPathParams,
} from '../../../contract';
import { notFound } from '../../errors';
import type { Instance } from '../../instance';
import { answer, ERROR_RESPONSES, problem } from '../responses';
import { modelExists, modelRef } from './models';

const notReady = problem(
  'The model is not `complete`: still generating/training (the message gives its status and phase) or failed (the message gives its error)',
);

/** What a POST that computes a report on a model from a body (drift, diff) answers. */
const computed = <S extends z.ZodType>(what: string, report: S, badRequest: string) => ({
  200: answer(what, report),
  400: problem(badRequest),
  401: ERROR_RESPONSES.unauthorized,
  404: ERROR_RESPONSES.notFound,
  409: notReady,
  413: ERROR_RESPONSES.tooLarge,
  415: ERROR_RESPONSES.unsupportedType,
});

export const monitoringRoutes: FastifyPluginAsyncZod<{ instance: Instance }> = async (
  app,
  { instance },
) => {
  const m = instance.monitoring;
  const exists = modelExists(instance.models);

  app.route({
    method: 'POST',
    url: '/api/projects/:project/models/:model/drift',
    onRequest: exists,
    schema: {
      operationId: 'computeDrift',
      tags: ['monitoring'],
      summary: "Drift of today's data against the training sample",
      description:
        "Runs `query` (today's data: any SELECT, in `db`, default the database the model trained from) and compares each input with the training sample kept with the version: population stability index over shared bins (deciles of the training values; the training categories, other, new, missing), a Kolmogorov-Smirnov test (numbers, on a 2,000-row sample of today's data) or chi-squared test (categories) with its p-value and sample sizes, the share of importance carried by drifted inputs, the shift of the predictions, never-seen categories, and a verdict (`stable`, `watch`, `retrain`) in one sentence. DuckDB bins today's rows in one statement, so memory stays bounded. The report is kept as the version's latest (GET, the model card). SQL: `DESCRIBE m.drift FROM db (SELECT ...)`.",
      params: ModelPathParams,
      body: DriftRequest,
      response: computed(
        'The drift report',
        DriftReport,
        "A bad body, or today's query failed (the message says why)",
      ),
    },
    handler: async (req) =>
      m.drift.compute(modelRef(req.params), {
        query: req.body.query,
        db: req.body.db,
        thresholds: req.body.thresholds,
      }),
  });

  app.route({
    method: 'GET',
    url: '/api/projects/:project/models/:model/drift',
    schema: {
      operationId: 'latestDrift',
      tags: ['monitoring'],
      summary: 'The latest drift report of a version',
      description:
        'The report the last POST .../drift (or SQL DESCRIBE m.drift FROM ...) computed for this version, with its date and query; 404 when none was computed yet.',
      params: ModelPathParams,
      response: {
        200: answer('The latest drift report', DriftReport),
        401: ERROR_RESPONSES.unauthorized,
        404: problem('Unknown project, model or version, or no drift report yet'),
      },
    },
    handler: async (req) => {
      const r = m.drift.latest(modelRef(req.params));
      if (!r) {
        throw notFound(
          `No drift report yet for model '${req.params.project}.${req.params.model}': POST {"query": "SELECT ..."} to this URL to compute one`,
        );
      }
      return r;
    },
  });

  app.route({
    method: 'GET',
    url: '/api/projects/:project/models/:model/effects',
    schema: {
      operationId: 'featureEffects',
      tags: ['monitoring'],
      summary: 'Feature effects: partial dependence with ICE lines',
      description:
        'For one input (`column`) or the `top` most important ones: the average prediction (classifiers: the probability of `class`, default the second of two classes or the most predicted one) as the input is set to each value of a grid (20 points between its 5th and 95th percentile, or its categories), over up to 1,000 rows of the training sample kept with the version, with one line per sampled row (ICE) and the rows at each grid value. Computed in one batch and cached per version. Forecasters answer why they have no curves. SQL: `DESCRIBE m.effects USING column = ...`.',
      params: ModelPathParams,
      querystring: EffectsQuery,
      response: {
        200: answer('The curves', EffectsReport),
        400: problem('An unknown column or class (the message lists the allowed ones)'),
        401: ERROR_RESPONSES.unauthorized,
        404: ERROR_RESPONSES.notFound,
        409: notReady,
      },
    },
    handler: async (req) => m.effects.compute(modelRef(req.params), req.query),
  });

  app.route({
    method: 'POST',
    url: '/api/projects/:project/models/:model/diff',
    onRequest: exists,
    schema: {
      operationId: 'versionDiff',
      tags: ['monitoring'],
      summary: 'What changed between two versions or models, row by row',
      description:
        "Predicts and explains the same rows with this version and `against` (a version of the same model, or another model of the project; default the previous complete version): the held-out rows kept with this version, or `query`. Answers the rows whose class flipped (classifiers) or whose prediction moved by more than a tenth of the target's spread (regression), largest first, with the inputs whose contributions moved most, where the changed rows concentrate, and one sentence. SQL: `DESCRIBE m.diff [FROM db (SELECT ...)] [USING against = ...]`.",
      params: ModelPathParams,
      body: DiffRequest,
      response: computed(
        'The diff',
        DiffReport,
        'A bad body, two models of different targets, or the query failed',
      ),
    },
    handler: async (req) =>
      m.diff.compute(modelRef(req.params), {
        against: req.body.against,
        query: req.body.query,
        db: req.body.db,
        limit: req.body.limit,
      }),
  });
};
