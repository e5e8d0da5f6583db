/** POST /api/sql/query: the request and its answers (table, ok, error), in MindsDB's shapes. */
import { z } from 'zod';
import { ErrorPosition } from './errors';

export const SqlContext = z
  .object({
    db: z.string({ error: 'context.db must be a string' }).optional(),
    /**
     * Ours only: the client's id for this request (1-64 letters, digits, `-` or `_`). While the
     * request waits for an engine connection, `GET /api/status` lists its place in line under
     * `engine.queue` (the playground's "waiting: 3rd in line").
     */
    query_id: z
      .string({ error: 'context.query_id must be a string' })
      .regex(/^[A-Za-z0-9_-]{1,64}$/, {
        message: 'context.query_id must be 1-64 letters, digits, "-" or "_"',
      })
      .optional(),
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
    /**
     * `jsonlines` and `sse` stream the result in MindsDB's framing (see SqlStreamHeader); `json`
     * or none: one JSON document.
     */
    response_format: z
      .enum(['json', 'jsonlines', 'sse'], {
        error: (iss) =>
          `response_format must be one of "json", "jsonlines" or "sse", got ${JSON.stringify(iss.input) ?? 'undefined'}`,
      })
      .nullable()
      .optional(),
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

/**
 * Which model produced a result column (this instance's extension, issue 27; MindsDB's clients
 * ignore it): the model version, its output column (`rental_price`, `rental_price_confidence`,
 * ...), whether that is the predicted value itself, and where each row's model inputs are:
 * `inputs` maps an input to the index of the result column carrying it, `values` an input given
 * one value for every row. Enough to ask the model to explain that row (POST .../predict with
 * `params.explain`). Inputs found in neither were not in the result.
 */
export const ColumnOrigin = z.object({
  project: z.string(),
  model: z.string(),
  version: z.number().int(),
  column: z.string(),
  predicted: z.boolean(),
  inputs: z.record(z.string(), z.number().int().nonnegative()),
  values: z.record(z.string(), z.unknown()).optional(),
});
export type ColumnOrigin = z.infer<typeof ColumnOrigin>;
/** One entry per result column, null where no model produced it; absent when none did. */
const ColumnOrigins = z.array(ColumnOrigin.nullable()).optional();

export const SqlTableResponse = z.object({
  type: z.literal('table'),
  column_names: z.array(z.string()),
  data: z.array(z.array(z.unknown())),
  context: ContextOut,
  truncated: z.boolean().optional(),
  column_types: z.array(z.string()).optional(),
  column_origins: ColumnOrigins,
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
  /** What went wrong and, at its end, where: `... (line 2, column 7)`. */
  error_message: z.string(),
  /** The same place as data, for an editor to mark (this instance's extension). */
  error_position: ErrorPosition.optional(),
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

/**
 * The first document of a streamed table result (`response_format` `jsonlines` or `sse`), as
 * MindsDB sends it: `type` and `column_names`. Every later document is a bare array of rows
 * (`[[1, "a"], [2, "b"]]`). This instance adds `context`, `column_types`, `row_limit` (the most
 * rows one stream carries, MAX_STREAM_ROWS) and `catalog_changed`, which MindsDB's clients ignore.
 */
export const SqlStreamHeader = z
  .object({
    type: z.literal('table'),
    column_names: z.array(z.string()),
    context: ContextOut.optional(),
    column_types: z.array(z.string()).optional(),
    column_origins: ColumnOrigins,
    row_limit: z.number().int().optional(),
    catalog_changed: CatalogChanged,
  })
  .loose();
export type SqlStreamHeader = z.infer<typeof SqlStreamHeader>;

/**
 * The end record this instance writes after the rows of an `sse` stream, as an SSE comment
 * (`: {"type":"end",...}`), which SSE readers, MindsDB's included, skip: how many rows were sent
 * and whether the result was cut at `row_limit`.
 */
export const SqlStreamEnd = z.object({
  type: z.literal('end'),
  row_count: z.number().int(),
  truncated: z.boolean(),
});
export type SqlStreamEnd = z.infer<typeof SqlStreamEnd>;
