/**
 * The evaluation routes (docs/evaluation.md): the views of a complete version computed from the
 * evidence it kept at training, and the two actions they lead to (serve another candidate, save a
 * threshold), each a new version so it can be undone. Thin: the model layer's ModelEvaluation
 * decides everything; this file maps HTTP onto it.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CalibrationView,
  EvaluationQuery,
  EvaluationSummary,
  GroupsView,
  IntervalsView,
  Leaderboard,
  ModelInfo,
  ModelPathParams,
  SaveThresholdRequest,
  ServeRequest,
  SlicesView,
  ThresholdView,
} from '../../../contract';
import type { Instance } from '../../instance';
import { answer, ERROR_RESPONSES, problem } from '../responses';
import { modelInfo, modelRef } from './models';

const notReady = problem(
  'The model is not `complete`: still generating/training (the message gives its status and phase) or failed (the message gives its error)',
);
const errors = {
  400: problem(
    'A bad parameter, a view that does not apply to this model (the message says why), or a version without evidence ("retrain it to see this")',
  ),
  401: ERROR_RESPONSES.unauthorized,
  404: ERROR_RESPONSES.notFound,
  409: notReady,
};
const base = '/api/projects/:project/models/:model/evaluation';

export const evaluationRoutes: FastifyPluginAsyncZod<{ instance: Instance }> = async (
  app,
  { instance },
) => {
  const ev = instance.models.evaluation;
  const view = <S extends Parameters<typeof answer>[1]>(
    path: string,
    operationId: string,
    summary: string,
    description: string,
    schema: S,
  ) => ({
    method: 'GET' as const,
    url: `${base}${path}`,
    schema: {
      operationId,
      tags: ['evaluation'],
      summary,
      description,
      params: ModelPathParams,
      querystring: EvaluationQuery,
      response: { 200: answer(summary, schema), ...errors },
    },
  });

  app.route({
    ...view(
      '',
      'evaluationSummary',
      'What can be asked of a model version',
      'Which views apply (and why not), the held-out rows kept, the columns that can be grouped or sliced by (in the model or not), the default positive class and the saved threshold. A version without evidence answers `available: false` with the reason.',
      EvaluationSummary,
    ),
    handler: (req) => ev.summary(modelRef(req.params)),
  });
  app.route({
    ...view(
      '/leaderboard',
      'evaluationLeaderboard',
      'Every candidate the AutoML trained',
      "Each candidate's score on held-out rows on the model's metric and one more, fit time, predict speed, size, which one serves, the `USING model` value that makes it serve, and the model's warnings.",
      Leaderboard,
    ),
    handler: (req) => ev.leaderboard(modelRef(req.params)),
  });
  app.route({
    ...view(
      '/threshold',
      'evaluationThreshold',
      'Threshold and cost: ROC, precision-recall, gains, and counts per threshold',
      'For `?positive=<class>` (default: the saved one, else the rarer class): held-out counts per 0.001 probability step (the confusion matrix at any threshold, contract/threshold.ts), ROC and precision-recall curves with their areas, cumulative gains, the threshold the model decides with now, and the saved one. Multiclass: each class against the rest.',
      ThresholdView,
    ),
    handler: (req) => ev.threshold(modelRef(req.params), req.query.positive),
  });
  app.route({
    ...view(
      '/calibration',
      'evaluationCalibration',
      'Reliability diagram of the predicted probabilities',
      'Mean predicted probability against the observed share per probability bin, the Brier score and the expected calibration error; binary: of `?positive=`, multiclass: of the predicted class.',
      CalibrationView,
    ),
    handler: (req) => ev.calibration(modelRef(req.params), req.query.positive),
  });
  app.route({
    ...view(
      '/intervals',
      'evaluationIntervals',
      'Interval audit: coverage and width against the promised level',
      'Achieved coverage and mean width overall, per decile of the predicted value, per forecast step (time series) and per segment of `?column=`, with the held-out rows that fell outside (the farthest first).',
      IntervalsView,
    ),
    handler: (req) => ev.intervals(modelRef(req.params), req.query.column),
  });
  app.route({
    ...view(
      '/slices',
      'evaluationSlices',
      'Where the model is wrong',
      "Slices with the highest error found by a shallow tree over the held-out rows' columns (`?depth=` 1-4, default 3), each with its error rate (classifiers) or mean absolute error (regression), size, share of all errors, and a query to open in the editor. `?where=<SQL condition>` judges that WHERE on the same rows (`asked`).",
      SlicesView,
    ),
    handler: (req) =>
      ev.slices(modelRef(req.params), { depth: req.query.depth, where: req.query.where }),
  });
  app.route({
    ...view(
      '/groups',
      'evaluationGroups',
      'For whom: metrics per group of any column',
      "Per group of `?column=` (in the model or not; numbers in quantile ranges): accuracy, true- and false-positive rate, selection rate and their ratios to the best-off group against the four-fifths rule (classifiers, at `?threshold=` or the model's decision, for `?positive=`), MAE and bias (regression), and warnings for groups too small to judge.",
      GroupsView,
    ),
    handler: (req) =>
      ev.groups(modelRef(req.params), {
        column: req.query.column,
        threshold: req.query.threshold,
        positive: req.query.positive,
      }),
  });

  const created = answer(
    'The new version (a new version: activating the previous one undoes the change)',
    ModelInfo,
  );
  app.route({
    method: 'POST',
    url: `${base}/serve`,
    schema: {
      operationId: 'evaluationServe',
      tags: ['evaluation'],
      summary: 'Make another candidate serve',
      description:
        "Trains a new version with `USING model = '<candidate>'` (RETRAIN), which becomes active once complete; the other candidates stay on its leaderboard.",
      params: ModelPathParams,
      body: ServeRequest,
      response: {
        202: created,
        ...errors,
        409: problem('The model is not complete, or is training already'),
        415: ERROR_RESPONSES.unsupportedType,
      },
    },
    handler: async (req, reply) => {
      const rec = await ev.serve(modelRef(req.params), req.body.candidate);
      return reply.code(202).send(modelInfo(instance.models, rec));
    },
  });
  app.route({
    method: 'POST',
    url: `${base}/threshold`,
    schema: {
      operationId: 'evaluationSaveThreshold',
      tags: ['evaluation'],
      summary: 'Save a threshold with a binary classifier',
      description:
        'A new complete, active version (no retraining) that predicts `positive` when its probability is at least `threshold`; its payoff matrix and currency are kept for the card. Predictions, DESCRIBE and the card use it and say so. The same as `RETRAIN ... USING threshold = t, positive_class = c`.',
      params: ModelPathParams,
      body: SaveThresholdRequest,
      response: {
        201: created,
        ...errors,
        415: ERROR_RESPONSES.unsupportedType,
      },
    },
    handler: async (req, reply) => {
      const rec = await ev.saveThreshold(modelRef(req.params), req.body);
      return reply.code(201).send(modelInfo(instance.models, rec));
    },
  });
};
