/**
 * GET with a body: the spec's describe operation sends `{"attribute": ...}` in the body of a GET,
 * which Fastify neither parses nor lets a route declare. This makes GET a method with a body, so
 * describe declares its body in its `schema` like any other route (validated, documented), and
 * reads what curl sends for `-X GET -d '{...}'` (form encoding, or text/plain) as JSON too. Only
 * GET reaches those two parsers: the request guard refuses them on every method that could
 * change state before any parser runs. A GET without a body is unchanged.
 */
import type { FastifyInstance } from 'fastify';
import type { BodyParser } from './json-body';

const LENIENT_TYPES = ['text/plain', 'application/x-www-form-urlencoded'];

export function registerGetBodies(app: FastifyInstance, json: BodyParser): void {
  app.addHttpMethod('GET', { hasBody: true, overrideExisting: true });
  app.addContentTypeParser(LENIENT_TYPES, { parseAs: 'buffer' }, (req, body, done) =>
    json(req, body as Buffer, done),
  );
}
