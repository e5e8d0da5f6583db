/** Request validation with the contract's zod schemas; failures become specific 400 errors. */
import type { z } from 'zod';
import { ERROR_CODES, ServiceError } from '../errors';

export function parseBody<S extends z.ZodType>(
  schema: S,
  body: unknown,
  what = 'request body',
): z.infer<S> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ServiceError(
      ERROR_CODES.BAD_INPUT,
      `The ${what} must be a JSON object, got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}`,
    );
  }
  const r = schema.safeParse(body);
  if (!r.success) {
    const msg = r.error.issues
      .map((i) =>
        i.path.length && !i.message.startsWith(String(i.path[0]))
          ? `${i.path.join('.')}: ${i.message}`
          : i.message,
      )
      .join('; ');
    throw new ServiceError(ERROR_CODES.BAD_INPUT, msg);
  }
  return r.data;
}
