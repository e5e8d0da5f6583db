/** POST /api/sql/query: the request and its answers (table, ok, error), in MindsDB's shapes. */
import { z } from 'zod';

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

/**
 * Set when the statement created, dropped or altered a database, project, table, view, model or
 * model version: clients refresh what they show of the catalog. Absent from servers that do not
 * report it (a real MindsDB); clients then fall back to their own rule.
 */
const CatalogChanged = z.boolean().optional();

export const SqlTableResponse = z.object({
  type: z.literal('table'),
  column_names: z.array(z.string()),
  data: z.array(z.array(z.unknown())),
  context: ContextOut,
  truncated: z.boolean().optional(),
  column_types: z.array(z.string()).optional(),
  catalog_changed: CatalogChanged,
});
export const SqlOkResponse = z.object({
  type: z.literal('ok'),
  column_names: z.array(z.string()),
  context: ContextOut,
  affected_rows: z.number().nullable().optional(),
  catalog_changed: CatalogChanged,
});
export const SqlErrorResponse = z.object({
  type: z.literal('error'),
  column_names: z.array(z.string()),
  context: ContextOut,
  error_code: z.number().int(),
  error_message: z.string(),
});
export const SqlQueryResponse = z.discriminatedUnion('type', [
  SqlTableResponse,
  SqlOkResponse,
  SqlErrorResponse,
]);
export type SqlTableResponse = z.infer<typeof SqlTableResponse>;
export type SqlOkResponse = z.infer<typeof SqlOkResponse>;
export type SqlErrorResponse = z.infer<typeof SqlErrorResponse>;
export type SqlQueryResponse = z.infer<typeof SqlQueryResponse>;
