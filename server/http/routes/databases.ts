/**
 * GET /api/databases: what SHOW FULL DATABASES lists, as JSON, in MindsDB's shape (`name`, `type`,
 * `id`, `engine`). Never integration parameters. MindsDB's `id` is its record's key, null for the
 * system databases; here a 48-bit integer from the database's identity (kind, name, and an
 * integration's creation time), the same on every start and new for a database created again.
 */
import crypto from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DatabaseList } from '../../../contract';
import type { Instance } from '../../instance';
import { answer, ERROR_RESPONSES } from '../responses';

const databaseId = (...identity: string[]) =>
  crypto.createHash('sha256').update(identity.join('\0')).digest().readUIntBE(0, 6);

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
    handler: async () => {
      const created = new Map(
        instance.catalog.listIntegrations().map((i) => [i.name.toLowerCase(), i.created_at]),
      );
      return instance.catalog.listDatabases().map(({ name, type, engine }) => ({
        name,
        type,
        id:
          type === 'system'
            ? null
            : databaseId(type, name.toLowerCase(), created.get(name.toLowerCase()) ?? ''),
        engine,
      }));
    },
  });
};
