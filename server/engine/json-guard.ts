/**
 * DuckDB's JSON functions that recurse once per level of nesting, and so end the whole process
 * with SIGSEGV on input nested deeply enough (DuckDB 1.5.6, the newest release on npm:
 * `json_structure(repeat('[', 100000) || repeat(']', 100000))` at ~80,000 levels), and the JSON
 * nesting limit (JSON_MAX_DEPTH) that keeps input away from them: uploads and URL imports deeper
 * than the limit are refused before DuckDB reads them (`JsonDepthMeter`), and a client statement
 * calling one of these functions has each argument checked by `json_depth_guard` first (a scalar
 * function registered on the engine: the input passes unchanged when it is nested no deeper than
 * the limit, and the statement fails with a clear message otherwise).
 *
 * The rewrite works on the statement guard's tokens (guard.ts's scanner, which knows DuckDB's
 * quoting), so no spelling of the name (any case, quoted, schema-qualified) escapes it.
 */
import { DuckDBScalarFunction, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import { ERROR_CODES, ServiceError } from '../errors';
import { scanSql, type Token } from './guard';

/** Recurse on the nesting of their JSON input (json_structure and its aggregate). */
const RECURSE_ON_INPUT = new Set(['json_structure', 'json_group_structure']);
/** Recurse on the nesting of their structure argument (the second; the first in method form). */
const RECURSE_ON_STRUCTURE = new Set([
  'json_transform',
  'json_transform_strict',
  'from_json',
  'from_json_strict',
]);

/** Every function name this module guards (lower case): the SQL layer's classification lists them. */
export const DEEP_JSON_FUNCTIONS: readonly string[] = [
  ...RECURSE_ON_INPUT,
  ...RECURSE_ON_STRUCTURE,
];

const JSON_DEPTH_GUARD = 'json_depth_guard';

/** Nesting depth of JSON text (arrays and objects), strings skipped; linear, no recursion. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) max = depth;
    } else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/**
 * Counts the nesting of a JSON byte stream as it passes (uploads, URL imports), in constant
 * memory: `push` each chunk, read `max`. Byte-wise: the structural characters are ASCII, and no
 * byte of a multi-byte UTF-8 character is ASCII.
 */
export class JsonDepthMeter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  max = 0;

  push(chunk: Uint8Array): void {
    let { depth, max, inString, escaped } = this;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 92) escaped = true;
        else if (c === 34) inString = false;
      } else if (c === 34) inString = true;
      else if (c === 91 || c === 123) {
        if (++depth > max) max = depth;
      } else if (c === 93 || c === 125) depth--;
    }
    Object.assign(this, { depth, max, inString, escaped });
  }
}

export function tooDeep(what: string, depth: number, limit: number): ServiceError {
  return new ServiceError(
    ERROR_CODES.BAD_INPUT,
    `${what} is nested ${depth} levels deep; the limit is ${limit} (JSON_MAX_DEPTH): DuckDB's JSON reader and functions can crash on deeper nesting`,
  );
}

/** Registers `json_depth_guard(VARCHAR) -> VARCHAR` on the engine (once per DuckDB instance). */
export function registerJsonDepthGuard(conn: DuckDBConnection, limit: number): void {
  conn.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: JSON_DEPTH_GUARD,
      returnType: VARCHAR,
      parameterTypes: [VARCHAR],
      mainFunction: (info, input, output) => {
        const v = input.getColumnVector(0);
        for (let r = 0; r < input.rowCount; r++) {
          const s = v.getItem(r) as string | null;
          // Text shorter than the limit cannot be nested deeper than it.
          if (s !== null && s.length > limit) {
            const d = jsonDepth(s);
            if (d > limit) {
              info.setError(tooDeep('A JSON value', d, limit).message);
              return;
            }
          }
          output.setItem(r, s);
        }
        output.flush();
      },
    }),
  );
}

/** A client statement with the guarded calls' arguments wrapped, and the map back to its offsets. */
export interface GuardedText {
  sql: string;
  /** Maps an offset in `sql` to the offset in the statement as written. */
  toOriginal: (offset: number) => number;
}

const isName = (t: Token | undefined) => !!t && (t.kind === 'word' || t.kind === 'ident');
const isPunct = (t: Token | undefined, p: string) => t?.kind === 'punct' && t.value === p;

/**
 * The top-level arguments of the call whose `(` is token `open`, as text spans between their
 * delimiters (the scanner drops numbers, so spans come from the `(`, `,` and `)` tokens), and the
 * index of the closing `)`.
 */
function callArguments(sql: string, ts: Token[], open: number) {
  const args: { start: number; end: number }[] = [];
  let depth = 0;
  let from = ts[open].end;
  for (let k = open; k < ts.length; k++) {
    const t = ts[k];
    if (isPunct(t, '(') || isPunct(t, '[') || isPunct(t, '{')) depth++;
    else if (isPunct(t, ')') || isPunct(t, ']') || isPunct(t, '}')) {
      if (--depth === 0) {
        if (args.length > 0 || sql.slice(from, t.start).trim() !== '')
          args.push({ start: from, end: t.start });
        return { args, close: k };
      }
    } else if (depth === 1 && isPunct(t, ',')) {
      args.push({ start: from, end: t.start });
      from = t.end;
    }
  }
  return null;
}

/**
 * Wraps the input of every call of a deep-recursing JSON function in `json_depth_guard(...)`, and
 * checks a structure argument (which DuckDB needs constant) right here: it must be a string
 * literal nested no deeper than `limit`. Returns null when the statement calls none of them.
 */
export function guardJsonCalls(sql: string, limit: number): GuardedText | null {
  const ts = scanSql(sql);
  const inserts: { at: number; text: string }[] = [];
  for (let k = 0; k < ts.length; k++) {
    const t = ts[k];
    if (!isName(t) || !isPunct(ts[k + 1], '(')) continue;
    const name = t.value.toLowerCase();
    const onInput = RECURSE_ON_INPUT.has(name);
    if (!onInput && !RECURSE_ON_STRUCTURE.has(name)) continue;
    const call = callArguments(sql, ts, k + 1);
    if (!call) continue; // unbalanced: DuckDB refuses the statement
    if (onInput) {
      // `x.json_structure()`: the input stands before the dot, where it cannot be checked.
      if (call.args.length === 0) {
        throw new ServiceError(
          ERROR_CODES.FORBIDDEN,
          `Call ${name}(x) as a function, with its argument in the parentheses: it is checked for deep nesting first, since DuckDB can crash on deeply nested JSON`,
        );
      }
      for (const a of call.args) {
        inserts.push({ at: a.start, text: `${JSON_DEPTH_GUARD}((` });
        inserts.push({ at: a.end, text: ')::JSON::VARCHAR)::JSON' });
      }
    } else {
      const structure = call.args.length === 1 ? call.args[0] : call.args[1];
      const inside = structure
        ? ts.filter((x) => x.start >= structure.start && x.start < structure.end)
        : [];
      const lit = inside.length === 1 && inside[0].kind === 'string' ? inside[0] : null;
      if (!lit) {
        throw new ServiceError(
          ERROR_CODES.FORBIDDEN,
          `${name}(json, structure) takes its structure as a string literal here, e.g. ${name}(j, '{"a": "INTEGER"}'): DuckDB can crash on a deeply nested structure`,
        );
      }
      const d = jsonDepth(lit.value);
      if (d > limit) throw tooDeep(`The structure of ${name}`, d, limit);
    }
  }
  if (inserts.length === 0) return null;
  inserts.sort((a, b) => a.at - b.at);
  let out = '';
  let pos = 0;
  const placed: { outStart: number; len: number; at: number }[] = [];
  for (const ins of inserts) {
    out += sql.slice(pos, ins.at);
    placed.push({ outStart: out.length, len: ins.text.length, at: ins.at });
    out += ins.text;
    pos = ins.at;
  }
  out += sql.slice(pos);
  return {
    sql: out,
    toOriginal(offset) {
      let inserted = 0;
      for (const p of placed) {
        if (offset < p.outStart) break;
        // Inside an inserted text: where it was inserted.
        if (offset < p.outStart + p.len) return p.at;
        inserted += p.len;
      }
      return offset - inserted;
    },
  };
}
