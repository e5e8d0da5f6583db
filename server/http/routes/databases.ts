/** GET /api/databases: what SHOW FULL DATABASES lists, as JSON. Never integration parameters. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DatabaseList } from '../../../contract';
import type { Instance } from '../../instance';
import { answer, ERROR_RESPONSES } from '../responses';

export const databaseRoutes: FastifyPluginAsyncZod<{ instance: Instance }> = async (
  app,
  { instance },
) => {
  app.route({
    method: 'GET',
    url: '/api/databases',
    schema: {
      operationId: 'listDatabases',
      tags: ['files'],
      summary: 'Databases as SHOW FULL DATABASES lists them (never connection parameters)',
      response: {
        200: answer('One entry per database', DatabaseList),
        401: ERROR_RESPONSES.unauthorized,
      },
    },
    handler: async () =>
      instance.catalog.listDatabases().map(({ name, type, engine }) => ({ name, type, engine })),
  });
};
