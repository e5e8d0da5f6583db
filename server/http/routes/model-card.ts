/**
 * The model card route: one self-contained HTML page about a complete model version, for handing
 * over or printing (issue 17). The page itself is built by the model layer
 * (`server/models/card/`); this file maps HTTP onto it.
 */
import type { FastifyInstance } from 'fastify';
import { ModelCardHtml, ModelCardQuery, ModelPathParams } from '../../../contract';
import type { Instance } from '../../instance';
import { ERROR_RESPONSES, problem, serve, V1_PREFIX, type ApiRoute } from '../route-table';
import { modelRef } from './models';

const MODEL_CARD = {
  method: 'GET',
  path: '/api/projects/{project}/models/{model}/card',
  operationId: 'modelCard',
  tag: 'models',
  summary: 'A model card: one self-contained HTML page',
  description:
    'What the model predicts and from which data (its FROM query), its metrics against a baseline in plain words, an input-importance chart, warnings, versions, training time and date. Inline CSS and SVG only: no script, no external URL, print-friendly. `?download=1` adds `Content-Disposition: attachment; filename="<project>.<model>.v<N>.html"`.',
  prefixes: [V1_PREFIX],
  params: ModelPathParams,
  query: ModelCardQuery,
  responses: {
    200: {
      description: 'The card',
      schema: ModelCardHtml,
      contentType: 'text/html; charset=utf-8',
    },
    400: { ...ERROR_RESPONSES.badInput, description: 'A bad `download` value' },
    401: ERROR_RESPONSES.unauthorized,
    404: ERROR_RESPONSES.notFound,
    409: problem(
      'The model is not `complete`: still generating/training (the message gives its status and phase) or failed (the message gives its error)',
    ),
  },
} as const satisfies ApiRoute;

export function modelCardRoutes(app: FastifyInstance, instance: Instance) {
  serve(app, MODEL_CARD, async ({ params, query }, _req, reply) => {
    const card = await instance.models.card(modelRef(params));
    if (query.download === '1' || query.download === 'true') {
      // The name is built from validated project/model names (letters, digits, underscores).
      reply.header('content-disposition', `attachment; filename="${card.fileName}"`);
    }
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(card.html);
  });
}
