/**
 * POST /api/login and POST /api/logout (auth.ts holds the tokens and the limiter). Login is open
 * without a session; with authentication off it answers `{"ok": true, "auth": "disabled"}` and
 * reads no body, so its body is declared only when authentication is on.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LoginRequest, LoginResponse, LogoutResponse } from '../../../contract';
import { ERROR_CODES, ServiceError } from '../../errors';
import { LoginLimiter, tokenOf, type AuthState } from '../auth';
import { answer, ERROR_RESPONSES, problem } from '../responses';

export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthState }> = async (app, { auth }) => {
  const { config, limiter, tokens } = auth;

  app.route({
    method: 'POST',
    url: '/api/login',
    config: { public: true },
    schema: {
      operationId: 'login',
      tags: ['auth'],
      summary:
        'Log in: sets the `session` cookie and returns the token for `Authorization: Bearer`',
      description:
        'When auth is disabled, answers `{"ok": true, "auth": "disabled"}` without reading the body.',
      ...(auth.enabled ? { body: LoginRequest } : {}),
      response: {
        200: answer('Logged in (or auth disabled)', LoginResponse),
        400: ERROR_RESPONSES.badInput,
        401: problem('Wrong username or password'),
        429: problem('Too many failed attempts from this address'),
      },
    },
    handler: async (req, reply) => {
      if (!auth.enabled) return { ok: true as const, auth: 'disabled' as const };
      const body = req.body as LoginRequest;
      const keys = LoginLimiter.keys(body.username, req.ip);
      const wait = limiter.retryAfter(keys);
      if (wait > 0) {
        throw new ServiceError(
          ERROR_CODES.UNAUTHORIZED,
          `Too many login attempts; try again in ${Math.ceil(wait / 1000)} s`,
          429,
        );
      }
      if (!auth.credentialsMatch(body.username, body.password)) {
        limiter.fail(keys);
        throw new ServiceError(ERROR_CODES.UNAUTHORIZED, 'Wrong username or password');
      }
      const { token, expiresAt } = tokens.issue(body.username);
      reply.setCookie('session', token, {
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        maxAge: config.SESSION_TTL_SECONDS,
        secure: req.protocol === 'https',
      });
      return {
        ok: true as const,
        token,
        expires_at: new Date(expiresAt * 1000).toISOString(),
      };
    },
  });

  app.route({
    method: 'POST',
    url: '/api/logout',
    schema: {
      operationId: 'logout',
      tags: ['auth'],
      summary: 'Revoke the session and clear the cookie',
      response: {
        200: answer('Logged out', LogoutResponse),
        401: ERROR_RESPONSES.unauthorized,
      },
    },
    handler: async (req, reply) => {
      tokens.revoke(tokenOf(req));
      reply.clearCookie('session', { path: '/' });
      return { ok: true as const };
    },
  });
};
