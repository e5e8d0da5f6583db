/**
 * The JSON body parser: strict UTF-8, prototype-poisoning protection (Fastify's own parser), a
 * nesting limit, and no number beyond a 64-bit float (`1e999`), each failure a specific 400. Only application/json for requests that change
 * state: the types a cross-site form can send (text/plain, form encoding) are refused by the
 * request guard before any parser runs.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERROR_CODES, ServiceError } from '../errors';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const MAX_JSON_DEPTH = 64;

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
    let text: string;
    try {
      text = utf8.decode(body);
    } catch {
      return done(badInput('Request body is not valid UTF-8'), undefined);
    }
    if (text.trim() === '') {
      // A GET that says JSON but sends nothing (a client's default headers) has no body.
      if (req.method === 'GET') return done(null, undefined);
      return done(badInput('Request body is empty; expected JSON'), undefined);
    }
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
