/**
 * POST /api/sql/query: the spec's operation 1. Thin: validate, hand to the SQL layer, shape. A
 * table result (bounded by MAX_RESULT_ROWS and MAX_RESULT_BYTES) is written as a stream of small
 * pieces, never as one string; `response_format` `jsonlines` and `sse` stream from the engine as
 * DuckDB produces rows, in MindsDB's framing (../sql-stream.ts). Every error, HTTP-level ones
 * included, answers in the SQL envelope (`config.envelope`).
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SqlErrorResponse,
  SqlQueryRequest,
  SqlQueryResponse,
  SqlStreamHeader,
} from '../../../contract';
import { ERROR_CODES, ServiceError } from '../../errors';
import type { Instance } from '../../instance';
import { Timings } from '../../engine/timings';
import { errorFields } from '../errors';
import { sendJsonStream } from '../json-stream';
import { changed, streamResult } from '../sql-stream';
import { answer } from '../responses';

/** Results up to this many rows are serialised in one go (small, and the fastest path). */
const SMALL_ROWS = 1000;

/**
 * A client that went away mid-statement is an outcome, not a failure of the instance: an
 * AbortError on the way (a library's own, whatever the signal's reason) becomes the cancel error,
 * answered (to nobody) and logged as the request's one info line, never as a 500 with a stack.
 */
function clientGone(err: unknown, signal: AbortSignal): never {
  if (signal.aborted && err instanceof Error && err.name === 'AbortError') throw cancelled();
  throw err;
}

const cancelled = () =>
  new ServiceError(ERROR_CODES.TIMEOUT, 'The query was cancelled by the client');

const envelopeError = (description: string) => answer(description, SqlErrorResponse);

/** One document of a stream: the header, a bare array of rows, or an ok/error result. */
const SqlStreamDocument = z.union([
  SqlStreamHeader,
  z.array(z.array(z.unknown())),
  SqlQueryResponse,
]);

export const sqlRoutes: FastifyPluginAsyncZod<{ instance: Instance }> = async (
  app,
  { instance },
) => {
  app.route({
    method: 'POST',
    url: '/api/sql/query',
    config: { envelope: 'sql' },
    schema: {
      operationId: 'sqlQuery',
      tags: ['sql'],
      summary: 'Execute an SQL statement',
      description:
        'HTTP 200 for every statement the engine processed, including SQL errors (`type: "error"`). `context.db` is the current database; send back the returned context. `"response_format": "jsonlines"` (`application/jsonlines`) and `"sse"` (`text/event-stream`) stream a table as MindsDB does: a header document `{"type": "table", "column_names": [...]}` (plus `context`, `column_types`, `row_limit`), then documents that are bare arrays of rows, one JSON document per line or per `data:` event; `sse` ends with the comment `: {"type":"end","row_count":n,"truncated":bool}` (SqlStreamEnd). An ok or error result is one document, as in the JSON form.',
      body: SqlQueryRequest,
      response: {
        200: {
          description:
            'A table, an acknowledgement or an SQL error; streamed documents for `response_format` `jsonlines` and `sse`',
          content: {
            'application/json': { schema: SqlQueryResponse },
            'application/jsonlines': { schema: SqlStreamDocument },
            'text/event-stream': {
              schema: z
                .string()
                .describe(
                  '`data: <document>` events (see application/jsonlines), then `: <SqlStreamEnd>`',
                ),
            },
          },
        },
        400: envelopeError('Body not JSON, or `query` missing or not a string'),
        401: envelopeError('Authentication required (only when auth is enabled)'),
        413: envelopeError('Body or query over the size limit'),
        415: envelopeError('Content-Type is not JSON'),
      },
    },
    handler: async (req, reply) => {
      const body = req.body;
      if (body.query.length > instance.config.MAX_QUERY_CHARS) {
        throw new ServiceError(
          ERROR_CODES.TOO_LARGE,
          `query is ${body.query.length} characters long; the limit is ${instance.config.MAX_QUERY_CHARS}`,
        );
      }
      // Interrupt the engine when the client goes away (the playground's Cancel button). The
      // reason is the cancel error, so every `signal.throwIfAborted()` on the way throws it.
      const ac = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) ac.abort(cancelled());
      });
      if (body.response_format === 'jsonlines' || body.response_format === 'sse') {
        // A streamed answer may be a big one the instance predicts: not short work.
        req.shortTurn?.();
        return streamResult(instance, body, body.response_format, reply, ac.signal).catch(
          (err: unknown) => clientGone(err, ac.signal),
        );
      }
      const timings = new Timings();
      const r = await timings
        .time('total', () =>
          instance.sql.execute({
            query: body.query,
            db: body.context?.db,
            params: body.params,
            signal: ac.signal,
            queryId: body.context?.query_id,
            timings,
            endShortTurn: req.shortTurn ?? undefined,
          }),
        )
        .catch((err: unknown) => clientGone(err, ac.signal));
      reply.header('server-timing', timings.header());
      const { db, ...rest } = r;
      // Only `db` goes back: echoing arbitrary client keys would echo arbitrary payloads.
      const context = { db };
      if (rest.type === 'error') {
        const { error_code, error_message, error_position } = rest;
        return {
          type: 'error' as const,
          column_names: [],
          ...errorFields(error_code, error_message, error_position),
          context,
        };
      }
      if (rest.type === 'ok')
        return {
          type: 'ok' as const,
          column_names: [],
          affected_rows: rest.affected_rows ?? null,
          context,
          ...changed(rest.catalog_changed),
        };
      // A small answer goes out as usual; a big one in pieces, and a client that stops reading it
      // is dropped after the statement timeout rather than holding it in memory.
      if (rest.data.length <= SMALL_ROWS) return { ...rest, context };
      reply.raw.setTimeout(instance.config.STATEMENT_TIMEOUT_MS, () => reply.raw.destroy());
      return sendJsonStream(reply, { ...rest, context });
    },
  });
};
