/** POST /api/sql/query: run one SQL statement with the tab's context. */
import { SqlQueryResponse, type SqlContext } from '../../contract';
import { reportAnswered } from './connection-health';
import {
  ApiError,
  connectionLost,
  describeHttpFailure,
  isAbortError,
  noteResponse,
  requestJson,
  unreachable,
} from './http';
import { createStreamAssembler } from './jsonlines';
import { trackQuery } from './queued-queries';

const SQL_RESPONSE_MARK = 'sql-response-end';

/** Rows the playground keeps from one streamed result; more are not read (marked truncated). */
const UI_MAX_ROWS = 500_000;

export interface RunSqlInput {
  query: string;
  context?: SqlContext;
  signal?: AbortSignal;
  /** Set a `performance` mark when the response body arrives (user runs; read by the UI bench). */
  markResponse?: boolean;
  /**
   * Ask for `response_format: "sse"` (MindsDB's streamed form) and read the rows as they stream
   * (user runs: results of any size stay bounded on both sides). A server that ignores the option
   * answers JSON, which is read as usual.
   */
  stream?: boolean;
  /**
   * Send a `context.query_id` and keep it in queued-queries.ts while the request is in flight, so
   * the running-query view shows the query's place in the instance's line (user runs).
   */
  trackQueue?: boolean;
}

const mark = () => {
  performance.clearMarks(SQL_RESPONSE_MARK);
  performance.mark(SQL_RESPONSE_MARK);
};

export function runSql(input: RunSqlInput): Promise<SqlQueryResponse> {
  if (!input.trackQueue) return send(input);
  const tracked = trackQuery();
  const context = { ...input.context, query_id: tracked.id };
  return send({ ...input, context }).finally(tracked.done);
}

function send({
  query,
  context,
  signal,
  markResponse,
  stream,
}: RunSqlInput): Promise<SqlQueryResponse> {
  if (stream) return runSqlStreaming({ query, context, signal, markResponse });
  return requestJson('/api/sql/query', SqlQueryResponse, {
    method: 'POST',
    body: context ? { query, context } : { query },
    signal,
    onBodyReceived: markResponse ? mark : undefined,
  });
}

async function runSqlStreaming({
  query,
  context,
  signal,
  markResponse,
}: RunSqlInput): Promise<SqlQueryResponse> {
  let res: Response;
  try {
    res = await fetch('/api/sql/query', {
      method: 'POST',
      signal,
      credentials: 'same-origin',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream, application/json',
      },
      body: JSON.stringify({
        query,
        ...(context ? { context } : {}),
        response_format: 'sse',
      }),
    });
  } catch (e) {
    if (isAbortError(e)) throw e;
    throw unreachable();
  }
  const type = res.headers.get('content-type') ?? '';
  try {
    if (!type.includes('text/event-stream') || !res.body) {
      const text = await res.text();
      noteResponse(res, text);
      if (markResponse) mark();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new ApiError(describeHttpFailure(res, text), res.ok ? 'parse' : 'http', res.status);
      }
      const parsed = SqlQueryResponse.safeParse(json);
      if (parsed.success) return parsed.data;
      throw new ApiError(
        describeHttpFailure(res, text, json),
        res.ok ? 'parse' : 'http',
        res.status,
      );
    }
    reportAnswered();
    const assembler = createStreamAssembler(UI_MAX_ROWS, context?.db ?? 'mindsdb');
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (assembler.push(decoder.decode(value, { stream: true }))) {
        await reader.cancel(); // enough rows: stop the transfer, the server interrupts the query
        break;
      }
    }
    assembler.push(decoder.decode());
    if (markResponse) mark();
    try {
      return assembler.finish();
    } catch (e) {
      throw new ApiError(
        `The instance sent a malformed streamed result: ${(e as Error).message}`,
        'parse',
        res.status,
      );
    }
  } catch (e) {
    if (isAbortError(e) || e instanceof ApiError) throw e;
    throw connectionLost(res.status);
  }
}
