/** Request validation with the contract's zod schemas; failures become specific 400 errors. */
import type { z } from 'zod';
import { ERROR_CODES, ServiceError } from '../errors';

/** Validates with a contract schema; failures are one 400 whose message says what and where. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw new ServiceError(ERROR_CODES.BAD_INPUT, issueMessages(r.error.issues).join('; '));
}

/**
 * `validate` for a body that must be a JSON object (routes registered without `serve()`): an
 * array, a scalar or null is named as such rather than as a schema mismatch.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ServiceError(
      ERROR_CODES.BAD_INPUT,
      `The request body must be a JSON object, got ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}`,
    );
  }
  return validate(schema, body);
}

/**
 * Human messages for zod issues. For a union (the predict body is an array OR an envelope) the
 * branch that matched the input's JSON type explains the failure, not "Invalid input": branches
 * that failed on the type of the value itself are dropped. Field names prefix the message unless
 * it already starts with one; row indexes are left to the messages (they say "row 3").
 */
export function issueMessages(
  issues: readonly z.core.$ZodIssue[],
  prefix: readonly PropertyKey[] = [],
): string[] {
  const out: string[] = [];
  for (const iss of issues) {
    const path = [...prefix, ...iss.path];
    if (iss.code === 'invalid_union') {
      const relevant = iss.errors.filter(
        (b) => !(b.length === 1 && b[0].code === 'invalid_type' && b[0].path.length === 0),
      );
      if (relevant.length > 0) {
        out.push(...issueMessages(relevant[0], path));
        continue;
      }
    }
    const names = path.filter((p): p is string => typeof p === 'string');
    const field = names.join('.');
    out.push(field && !iss.message.startsWith(names[0]) ? `${field}: ${iss.message}` : iss.message);
  }
  return out;
}
