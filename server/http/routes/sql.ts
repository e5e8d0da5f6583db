/**
 * POST /api/sql/query: the spec's operation 1. Thin: validate, hand to the SQL layer, shape. A
 * table result (bounded by MAX_RESULT_ROWS and MAX_RESULT_BYTES) is written as a stream of small
 * pieces, never as one string; `jsonlines` streams from the engine as DuckDB produces rows.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SqlQueryRequest } from '../../../contract';
import { jsonSize } from '../../engine/duckdb';
import type { JsonValue } from '../../engine/values';
import { ERROR_CODES, ServiceError } from '../../errors';
import type { Instance } from '../../instance';
import { jsonStream } from '../json-stream';
import { parseBody } from '../validate';
import type { SqlQueryRequest as SqlQueryRequestT } from '../../../contract';

/** Results up to this many rows are serialised in one go (small, and the fastest path). */
const SMALL_ROWS = 1000;

/** About how many bytes of rows one `{"data": [...]}` line carries. */
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
    if (body.response_format === 'jsonlines') {
      return streamJsonLines(instance, body, reply, ac.signal);
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
      return { type: 'ok', column_names: [], affected_rows: rest.affected_rows ?? null, context };
    // A small answer goes out as usual; a big one in pieces, and a client that stops reading it
    // is dropped after the statement timeout rather than holding it in memory.
    if (rest.data.length <= SMALL_ROWS) return { ...rest, context };
    reply.raw.setTimeout(instance.config.STATEMENT_TIMEOUT_MS, () => reply.raw.destroy());
    return reply.type('application/json; charset=utf-8').send(jsonStream({ ...rest, context }));
  });
}

/**
 * `"response_format": "jsonlines"`: one JSON document per line, written as DuckDB produces the
 * chunks, with backpressure, so a 10-million-row result never sits in memory. Lines:
 * `{"type":"table","column_names":[...],"column_types":[...],"context":{...}}`, then
 * `{"data":[[...],...]}` chunks, then `{"type":"end","row_count":n,"truncated":false}`; an ok or
 * error result is the single line the JSON form would have been.
 */
async function streamJsonLines(
  instance: Instance,
  body: SqlQueryRequestT,
  reply: FastifyReply,
  signal: AbortSignal,
) {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'application/x-ndjson; charset=utf-8',
    'cache-control': 'no-store',
  });
  const wait = instance.config.STATEMENT_TIMEOUT_MS;
  const write = async (doc: unknown) => {
    if (res.destroyed) return;
    if (!res.write(`${JSON.stringify(doc)}\n`)) await drained(res, wait);
  };
  /** Rows as `{"data": [...]}` lines of about LINE_BYTES each. */
  const writeRows = async (rows: JsonValue[][]) => {
    let from = 0;
    let bytes = 0;
    for (let i = 0; i < rows.length; i++) {
      bytes += rows[i].reduce<number>((n, v) => n + jsonSize(v) + 1, 2);
      if (bytes >= LINE_BYTES || i === rows.length - 1) {
        await write({ data: rows.slice(from, i + 1) });
        from = i + 1;
        bytes = 0;
      }
    }
  };
  const ctx = (db: string) => ({ db });
  try {
    await instance.sql.executeStream(
      { query: body.query, db: body.context?.db, params: body.params, signal },
      {
        header: (columns, types, db) =>
          write({ type: 'table', column_names: columns, column_types: types, context: ctx(db) }),
        rows: writeRows,
        end: (rowCount, truncated) => write({ type: 'end', row_count: rowCount, truncated }),
        ok: (n, db) => write({ type: 'ok', column_names: [], affected_rows: n, context: ctx(db) }),
        error: (code, message, db) =>
          write({
            type: 'error',
            column_names: [],
            error_code: code,
            error_message: message,
            context: ctx(db),
          }),
      },
      instance.config.MAX_STREAM_ROWS,
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
