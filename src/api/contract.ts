/**
 * The wire contract between the playground and any instance (ours or a real MindsDB server):
 * zod schemas and their inferred types for every request and response body. The server validates
 * its input with these schemas and generates its OpenAPI document from them; the SPA parses every
 * response with them. One place, so the two halves cannot drift.
 */
import { z } from 'zod';

export const JsonScalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue };
export const JsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([JsonScalar, z.array(JsonValueSchema), z.record(z.string(), JsonValueSchema)]),
);

export const SqlContext = z
  .object({
    db: z.string({ error: 'context.db must be a string' }).optional(),
  })
  .loose();
export type SqlContext = z.infer<typeof SqlContext>;

/** POST /api/sql/query request. `query` is the spec's only required key. */
export const SqlQueryRequest = z
  .object({
    query: z
      .string({
        error: (iss) => (iss.input === undefined ? 'query is required' : 'query must be a string'),
      })
      .refine((q) => q.trim().length > 0, { message: 'query must not be empty' }),
    context: SqlContext.optional(),
    params: z.record(z.string(), z.unknown(), { error: 'params must be an object' }).optional(),
    response_format: z.enum(['json', 'jsonlines']).optional(),
  })
  .loose();
export type SqlQueryRequest = z.infer<typeof SqlQueryRequest>;

const ContextOut = z.object({ db: z.string() }).loose();

export const SqlTableResponse = z.object({
  type: z.literal('table'),
  column_names: z.array(z.string()),
  data: z.array(z.array(z.unknown())),
  context: ContextOut,
  truncated: z.boolean().optional(),
  column_types: z.array(z.string()).optional(),
});
export const SqlOkResponse = z.object({
  type: z.literal('ok'),
  column_names: z.array(z.string()),
  context: ContextOut,
  affected_rows: z.number().nullable().optional(),
});
export const SqlErrorResponse = z.object({
  type: z.literal('error'),
  column_names: z.array(z.string()),
  context: ContextOut,
  error_code: z.number().int(),
  error_message: z.string(),
});
export const SqlQueryResponse = z.discriminatedUnion('type', [SqlTableResponse, SqlOkResponse, SqlErrorResponse]);
export type SqlTableResponse = z.infer<typeof SqlTableResponse>;
export type SqlOkResponse = z.infer<typeof SqlOkResponse>;
export type SqlErrorResponse = z.infer<typeof SqlErrorResponse>;
export type SqlQueryResponse = z.infer<typeof SqlQueryResponse>;

/** JSON error body of the non-SQL endpoints. */
export const ErrorBody = z.object({
  error_code: z.number().int(),
  error_message: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** GET /api/status */
export const StatusResponse = z
  .object({
    version: z.string(),
    environment: z.string().optional(),
    provider: z.string().optional(),
    auth: z
      .object({
        http_auth_enabled: z.boolean(),
        confirmed: z.boolean().optional(),
        provider: z.string().optional(),
      })
      .loose()
      .optional(),
  })
  .loose();
export type StatusResponse = z.infer<typeof StatusResponse>;
