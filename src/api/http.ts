/**
 * The one place the SPA talks HTTP: JSON requests to the instance on our own origin, with failures
 * turned into `ApiError`s whose message a user can act on. Aborts propagate as `AbortError`.
 */
import type { z } from 'zod';
import { isGatewayFailure, reportAnswered, reportUnreachable } from './connection-health';

export type ApiErrorKind = 'network' | 'http' | 'parse';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly kind: ApiErrorKind,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The header the dev/preview proxy adds to every answer it forwards: where it forwarded to. */
export const TARGET_HEADER = 'x-playground-target';

let proxiedTo: string | null = null;

/**
 * The instance the playground talks to, decided at run time (never baked in by the build): the
 * proxy's target as its answers name it, else this page's own origin (the instance serves the
 * playground itself, or a proxy that does not say).
 */
export function instanceTarget(): string {
  return proxiedTo ?? (typeof location === 'undefined' ? 'this origin' : location.origin);
}

export function isAbortError(e: unknown): boolean {
  return e instanceof DOMException
    ? e.name === 'AbortError'
    : e instanceof Error && e.name === 'AbortError';
}

export interface RequestOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  signal?: AbortSignal;
  /** Called once the response body has been received (before parsing). */
  onBodyReceived?: () => void;
}

/**
 * Fetches JSON and parses it with `schema`. A non-2xx response whose body still matches the schema
 * (e.g. the SQL endpoint's 400/413 error envelope) is returned, not thrown.
 */
export async function requestJson<S extends z.ZodType>(
  path: string,
  schema: S,
  { method = 'GET', body, signal, onBodyReceived }: RequestOptions = {},
): Promise<z.infer<S>> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      signal,
      credentials: 'same-origin',
      headers:
        body === undefined
          ? { accept: 'application/json' }
          : { 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    if (isAbortError(e)) throw e;
    throw unreachable();
  }
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    if (isAbortError(e)) throw e;
    throw connectionLost(res.status);
  }
  noteResponse(res, text);
  onBodyReceived?.();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiError(describeHttpFailure(res, text), res.ok ? 'parse' : 'http', res.status);
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  if (!res.ok) throw new ApiError(describeHttpFailure(res, text, json), 'http', res.status);
  throw new ApiError(
    `Unexpected response from ${path}: ${parsed.error.issues[0]?.message ?? 'invalid shape'}`,
    'parse',
    res.status,
  );
}

/** A request that did not reach the instance (reported to the connection indicator). */
export function unreachable(): ApiError {
  const message = `Cannot reach the instance (${instanceTarget()}): the network request failed.`;
  reportUnreachable(message);
  return new ApiError(message, 'network');
}

/** A response cut off while it was read (reported to the connection indicator). */
export function connectionLost(status?: number): ApiError {
  const message = 'The connection to the instance was lost while reading the response.';
  reportUnreachable(message);
  return new ApiError(message, 'network', status);
}

/** Reports whether a received response came from the instance or from a gateway that failed. */
export function noteResponse(res: Response, text: string) {
  proxiedTo = res.headers.get(TARGET_HEADER) ?? proxiedTo;
  if (isGatewayFailure(res.status, text)) reportUnreachable(describeHttpFailure(res, text));
  else reportAnswered();
}

/**
 * What an error body says: our `error_message`, MindsDB's problem `detail`, a `message`, or the
 * text itself with markup stripped (a proxy's HTML page).
 */
export function errorDetail(text: string, json?: unknown): string {
  return json && typeof json === 'object' && 'error_message' in json
    ? String(json.error_message)
    : json && typeof json === 'object' && 'detail' in json // MindsDB's problem details
      ? String(json.detail)
      : json && typeof json === 'object' && 'message' in json
        ? String(json.message)
        : text
            .replace(/<[^>]+>/g, ' ')
            .replace(/\s+/g, ' ')
            .trim()
            .slice(0, 200);
}

export function describeHttpFailure(res: Response, text: string, json?: unknown): string {
  const detail = errorDetail(text, json);
  if (res.status === 502 || res.status === 503 || res.status === 504) {
    return `The instance (${instanceTarget()}) is not reachable (HTTP ${res.status}).${detail ? ` ${detail}` : ''}`;
  }
  if (!res.ok) return `The instance answered HTTP ${res.status}${detail ? `: ${detail}` : ''}`;
  return `The instance sent a response that is not JSON${detail ? `: ${detail}` : ''}`;
}
