/** GET /api/status: what the playground shows in its connection indicator. */
import type { FastifyInstance } from 'fastify';
import { VERSION, type Instance } from '../../instance';
import type { AuthState } from '../auth';

export function statusRoutes(app: FastifyInstance, _instance: Instance, auth: AuthState) {
  app.get('/api/status', async (req) => ({
    version: VERSION,
    environment: 'local',
    provider: 'sql-model-playground',
    auth: {
      http_auth_enabled: auth.enabled,
      confirmed: auth.confirmed(req),
      provider: auth.enabled ? 'local' : 'disabled',
    },
  }));
}
