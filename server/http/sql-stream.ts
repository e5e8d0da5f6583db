/**
 * The streaming SQL reply (`response_format` `jsonlines` and `sse`): written as DuckDB produces
 * the chunks, with backpressure, in MindsDB's framing. Fastify's reply serialises one value; a
 * 10-million-row result must never be one value, so this writes to the raw response itself.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { SqlQueryRequest } from '../../contract';
import { jsonSize, type JsonValue } from '../engine/values';
import { ERROR_CODES } from '../errors';
import type { Instance } from '../instance';
import { errorFields } from './errors';

/** `catalog_changed: true` when a statement changed what the catalog lists (absent otherwise). */
export const changed = (yes: boolean | undefined) =>
  yes ? { catalog_changed: true as const } : {};

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
export async function streamResult(
  instance: Instance,
  body: SqlQueryRequest,
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
  /**
   * Rows as bare arrays of about LINE_BYTES each, batched across the engine's chunks (of 2,048
   * rows): as MindsDB writes a line per batch of its result, not per chunk of the engine's.
   */
  let pending: JsonValue[][] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (pending.length === 0) return;
    const rows = pending;
    pending = [];
    pendingBytes = 0;
    await write(rows);
  };
  const writeRows = async (rows: JsonValue[][]) => {
    for (const row of rows) {
      pending.push(row);
      pendingBytes += row.reduce<number>((n, v) => n + jsonSize(v) + 1, 2);
      if (pendingBytes >= LINE_BYTES) await flush();
    }
  };
  const ctx = (db: string) => ({ db });
  const rowLimit = instance.config.MAX_STREAM_ROWS;
  try {
    await instance.sql.executeStream(
      {
        query: body.query,
        db: body.context?.db,
        params: body.params,
        signal,
        queryId: body.context?.query_id,
      },
      {
        header: (columns, types, db, catalogChanged, origins) =>
          write({
            type: 'table',
            column_names: columns,
            context: ctx(db),
            column_types: types,
            ...(origins ? { column_origins: origins } : {}),
            row_limit: rowLimit,
            ...changed(catalogChanged),
          }),
        rows: writeRows,
        end: async (rowCount, truncated) => {
          await flush();
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
        error: async (code, message, db, position) => {
          // The rows read before the error (a timeout mid-stream) go out first.
          await flush();
          await write({
            type: 'error',
            column_names: [],
            ...errorFields(code, message, position),
            context: ctx(db),
          });
        },
      },
      rowLimit,
    );
  } catch {
    await flush();
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
