/** GET /api/databases: what SHOW FULL DATABASES lists, as JSON. Never integration parameters. */
import type { FastifyInstance } from 'fastify';
import type { Instance } from '../../instance';

export function databaseRoutes(app: FastifyInstance, instance: Instance) {
  app.get('/api/databases', async () =>
    instance.catalog.listDatabases().map(({ name, type, engine }) => ({ name, type, engine })),
  );
}
