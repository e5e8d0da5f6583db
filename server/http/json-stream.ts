/**
 * JSON responses written piece by piece. A result of tens of megabytes is never turned into one
 * JS string (V8 caps strings, and one string of the whole result doubles the memory it takes):
 * arrays are written a batch of elements at a time, each batch a small string.
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** About how many characters one written piece holds. */
const PIECE = 256 * 1024;

/** `[e1,e2,...]` with each element stringified on its own and batched into pieces. */
function* arrayPieces(arr: unknown[]): Generator<string> {
  let buf = '[';
  for (let i = 0; i < arr.length; i++) {
    buf += (i > 0 ? ',' : '') + (JSON.stringify(arr[i]) ?? 'null');
    if (buf.length >= PIECE) {
      yield buf;
      buf = '';
    }
  }
  yield `${buf}]`;
}

/** A top-level array, or a top-level object whose array values (the rows) are streamed. */
function* pieces(value: unknown): Generator<string> {
  if (Array.isArray(value)) {
    yield* arrayPieces(value);
    return;
  }
  if (value === null || typeof value !== 'object') {
    yield JSON.stringify(value) ?? 'null';
    return;
  }
  let first = true;
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    yield `${first ? '{' : ','}${JSON.stringify(k)}:`;
    first = false;
    if (Array.isArray(v)) yield* arrayPieces(v);
    else yield JSON.stringify(v) ?? 'null';
  }
  yield first ? '{}' : '}';
}

/** Text pieces (strings or UTF-8 bytes) as a byte stream, pushed until the socket's buffer is full. */
function textStream(it: Iterator<string | Uint8Array>): Readable {
  return new Readable({
    read() {
      let size = 0;
      for (;;) {
        const n = it.next();
        if (n.done) {
          this.push(null);
          return;
        }
        size += n.value.length;
        if (!this.push(n.value) || size >= PIECE) return;
      }
    },
  });
}

/**
 * Answers `value` as JSON written in pieces (a stream, which Fastify sends as it is, past the
 * route's serializer; the route's declared schema still documents it): the top-level object's
 * keys in order, arrays (of rows, of row objects) written in batches. Same text as
 * JSON.stringify, without the one big string.
 */
export function sendJsonStream(reply: FastifyReply, value: unknown): FastifyReply {
  return sendJsonPieces(reply, pieces(value));
}

/** Answers JSON text the caller wrote in pieces (e.g. a prediction written from its columns). */
export function sendJsonPieces(
  reply: FastifyReply,
  text: Iterable<string | Uint8Array>,
): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(textStream(text[Symbol.iterator]()));
}
