/**
 * Reading a streamed SQL answer in MindsDB's framing (`response_format: "sse"`): `data:` events of
 * one JSON document each, a header `{"type":"table","column_names":[...]}` then bare arrays of rows
 * (or a single ok/error document), assembled into the same SqlQueryResponse the JSON form gives.
 * The playground asks for it on user runs so a huge result never has to exist as one JSON document
 * on either side, and stops reading past `maxRows` (the result is then marked truncated).
 *
 * Works against a MindsDB server as well as this instance. This instance adds what MindsDB's
 * clients ignore: `context`, `column_types`, `column_origins` and `catalog_changed` in the header
 * (kept in the response), and after the rows an SSE comment
 * `: {"type":"end","row_count":n,"truncated":b}` that says whether the instance cut the result.
 * Without that comment (MindsDB) the clean end of the response is the end of the result: a cut
 * connection fails the read instead.
 */
import { createParser } from 'eventsource-parser';
import { SqlQueryResponse, SqlStreamEnd, SqlStreamHeader } from '../../contract';

export interface StreamAssembler {
  /** Feeds decoded text; true once `maxRows` rows are held or a document was malformed (stop). */
  push(text: string): boolean;
  /** The assembled response, after the last push. */
  finish(): SqlQueryResponse;
}

/**
 * @param maxRows rows kept; more are not read and the result is marked truncated
 * @param db the database the request ran in: the context when the header does not say (MindsDB)
 */
export function createStreamAssembler(maxRows: number, db: string): StreamAssembler {
  let header: SqlStreamHeader | null = null;
  let single: unknown = null;
  let end: SqlStreamEnd | null = null;
  const rows: unknown[][] = [];
  let capped = false;

  const doc = (text: string) => {
    if (capped || single !== null) return;
    const value = JSON.parse(text) as unknown;
    if (header === null) {
      const h = SqlStreamHeader.safeParse(value);
      if (h.success) header = h.data;
      else single = value; // an ok or error answer is the whole stream
      return;
    }
    if (Array.isArray(value)) {
      for (const r of value as unknown[][]) {
        if (rows.length >= maxRows) {
          capped = true;
          return;
        }
        rows.push(r);
      }
      return;
    }
    // An error after the header (a timeout mid-stream) replaces the partial table.
    if ((value as { type?: unknown }).type === 'error') single = value;
  };

  const comment = (text: string) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return; // a comment of some other kind (keep-alive): not ours to read
    }
    const e = SqlStreamEnd.safeParse(value);
    if (e.success) end = e.data;
  };

  let failure: Error | null = null;
  const parser = createParser({
    onEvent: (event) => {
      try {
        doc(event.data);
      } catch (e) {
        failure ??= e as Error;
      }
    },
    onComment: comment,
  });

  return {
    push(text) {
      parser.feed(text);
      // A malformed document stops the read; finish() reports it.
      return capped || failure !== null || rows.length >= maxRows;
    },
    finish() {
      parser.reset({ consume: true });
      if (failure) throw failure;
      if (single !== null) return SqlQueryResponse.parse(withDefaults(single, db));
      if (header === null) throw new Error('The streamed response had no header');
      const h: SqlStreamHeader = header;
      const theEnd: SqlStreamEnd | null = end;
      if (theEnd && !capped && rows.length < theEnd.row_count) {
        throw new Error(
          `The streamed response ended early (${rows.length} of ${theEnd.row_count} rows)`,
        );
      }
      const truncated = capped || theEnd?.truncated === true || (!theEnd && rows.length >= maxRows);
      return SqlQueryResponse.parse({
        type: 'table',
        column_names: h.column_names,
        column_types: h.column_types,
        ...(h.column_origins ? { column_origins: h.column_origins } : {}),
        context: h.context ?? { db },
        ...(h.catalog_changed !== undefined ? { catalog_changed: h.catalog_changed } : {}),
        data: rows,
        ...(truncated ? { truncated: true } : {}),
      });
    },
  };
}

/** A single ok/error document as MindsDB writes it lacks `column_names` (and maybe `context`). */
function withDefaults(value: unknown, db: string): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const v = value as Record<string, unknown>;
  const context = v.context && typeof v.context === 'object' ? v.context : {};
  return {
    column_names: [],
    ...v,
    context: { db, ...(context as Record<string, unknown>) },
  };
}
