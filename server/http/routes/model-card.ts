/**
 * The model card route: one self-contained HTML page about a complete model version, for handing
 * over or printing (issue 17). The page itself is built by the model layer
 * (`server/models/card/`); this file maps HTTP onto it.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ModelCardHtml, ModelCardQuery, ModelPathParams } from '../../../contract';
import type { Instance } from '../../instance';
import { answer, ERROR_RESPONSES, problem } from '../responses';
import { modelRef } from './models';

export const modelCardRoutes: FastifyPluginAsyncZod<{ instance: Instance }> = async (
  app,
  { instance },
) => {
  app.route({
    method: 'GET',
    url: '/api/projects/:project/models/:model/card',
    schema: {
      operationId: 'modelCard',
      tags: ['models'],
      summary: 'A model card: one self-contained HTML page',
      description:
        'What the model predicts and from which data (its FROM query), its metrics against a baseline in plain words, an input-importance chart, warnings, versions, training time and date. Inline CSS and SVG only: no script, no external URL, print-friendly. `?download=1` adds `Content-Disposition: attachment; filename="<project>.<model>.v<N>.html"`.',
      params: ModelPathParams,
      querystring: ModelCardQuery,
      response: {
        200: answer('The card', ModelCardHtml, 'text/html; charset=utf-8'),
        400: problem('A bad `download` value'),
        401: ERROR_RESPONSES.unauthorized,
        404: ERROR_RESPONSES.notFound,
        409: problem(
          'The model is not `complete`: still generating/training (the message gives its status and phase) or failed (the message gives its error)',
        ),
      },
    },
    handler: async (req, reply) => {
      const card = await instance.models.card(modelRef(req.params));
      const download = req.query.download;
      if (download === '1' || download === 'true') {
        // The name is built from validated project/model names (letters, digits, underscores).
        reply.header('content-disposition', `attachment; filename="${card.fileName}"`);
      }
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(card.html);
    },
  });
};
