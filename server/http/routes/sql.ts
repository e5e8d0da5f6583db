/**
 * POST /api/sql/query: the spec's operation 1. Thin: validate, hand to the SQL layer, shape. A
 * table result (bounded by MAX_RESULT_ROWS and MAX_RESULT_BYTES) is written as a stream of small
 * pieces, never as one string; `response_format` `jsonlines` and `sse` stream from the engine as
 * DuckDB produces rows, in MindsDB's framing.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SqlQueryRequest } from '../../../contract';
import { jsonSize, type JsonValue } from '../../engine/values';
import { ERROR_CODES, ServiceError } from '../../errors';
import type { Instance } from '../../instance';
import { jsonStream } from '../json-stream';
import { parseBody } from '../validate';
import type { SqlQueryRequest as SqlQueryRequestT } from '../../../contract';

/** `catalog_changed: true` when a statement changed what the catalog lists (absent otherwise). */
const changed = (yes: boolean | undefined) => (yes ? { catalog_changed: true as const } : {});

/** Results up to this many rows are serialised in one go (small, and the fastest path). */
const SMALL_ROWS = 1000;

/** About how many bytes of rows one streamed document (a bare array of rows) carries. */
const LINE_BYTES = 1024 * 1024;

/**
 * Waits until `res` can take more, but not past `ms` nor past the client leaving: a reader that
 * stops reading is dropped (the response destroyed) rather than waited for.
 */
function drained(res: ServerResponse, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(() => {
      res.destroy();
      done();
    }, ms);
    res.once('drain', done);
    res.once('close', done);
  });
}

export function sqlRoutes(app: FastifyInstance, instance: Instance) {
  app.post('/api/sql/query', async (req, reply) => {
    const body = parseBody(SqlQueryRequest, req.body);
    if (body.query.length > instance.config.MAX_QUERY_CHARS) {
      throw new ServiceError(
        ERROR_CODES.TOO_LARGE,
        `query is ${body.query.length} characters long; the limit is ${instance.config.MAX_QUERY_CHARS}`,
      );
    }
    // Interrupt the engine when the client goes away (the playground's Cancel button).
    const ac = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) ac.abort();
    });
    if (body.response_format === 'jsonlines' || body.response_format === 'sse') {
      return streamResult(instance, body, body.response_format, reply, ac.signal);
    }
    const r = await instance.sql.execute({
      query: body.query,
      db: body.context?.db,
      params: body.params,
      signal: ac.signal,
    });
    const { db, ...rest } = r;
    // Only `db` goes back: echoing arbitrary client keys would echo arbitrary payloads.
    const context = { db };
    if (rest.type === 'error') return { ...rest, column_names: [], context };
    if (rest.type === 'ok')
      return {
        type: 'ok',
        column_names: [],
        affected_rows: rest.affected_rows ?? null,
        context,
        ...changed(rest.catalog_changed),
      };
    // A small answer goes out as usual; a big one in pieces, and a client that stops reading it
    // is dropped after the statement timeout rather than holding it in memory.
    if (rest.data.length <= SMALL_ROWS) return { ...rest, context };
    reply.raw.setTimeout(instance.config.STATEMENT_TIMEOUT_MS, () => reply.raw.destroy());
    return reply.type('application/json; charset=utf-8').send(jsonStream({ ...rest, context }));
  });
}

/**
 * How each streamed format frames a document, as MindsDB writes them: `jsonlines` one JSON
 * document per line (`application/jsonlines`), `sse` one `data:` event per document
 * (`text/event-stream`). Only `sse` can carry the end record without a MindsDB client reading it
 * as rows: as a comment, which every SSE reader skips.
 */
const FRAMING = {
  jsonlines: {
    contentType: 'application/jsonlines',
    doc: (json: string) => `${json}\n`,
    end: null,
  },
  sse: {
    contentType: 'text/event-stream; charset=utf-8',
    doc: (json: string) => `data: ${json}\n\n`,
    end: (json: string) => `: ${json}\n\n`,
  },
} as const;

/**
 * A streamed answer, written as DuckDB produces the chunks, with backpressure, so a 10-million-row
 * result never sits in memory. MindsDB's documents: a table is a header
 * `{"type":"table","column_names":[...]}` (here also `context`, `column_types` and `row_limit`),
 * then bare arrays of rows of about LINE_BYTES each; an ok or error result is the single document
 * the JSON form would have been. An error after the header (a timeout mid-stream) is one more
 * document, an error object. `sse` ends a table with `: {"type":"end","row_count":n,"truncated":b}`.
 */
async function streamResult(
  instance: Instance,
  body: SqlQueryRequestT,
  format: keyof typeof FRAMING,
  reply: FastifyReply,
  signal: AbortSignal,
) {
  const framing = FRAMING[format];
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, { 'content-type': framing.contentType, 'cache-control': 'no-store' });
  const wait = instance.config.STATEMENT_TIMEOUT_MS;
  const send = async (text: string) => {
    if (res.destroyed) return;
    if (!res.write(text)) await drained(res, wait);
  };
  const write = (doc: unknown) => send(framing.doc(JSON.stringify(doc)));
  /** Rows as bare arrays of about LINE_BYTES each. */
  const writeRows = async (rows: JsonValue[][]) => {
    let from = 0;
    let bytes = 0;
    for (let i = 0; i < rows.length; i++) {
      bytes += rows[i].reduce<number>((n, v) => n + jsonSize(v) + 1, 2);
      if (bytes >= LINE_BYTES || i === rows.length - 1) {
        await write(rows.slice(from, i + 1));
        from = i + 1;
        bytes = 0;
      }
    }
  };
  const ctx = (db: string) => ({ db });
  const rowLimit = instance.config.MAX_STREAM_ROWS;
  try {
    await instance.sql.executeStream(
      { query: body.query, db: body.context?.db, params: body.params, signal },
      {
        header: (columns, types, db, catalogChanged) =>
          write({
            type: 'table',
            column_names: columns,
            context: ctx(db),
            column_types: types,
            row_limit: rowLimit,
            ...changed(catalogChanged),
          }),
        rows: writeRows,
        end: async (rowCount, truncated) => {
          if (framing.end)
            await send(
              framing.end(JSON.stringify({ type: 'end', row_count: rowCount, truncated })),
            );
        },
        ok: (n, db, catalogChanged) =>
          write({
            type: 'ok',
            column_names: [],
            affected_rows: n,
            context: ctx(db),
            ...changed(catalogChanged),
          }),
        error: (code, message, db) =>
          write({
            type: 'error',
            column_names: [],
            error_code: code,
            error_message: message,
            context: ctx(db),
          }),
      },
      rowLimit,
    );
  } catch {
    await write({
      type: 'error',
      column_names: [],
      error_code: ERROR_CODES.INTERNAL,
      error_message: 'Internal error while streaming; see the instance log',
      context: ctx(body.context?.db ?? 'mindsdb'),
    });
  } finally {
    res.end();
  }
}
