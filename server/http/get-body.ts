/**
 * The JSON body of a GET request. Fastify never parses GET bodies, but the spec's describe
 * operation sends its attribute that way; this reads it with the same limit and errors as the
 * app's parser for POST.
 */
import type { FastifyRequest } from 'fastify';
import { ERROR_CODES, ServiceError } from '../errors';

const JSON_TYPES = new Set(['application/json', 'text/plain', 'application/x-www-form-urlencoded']);

/**
 * Undefined when there is no body (none, or only whitespace, so `Content-Type: application/json`
 * without a body is fine), 415 for a non-JSON content type, 413 over the limit, 400 for invalid
 * JSON.
 */
export async function readBodyOfGet(req: FastifyRequest, limit: number): Promise<unknown> {
  const h = req.headers;
  const length = h['content-length'];
  if (h['transfer-encoding'] === undefined && (length === undefined || length === '0'))
    return undefined;
  const type = (h['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type && !JSON_TYPES.has(type) && !type.endsWith('+json')) {
    throw new ServiceError(
      ERROR_CODES.BAD_INPUT,
      `Unsupported Content-Type; send JSON with 'Content-Type: application/json'`,
      415,
    );
  }
  const tooLarge = () =>
    new ServiceError(
      ERROR_CODES.TOO_LARGE,
      `Request body is larger than the limit (${limit} bytes)`,
      413,
    );
  if (length !== undefined && Number(length) > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req.raw) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new ServiceError(
      ERROR_CODES.BAD_INPUT,
      `Request body is not valid JSON: ${(err as Error).message}`,
      400,
    );
  }
}
