/**
 * The model REST endpoints: the spec's predict (operation 2) and describe (operation 3), also under
 * the spec's `/v1/api` prefix, plus the model listing, lookup and DELETE that the real service and
 * the playground's explorer use (docs/DESIGN.md 3.2-3.4). Thin: every decision about models (casting,
 * readiness, versions) is the ModelRegistry's; this file maps HTTP onto it.
 *
 * A `{model}` path segment may carry a version (`home_rentals_model.2`), as in MindsDB, where
 * model names cannot contain dots.
 */
import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DescribeRequest,
  DescribeResponse,
  ModelDetail,
  ModelList,
  ModelPathParams,
  PredictRequest,
  PredictResponse,
  PredictRows,
  ProjectPathParams,
  type ModelInfo,
} from '../../../contract';
import { MODEL_COLUMNS } from '../../models/models-table';
import type { ModelRef, ModelRegistry } from '../../models/registry';
import type { ModelVersionRecord } from '../../models/store';
import { ERROR_CODES, ServiceError, badInput } from '../../errors';
import type { Instance } from '../../instance';
import { sendJsonPieces } from '../json-stream';
import { RowColumns } from '../row-columns';
import { answer, ERROR_RESPONSES, problem } from '../responses';
import { issueMessages, validate } from '../validate';

const notReady = problem(
  'The model is not `complete`: still generating/training (the message gives its status and phase) or failed (the message gives its error)',
);

/** `{project, model}` path parameters -> a registry reference; `name.3` names version 3. */
export function modelRef(params: { project: string; model: string }): ModelRef {
  const m = /^(.+)\.(\d+)$/.exec(params.model);
  return m
    ? { project: params.project, name: m[1], version: Number(m[2]) }
    : { project: params.project, name: params.model };
}

/** MindsDB's REST names for two of the models-table columns (see ModelInfo in the contract). */
const REST_NAMES: Record<string, string> = {
  select_data_query: 'fetch_data_query',
  training_options: 'problem_definition',
};

/**
 * MindsDB's `id` of a model version: a 48-bit integer from the version's identity (project, name,
 * version, creation time), so it is the same on every start and a model created again under the
 * same name gets a new one. The store keeps no counter, and this needs none.
 */
function modelId(rec: ModelVersionRecord): number {
  const key = [rec.project, rec.name, rec.version, rec.createdAt].join('\0');
  return crypto.createHash('sha256').update(key).digest().readUIntBE(0, 6);
}

/**
 * A version as the REST endpoints show it: the same values as its row of `<project>.models` (so
 * SQL and REST never disagree), keys in lower case, TRAINING_OPTIONS as an object, and MindsDB's
 * `id`, `update` and `engine_name`.
 */
export function modelInfo(models: ModelRegistry, rec: ModelVersionRecord): ModelInfo {
  const row = models.row(rec);
  const out: Record<string, unknown> = { id: modelId(rec) };
  MODEL_COLUMNS.forEach((c, i) => {
    const key = c.name.toLowerCase();
    const v = row[i];
    out[REST_NAMES[key] ?? key] =
      key === 'training_options' && typeof v === 'string' ? JSON.parse(v) : v;
  });
  out.update = out.update_status;
  out.engine_name = out.engine;
  out.accuracy_metric = rec.status === 'complete' ? (rec.accuracyMetric ?? null) : null;
  return out as ModelInfo;
}

/**
 * A predict body as the handler gets it: its rows may have been read into columns already
 * (`rowColumns` in the route's config; ../row-columns.ts).
 */
type PredictBody =
  | PredictRequest
  | RowColumns
  | (Exclude<PredictRequest, unknown[]> & { data: PredictRequest | RowColumns });

/**
 * The rows of a predict body. The real service's `data` may be the rows as a JSON string; it is
 * validated like an inline array, with errors prefixed by `data`.
 */
function predictRows(body: PredictBody): Record<string, unknown>[] | RowColumns {
  if (body instanceof RowColumns || Array.isArray(body)) return body;
  if (body.data instanceof RowColumns) return body.data;
  if (typeof body.data !== 'string') return body.data;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.data);
  } catch (err) {
    throw badInput(`data is a string but not valid JSON: ${(err as Error).message}`);
  }
  const r = PredictRows.safeParse(parsed);
  if (!r.success)
    throw new ServiceError(
      ERROR_CODES.BAD_INPUT,
      issueMessages(r.error.issues, ['data']).join('; '),
    );
  return r.data;
}

/** `params.horizon` of the real service's envelope: the steps a time-series model forecasts. */
function forecastParams(body: PredictBody): { horizon?: number } {
  const h = Array.isArray(body) || body instanceof RowColumns ? undefined : body.params?.horizon;
  if (h === undefined || h === null) return {};
  if (typeof h !== 'number' || !Number.isInteger(h) || h < 1) {
    throw badInput(
      `params.horizon must be a whole number of steps (1 or more), got ${JSON.stringify(h)}`,
    );
  }
  return { horizon: h };
}

/**
 * MindsDB answers an unknown project, model or version with 404 before it reads the body: a route
 * hook (after the request guard, before the body is parsed) looks the model up.
 */
export const modelExists = (models: ModelRegistry) => async (req: FastifyRequest) => {
  models.get(modelRef(validate(ModelPathParams, req.params)));
};

/**
 * The model routes; registered under both `/` and the spec's `/v1/api` prefix. A `{model}` path
 * segment may carry a version (`home_rentals_model.2`).
 */
export const modelRoutes: FastifyPluginAsyncZod<{ instance: Instance }> = async (
  app,
  { instance },
) => {
  const models = instance.models;
  const exists = modelExists(models);

  app.route({
    method: 'GET',
    url: '/api/projects/:project/models',
    schema: {
      operationId: 'listModels',
      tags: ['models'],
      summary: "List a project's models, one entry per version",
      params: ProjectPathParams,
      response: {
        200: answer('Every version of every model, by name then version', ModelList),
        401: ERROR_RESPONSES.unauthorized,
        404: problem('No such project'),
      },
    },
    handler: async (req) => {
      const project = instance.catalog.requireProject(req.params.project);
      return models.list(project).map((r) => modelInfo(models, r));
    },
  });

  app.route({
    method: 'GET',
    url: '/api/projects/:project/models/:model',
    schema: {
      operationId: 'getModel',
      tags: ['models'],
      summary: 'One model: its active (or the named) version, with all versions',
      params: ModelPathParams,
      response: {
        200: answer('The version and `versions`, oldest first', ModelDetail),
        401: ERROR_RESPONSES.unauthorized,
        404: ERROR_RESPONSES.notFound,
      },
    },
    handler: async (req) => {
      const rec = models.get(modelRef(req.params));
      return {
        ...modelInfo(models, rec),
        versions: models.versions(rec.project, rec.name).map((r) => modelInfo(models, r)),
      };
    },
  });

  app.route({
    method: 'DELETE',
    url: '/api/projects/:project/models/:model',
    schema: {
      operationId: 'deleteModel',
      tags: ['models'],
      summary: 'Drop a model (every version) or one inactive version (`model.2`)',
      description:
        'Like `DROP MODEL`: a training in progress is cancelled. Dropping the active version alone is refused (400); drop the model, or activate another version first.',
      params: ModelPathParams,
      response: {
        204: z.undefined().describe('Dropped'),
        400: problem('The named version is the active one'),
        401: ERROR_RESPONSES.unauthorized,
        404: ERROR_RESPONSES.notFound,
      },
    },
    handler: async (req, reply) => {
      const ref = modelRef(req.params);
      if (ref.version === undefined) models.drop(ref);
      else models.dropVersion({ ...ref, version: ref.version });
      return reply.code(204).send();
    },
  });

  app.route({
    method: 'POST',
    url: '/api/projects/:project/models/:model/predict',
    onRequest: exists,
    config: { rowColumns: true },
    schema: {
      operationId: 'predict',
      tags: ['models'],
      summary: 'Predict with a model',
      description:
        'Body: a JSON array of row objects (`[{"sqft": 823, "location": "good"}]`), or the real service\'s `{"data": [...rows] | "<rows as a JSON string>", "params": {...}}`. `params: {"explain": true}` adds each row\'s feature contributions to `<target>_explain` (base_value + sum of feature_contributions = explained_value; see PredictionExplain); other params are accepted and ignored. Values are cast to the types the model was trained on (`"823"` -> 823). Columns the model does not know are a 400 (catches typos); columns it set aside as identifiers are fine. Supplying the target column fills `<target>_original` and `<target>_anomaly`. An empty array answers `[]`.',
      params: ModelPathParams,
      body: PredictRequest,
      response: {
        200: answer('One object per input row, in order (docs/DESIGN.md 3.2)', PredictResponse),
        400: problem(
          'Bad body, unknown column, or a value that cannot be cast (the message names column and row)',
        ),
        401: ERROR_RESPONSES.unauthorized,
        404: problem('Unknown project, model or version (checked before the body is read)'),
        409: notReady,
        413: ERROR_RESPONSES.tooLarge,
        415: ERROR_RESPONSES.unsupportedType,
      },
    },
    handler: async (req, reply) => {
      const body = req.body as PredictBody;
      const ref = modelRef(req.params);
      const rows = predictRows(body);
      if ((rows instanceof RowColumns ? rows.n : rows.length) === 0) {
        // Nothing to predict, but an unready model is still an error, not an empty success.
        models.ready(ref);
        return [];
      }
      const explain =
        !Array.isArray(body) && !(body instanceof RowColumns) && body.params?.explain === true;
      const pieces = await models.predictJson(ref, rows, { ...forecastParams(body), explain });
      // Written a piece at a time: a big answer never becomes one string.
      return sendJsonPieces(reply, pieces);
    },
  });

  app.route({
    method: 'GET',
    url: '/api/projects/:project/models/:model/describe',
    onRequest: exists,
    // A HEAD route cannot declare a body.
    exposeHeadRoute: false,
    schema: {
      operationId: 'describe',
      tags: ['models'],
      summary: 'Describe a model',
      description:
        'The attribute comes from a JSON body `{"attribute": "..."}` (spec; send `Content-Type: application/json`) or from `?attribute=` (browsers cannot send a GET body); the body wins. None: `[{accuracies, column_importances, inputs, outputs, model}]`. `info`: the same without `model`. `features`: `{column, type, encoder, role}` per column. `model`: `{name, performance, training_time, selected, accuracy_functions}` per candidate. `progress`: `{current, total, name}` (in any status).',
      params: ModelPathParams,
      querystring: DescribeRequest,
      body: DescribeRequest.optional().describe(
        'Optional: {"attribute": "info" | "features" | "model" | "progress"}',
      ),
      response: {
        200: answer('Rows of the description', DescribeResponse),
        400: problem('Unknown attribute (the message lists the allowed ones) or bad body'),
        401: ERROR_RESPONSES.unauthorized,
        404: ERROR_RESPONSES.notFound,
        409: notReady,
        413: ERROR_RESPONSES.tooLarge,
        415: ERROR_RESPONSES.unsupportedType,
      },
    },
    handler: async (req) => {
      const attribute = req.body?.attribute ?? req.query.attribute;
      // The registry's rows are the contract's DescribeResponse rows (tested against it).
      return models.describe(modelRef(req.params), attribute) as Promise<DescribeResponse>;
    },
  });
};
