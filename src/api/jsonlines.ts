/**
 * Reading the instance's `response_format: "jsonlines"` answer: a header line, `{"data": [...]}`
 * chunks and an end line (see the README), assembled into the same SqlQueryResponse the JSON form
 * gives (the header's `catalog_changed` included). The playground asks for it on user runs so a huge result never has to exist as one JSON
 * document on either side, and stops reading past `maxRows` (the result is then marked truncated).
 */
import { SqlQueryResponse } from '../../contract';

export interface JsonLinesAssembler {
  /** Feeds decoded text; returns true once `maxRows` rows are held (the caller may stop reading). */
  push(text: string): boolean;
  /** The assembled response, after the last push. */
  finish(): SqlQueryResponse;
}

type Header = {
  type: 'table';
  column_names: string[];
  column_types?: string[];
  context: { db: string };
  catalog_changed?: boolean;
};

export function createJsonLinesAssembler(maxRows: number): JsonLinesAssembler {
  let buffer = '';
  let header: Header | null = null;
  let single: unknown = null;
  const rows: unknown[][] = [];
  let ended = false;
  let serverTruncated = false;
  let capped = false;

  const line = (l: string) => {
    if (l.trim() === '' || capped) return;
    const doc = JSON.parse(l) as Record<string, unknown>;
    if (header === null && single === null) {
      if (doc.type === 'table') header = doc as unknown as Header;
      else single = doc;
      return;
    }
    if (Array.isArray(doc.data)) {
      for (const r of doc.data as unknown[][]) {
        if (rows.length >= maxRows) {
          capped = true;
          return;
        }
        rows.push(r);
      }
      return;
    }
    if (doc.type === 'end') {
      ended = true;
      serverTruncated = doc.truncated === true;
      return;
    }
    if (doc.type === 'error') single = doc; // an error after the header (e.g. timeout mid-stream)
  };

  return {
    push(text) {
      buffer += text;
      let nl = buffer.indexOf('\n');
      while (nl !== -1) {
        line(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf('\n');
      }
      return capped || rows.length >= maxRows;
    },
    finish() {
      if (buffer.trim() !== '' && !capped) line(buffer);
      buffer = '';
      if (single !== null) return SqlQueryResponse.parse(single);
      if (header === null) throw new Error('The streamed response had no header line');
      const truncated = capped || serverTruncated || (!ended && rows.length >= maxRows);
      if (!ended && !truncated) throw new Error('The streamed response ended early (no end line)');
      return SqlQueryResponse.parse({
        type: 'table',
        column_names: header.column_names,
        column_types: header.column_types,
        context: header.context,
        ...(header.catalog_changed !== undefined
          ? { catalog_changed: header.catalog_changed }
          : {}),
        data: rows,
        ...(truncated ? { truncated: true } : {}),
      });
    },
  };
}
