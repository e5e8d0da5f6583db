/**
 * Authentication, off by default and on when AUTH_USERNAME and AUTH_PASSWORD are set.
 *
 * - `POST /api/login {username, password}` checks the credentials in constant time and sets a
 *   signed, expiring session token as the `session` cookie (HttpOnly, SameSite=Lax), the cookie
 *   name the spec gives for hosted deployments; the token is also returned for scripts, which send
 *   it as `Authorization: Bearer <token>`.
 * - `POST /api/logout` revokes the token and clears the cookie.
 * - Every other /api route (and the /v1/api prefix form) answers 401 without a valid token, except
 *   `GET /api/status`, which says whether auth is on and whether this request is authenticated.
 * - Failed login attempts are rate-limited per client address (@fastify/rate-limit).
 *
 * Tokens are `base64url(payload).base64url(hmac-sha256(payload))`, payload `{u, exp, jti}`.
 */
import crypto from 'node:crypto';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authEnabled, type Config } from '../config';
import { ERROR_CODES, ServiceError } from '../errors';
import { parseBody } from './validate';

export const LoginRequest = z.object({
  username: z.string({ error: 'username must be a string' }).min(1, 'username is required'),
  password: z.string({ error: 'password must be a string' }).min(1, 'password is required'),
});

const digest = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest();
/** Equal-length digests make the comparison constant-time whatever the input lengths. */
const safeEqual = (a: string, b: string) => crypto.timingSafeEqual(digest(a), digest(b));

export class SessionTokens {
  private readonly key: Buffer;
  private readonly revoked = new Map<string, number>();

  constructor(
    secret: string | undefined,
    private readonly ttlSeconds: number,
  ) {
    this.key = secret ? digest(secret) : crypto.randomBytes(32);
  }

  issue(username: string): { token: string; expiresAt: number } {
    const exp = Math.floor(Date.now() / 1000) + this.ttlSeconds;
    const payload = Buffer.from(
      JSON.stringify({ u: username, exp, jti: crypto.randomBytes(9).toString('base64url') }),
    ).toString('base64url');
    return { token: `${payload}.${this.sign(payload)}`, expiresAt: exp };
  }

  private sign(payload: string) {
    return crypto.createHmac('sha256', this.key).update(payload).digest('base64url');
  }

  /** The username of a valid, unexpired, unrevoked token, or null. */
  verify(token: string | undefined): string | null {
    if (!token) return null;
    const dot = token.indexOf('.');
    if (dot <= 0) return null;
    const payload = token.slice(0, dot);
    const sig = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(this.sign(payload));
    if (sig.length !== expected.length || !crypto.timingSafeEqual(sig, expected)) return null;
    try {
      const p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
        u: string;
        exp: number;
        jti: string;
      };
      if (typeof p.exp !== 'number' || p.exp * 1000 < Date.now()) return null;
      if (this.revoked.has(p.jti)) return null;
      return p.u;
    } catch {
      return null;
    }
  }

  revoke(token: string | undefined) {
    if (!token) return;
    const dot = token.indexOf('.');
    try {
      const p = JSON.parse(Buffer.from(token.slice(0, dot), 'base64url').toString('utf8')) as {
        jti: string;
        exp: number;
      };
      this.revoked.set(p.jti, p.exp);
      const now = Date.now() / 1000;
      for (const [k, exp] of this.revoked) if (exp < now) this.revoked.delete(k);
    } catch {
      // not a token of ours: nothing to revoke
    }
  }
}

const PUBLIC_ROUTES = new Set(['GET /api/status', 'POST /api/login', 'POST /api/logout']);

function tokenOf(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (h?.startsWith('Bearer ')) return h.slice(7).trim();
  return req.cookies?.session;
}

export interface AuthState {
  enabled: boolean;
  /** Whether this request carries a valid session (always true when auth is off). */
  confirmed(req: FastifyRequest): boolean;
}

export async function registerAuth(app: FastifyInstance, config: Config): Promise<AuthState> {
  await app.register(cookie);
  const enabled = authEnabled(config);
  const tokens = new SessionTokens(config.AUTH_SECRET, config.SESSION_TTL_SECONDS);
  const state: AuthState = {
    enabled,
    confirmed: (req) => !enabled || tokens.verify(tokenOf(req)) !== null,
  };

  await app.register(rateLimit, { global: false });

  app.post(
    '/api/login',
    {
      config: {
        rateLimit: {
          max: config.LOGIN_ATTEMPTS_PER_MINUTE,
          timeWindow: 60_000,
          errorResponseBuilder: (_req, ctx) =>
            new ServiceError(
              ERROR_CODES.UNAUTHORIZED,
              `Too many login attempts; try again in ${Math.ceil(ctx.ttl / 1000)} s`,
              429,
            ),
        },
      },
    },
    async (req, reply) => {
      if (!enabled) {
        return { ok: true, auth: 'disabled' };
      }
      const body = parseBody(LoginRequest, req.body);
      const userOk = safeEqual(body.username, config.AUTH_USERNAME!);
      const passOk = safeEqual(body.password, config.AUTH_PASSWORD!);
      if (!(userOk && passOk)) {
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
      return { ok: true, token, expires_at: new Date(expiresAt * 1000).toISOString() };
    },
  );

  app.post('/api/logout', async (req, reply) => {
    tokens.revoke(tokenOf(req));
    reply.clearCookie('session', { path: '/' });
    return { ok: true };
  });

  if (enabled) {
    app.addHook('onRequest', async (req) => {
      const path = req.url.split('?')[0].replace(/^\/v1\/api(?=\/api\/)/, '');
      if (!path.startsWith('/api/')) return;
      if (PUBLIC_ROUTES.has(`${req.method} ${path}`)) return;
      if (tokens.verify(tokenOf(req)) === null) {
        throw new ServiceError(
          ERROR_CODES.UNAUTHORIZED,
          'Authentication required: log in with POST /api/login or send Authorization: Bearer <token>',
        );
      }
    });
  }
  return state;
}
