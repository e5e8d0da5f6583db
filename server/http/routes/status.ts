/** GET /api/status: what the playground shows in its connection indicator. */
import type { FastifyInstance } from 'fastify';
import { VERSION, type Instance } from '../../instance';

export function statusRoutes(app: FastifyInstance, _instance: Instance) {
  app.get('/api/status', async () => ({
    version: VERSION,
    environment: 'local',
    provider: 'sql-model-playground',
    auth: { http_auth_enabled: false, confirmed: true, provider: 'disabled' },
  }));
}
