/**
 * Authentication, off by default and on when AUTH_USERNAME and AUTH_PASSWORD are set.
 *
 * - `POST /api/login {username, password}` (routes/auth.ts) checks the credentials in constant
 *   time and sets a signed, expiring session token as the `session` cookie (HttpOnly,
 *   SameSite=Lax), the cookie name the spec gives for hosted deployments; the token is also
 *   returned for scripts, which send it as `Authorization: Bearer <token>`.
 * - `POST /api/logout` revokes the token and clears the cookie. Revocations are kept in
 *   `DATA_DIR/sessions/revoked.json` until the token would have expired anyway, so a logged-out
 *   token stays dead across a restart (with AUTH_SECRET set, tokens otherwise outlive one). Only a
 *   token this instance signed can be revoked, so a stream of forged tokens cannot grow the list.
 * - Which routes need a session is decided by the request guard (guard.ts) on the dispatched route.
 * - Failed logins are limited per username (from any address) and per remote address (for
 *   any username), LOGIN_ATTEMPTS_PER_MINUTE each: another process on this machine that guesses
 *   at other usernames cannot lock the real user out, and a guesser at the real username is
 *   stopped wherever it comes from.
 *
 * Tokens are `base64url(payload).base64url(hmac-sha256(payload))`, payload `{u, exp, jti}`.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readJsonFile, writeFileAtomic } from '../engine/atomic';
import { authEnabled, isLoopback, type Config } from '../config';

const digest = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest();
/** Equal-length digests make the comparison constant-time whatever the input lengths. */
const safeEqual = (a: string, b: string) => crypto.timingSafeEqual(digest(a), digest(b));

interface TokenPayload {
  u: string;
  exp: number;
  jti: string;
}

/** Most revocations kept; beyond it the ones closest to expiring go first. */
const MAX_REVOKED = 100_000;

export class SessionTokens {
  private readonly key: Buffer;
  private readonly revoked: Map<string, number>;

  /**
   * @param revokedFile where revocations persist (none: in memory only)
   */
  constructor(
    secret: string | undefined,
    private readonly ttlSeconds: number,
    private readonly revokedFile?: string,
  ) {
    this.key = secret ? digest(secret) : crypto.randomBytes(32);
    const stored = revokedFile ? readJsonFile<Record<string, number>>(revokedFile) : undefined;
    this.revoked = new Map(
      Object.entries(stored ?? {}).filter(([, exp]) => typeof exp === 'number'),
    );
    this.prune();
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

  /** The payload of a token this instance signed that has not expired (revoked or not). */
  private open(token: string | undefined): TokenPayload | null {
    if (!token) return null;
    const dot = token.indexOf('.');
    if (dot <= 0) return null;
    const payload = token.slice(0, dot);
    const sig = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(this.sign(payload));
    if (sig.length !== expected.length || !crypto.timingSafeEqual(sig, expected)) return null;
    try {
      const p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenPayload;
      if (typeof p.exp !== 'number' || typeof p.jti !== 'string') return null;
      if (p.exp * 1000 < Date.now()) return null;
      return p;
    } catch {
      return null;
    }
  }

  /** The username of a valid, unexpired, unrevoked token, or null. */
  verify(token: string | undefined): string | null {
    const p = this.open(token);
    if (!p || this.revoked.has(p.jti)) return null;
    return p.u;
  }

  /** Revokes a token this instance signed; anything else is ignored (and costs no memory). */
  revoke(token: string | undefined): void {
    const p = this.open(token);
    if (!p || this.revoked.has(p.jti)) return;
    this.revoked.set(p.jti, p.exp);
    this.prune();
    if (this.revokedFile) {
      writeFileAtomic(this.revokedFile, JSON.stringify(Object.fromEntries(this.revoked)));
    }
  }

  get revokedCount(): number {
    return this.revoked.size;
  }

  private prune() {
    const now = Date.now() / 1000;
    for (const [k, exp] of this.revoked) if (exp < now) this.revoked.delete(k);
    if (this.revoked.size > MAX_REVOKED) {
      const byExpiry = [...this.revoked].sort((a, b) => a[1] - b[1]);
      for (const [k] of byExpiry.slice(0, this.revoked.size - MAX_REVOKED)) this.revoked.delete(k);
    }
  }
}

/** Most keys (usernames, addresses) tracked; the oldest are forgotten beyond it. */
const MAX_LIMITER_KEYS = 10_000;

/**
 * Failed-login counting over a sliding window. A login is refused, without checking the
 * credentials, while any of its keys has `max` failures in the window.
 */
export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The keys a login attempt counts against: its username, and its address unless loopback. */
  static keys(username: string, address: string): string[] {
    const keys = [`user:${username.toLowerCase()}`];
    if (!isLoopback(address)) keys.push(`addr:${address}`);
    return keys;
  }

  /** Milliseconds until an attempt with these keys may be tried; 0 when it may now. */
  retryAfter(keys: string[]): number {
    const now = this.now();
    let wait = 0;
    for (const k of keys) {
      const times = this.recent(k, now);
      if (times.length >= this.max) wait = Math.max(wait, times[0] + this.windowMs - now);
    }
    return wait;
  }

  fail(keys: string[]): void {
    const now = this.now();
    for (const k of keys) {
      const times = this.recent(k, now);
      times.push(now);
      // Re-insert: the map's order is "least recently failed first" for eviction.
      this.failures.delete(k);
      this.failures.set(k, times.slice(-this.max));
    }
    while (this.failures.size > MAX_LIMITER_KEYS) {
      this.failures.delete(this.failures.keys().next().value!);
    }
  }

  get size(): number {
    return this.failures.size;
  }

  private recent(key: string, now: number): number[] {
    const times = (this.failures.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (times.length === 0) this.failures.delete(key);
    return times;
  }
}

export function tokenOf(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (h?.startsWith('Bearer ')) return h.slice(7).trim();
  return req.cookies?.session;
}

export interface AuthState {
  enabled: boolean;
  config: Config;
  /** Both compared in constant time, whatever the input lengths. */
  credentialsMatch(username: string, password: string): boolean;
  /** Whether this request carries a valid session (always true when auth is off). */
  confirmed(req: FastifyRequest): boolean;
  tokens: SessionTokens;
  limiter: LoginLimiter;
}

export async function registerAuth(app: FastifyInstance, config: Config): Promise<AuthState> {
  await app.register(cookie);
  const enabled = authEnabled(config);
  const tokens = new SessionTokens(
    config.AUTH_SECRET,
    config.SESSION_TTL_SECONDS,
    path.join(config.DATA_DIR, 'sessions', 'revoked.json'),
  );
  const limiter = new LoginLimiter(config.LOGIN_ATTEMPTS_PER_MINUTE);
  const state: AuthState = {
    enabled,
    config,
    credentialsMatch: (username, password) => {
      const userOk = safeEqual(username, config.AUTH_USERNAME ?? '');
      const passOk = safeEqual(password, config.AUTH_PASSWORD ?? '');
      return enabled && userOk && passOk;
    },
    confirmed: (req) => !enabled || tokens.verify(tokenOf(req)) !== null,
    tokens,
    limiter,
  };

  return state;
}

/** For the request guard: whether a request carries a valid session. */
export const hasSession = (auth: AuthState) => (req: FastifyRequest) =>
  auth.tokens.verify(tokenOf(req)) !== null;
