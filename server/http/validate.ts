/**
 * Request validation with the contract's zod schemas, as Fastify's validator compiler: every
 * route's `schema` (params, querystring, body) is checked by zod, and a failure is one 400
 * ServiceError whose message says what and where. fastify-type-provider-zod's own compiler turns
 * zod's issues into Ajv-style entries (paths as strings, union branches flattened), which loses
 * the row numbers and the branch that explains a union's failure; this keeps zod's issues whole.
 */
import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';
import { ERROR_CODES, ServiceError } from '../errors';
import { RowColumns } from './row-columns';

/** Validates with a contract schema; failures are one 400 whose message says what and where. */
export function validate<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw new ServiceError(ERROR_CODES.BAD_INPUT, issueMessages(r.error.issues).join('; '));
}

const jsonTypeName = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;

/**
 * The compiler Fastify calls once per route and part. Fastify hands a missing body over as null:
 * a route whose body is optional then sees undefined. A body that must be a JSON object but is
 * not (an array, a scalar, null) is named as such rather than as a schema mismatch.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    if (httpPart === 'body') {
      const optional = schema.safeParse(undefined).success;
      if (data === null && optional) return { value: undefined };
      const inner = schema instanceof z.ZodOptional ? schema.unwrap() : schema;
      if (
        inner instanceof z.ZodObject &&
        (data === null || typeof data !== 'object' || Array.isArray(data))
      ) {
        return {
          error: new ServiceError(
            ERROR_CODES.BAD_INPUT,
            `The request body must be a JSON object, got ${jsonTypeName(data)}`,
          ),
        };
      }
    }
    // Rows read into columns (./row-columns.ts) are an array of row objects the reader checked:
    // the schema judges the rest of the body with an empty array in their place.
    const columns = httpPart === 'body' ? rowColumnsOf(data) : undefined;
    const r = schema.safeParse(columns ? (data === columns ? [] : { ...data!, data: [] }) : data);
    if (r.success) {
      if (!columns) return { value: r.data };
      return { value: data === columns ? columns : { ...(r.data as object), data: columns } };
    }
    return {
      error: new ServiceError(ERROR_CODES.BAD_INPUT, issueMessages(r.error.issues).join('; ')),
    };
  };

/** The RowColumns a body is or holds as its `data`, if any. */
function rowColumnsOf(body: unknown): RowColumns | undefined {
  if (body instanceof RowColumns) return body;
  const data = body !== null && typeof body === 'object' ? (body as { data?: unknown }).data : null;
  return data instanceof RowColumns ? data : undefined;
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
