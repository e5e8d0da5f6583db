/**
 * The JSON body parser: strict UTF-8, prototype-poisoning protection (Fastify's own parser), a
 * nesting limit, and no number beyond a 64-bit float (`1e999`), each failure a specific 400. Only application/json for requests that change
 * state: the types a cross-site form can send (text/plain, form encoding) are refused by the
 * request guard before any parser runs.
 */
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERROR_CODES, ServiceError } from '../errors';
import { readRowColumns } from './row-columns';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's body is rows (the predict body): read straight into columns when the reader
     * is sure of it (./row-columns.ts), and the handler gets a RowColumns for the rows.
     */
    rowColumns?: boolean;
  }
}

const MAX_JSON_DEPTH = 64;
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Whether a parsed JSON value needs none of the checks below: numbers finite, nesting within
 * `limit`, no `__proto__` or `constructor` key (Fastify's parser judges those). One walk without
 * paths: a 10k-row predict body took 17 ms in `inspectJson` and 25 ms in the parser's two scans
 * of the text for those keys; the rare body that is not clean goes the full way.
 */
function cleanJson(value: unknown, limit: number): boolean {
  const stack: unknown[] = [value];
  const depths: number[] = [1];
  while (stack.length) {
    const v = stack.pop() as object;
    const d = depths.pop()!;
    if (d > limit) return false;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const c: unknown = v[i];
        if (typeof c === 'number') {
          if (!Number.isFinite(c)) return false;
        } else if (c !== null && typeof c === 'object') {
          stack.push(c);
          depths.push(d + 1);
        }
      }
      continue;
    }
    if (hasOwn.call(v, '__proto__') || hasOwn.call(v, 'constructor')) return false;
    for (const k in v) {
      const c: unknown = (v as Record<string, unknown>)[k];
      if (typeof c === 'number') {
        if (!Number.isFinite(c)) return false;
      } else if (c !== null && typeof c === 'object') {
        stack.push(c);
        depths.push(d + 1);
      }
    }
  }
  return true;
}

/** Parses `text` when the fast path may: plain JSON.parse and `cleanJson`; else undefined. */
function parseClean(text: string, limit: number): { value: unknown } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value !== null && typeof value === 'object' && !cleanJson(value, limit)) return undefined;
  return { value };
}

/**
 * Walks a parsed JSON value iteratively: its nesting depth (counting stops past `limit`), and the
 * path of the first number JSON.parse could not hold (`1e999` parses as Infinity), if any.
 */
function inspectJson(value: unknown, limit: number): { depth: number; nonFinite?: string } {
  let max = 0;
  const stack: [unknown, number, string][] = [[value, 1, '']];
  while (stack.length) {
    const [v, d, path] = stack.pop()!;
    if (typeof v === 'number' && !Number.isFinite(v)) return { depth: max, nonFinite: path };
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > limit) return { depth: max };
    if (Array.isArray(v)) v.forEach((child, i) => stack.push([child, d + 1, `${path}[${i}]`]));
    else
      for (const [k, child] of Object.entries(v))
        stack.push([child, d + 1, path ? `${path}.${k}` : k]);
  }
  return { depth: max };
}

const badInput = (message: string) => new ServiceError(ERROR_CODES.BAD_INPUT, message, 400);

/** The parser as Fastify calls it: the raw body, then `done(err)` or `done(null, value)`. */
export type BodyParser = (
  req: FastifyRequest,
  body: Buffer,
  done: (err: Error | null, value?: unknown) => void,
) => void;

export function registerJsonBody(app: FastifyInstance): BodyParser {
  // Fastify's default parser is the callback form (it calls `done` synchronously); the declared
  // type is the union of the callback and the promise forms.
  const defaultJson = app.getDefaultJsonParser('error', 'error') as (
    req: FastifyRequest,
    body: string,
    done: (err: Error | null, value?: unknown) => void,
  ) => void;
  const parse: BodyParser = (req, body, done) => {
    if (!isUtf8(body)) return done(badInput('Request body is not valid UTF-8'), undefined);
    if (req.routeOptions.config?.rowColumns) {
      const rows = readRowColumns(body, (text) => parseClean(text, MAX_JSON_DEPTH - 1));
      if (rows) return done(null, rows);
    }
    let text = body.toString('utf8');
    // As the decoder of the WHATWG encoding standard does.
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.trim() === '') {
      // A GET that says JSON but sends nothing (a client's default headers) has no body.
      if (req.method === 'GET') return done(null, undefined);
      return done(badInput('Request body is empty; expected JSON'), undefined);
    }
    const fast = parseClean(text, MAX_JSON_DEPTH);
    if (fast) return done(null, fast.value);
    defaultJson(req, text, (err, value) => {
      if (err) return done(badInput(`Request body is not valid JSON: ${err.message}`), undefined);
      const seen = inspectJson(value, MAX_JSON_DEPTH);
      if (seen.depth > MAX_JSON_DEPTH) {
        return done(
          badInput(`Request body nests JSON deeper than ${MAX_JSON_DEPTH} levels`),
          undefined,
        );
      }
      if (seen.nonFinite !== undefined) {
        // It would otherwise become Infinity, and null on the way out: refused, named.
        return done(
          badInput(
            `Request body: the number at ${seen.nonFinite || 'the top level'} is too large for a 64-bit float (beyond ±1.8e308); send a finite number, or the value as a string`,
          ),
          undefined,
        );
      }
      done(null, value);
    });
  };
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) =>
    parse(req, body as Buffer, done),
  );
  return parse;
}
