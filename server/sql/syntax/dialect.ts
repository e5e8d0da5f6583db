/**
 * MindsDB's (MySQL-flavoured) SQL into SQL DuckDB's parser reads, before that parser sees it.
 * Only lexical differences are handled here, token by token; everything that depends on what a
 * name means is decided later on DuckDB's tree. Each rewrite is recorded, so positions still point
 * at the user's text:
 *
 * - `` `name` `` becomes `"name"`;
 * - `:name` becomes DuckDB's `$name` (values come from the request's params);
 * - `LIMIT offset, count` becomes `LIMIT count OFFSET offset`;
 * - a version after a name, `model.2`, becomes `model."2"` (DuckDB reads `.2` as a number);
 * - `@@name` / `@name` become the quoted names `"@@name"` / `"@name"`, answered on the tree;
 * - `FROM db (native query)` becomes a placeholder table `"__native_N"`: the text inside runs in
 *   `db` itself, in that database's own dialect, so DuckDB must never parse it;
 * - a query's trailing `USING k = v, ...` (MindsDB's options for the models it reads) is cut off.
 */
import { badInput } from '../../errors';
import { applyEdits, unchanged, type Edit, type Rewrite } from './source';
import { isName, isOp, type Tok, type Tokens } from './tokens';

export interface NativeQuery {
  /** The placeholder's table name. */
  placeholder: string;
  /** The database named before the parentheses, as written. */
  db: string;
  /** The text inside the parentheses, and where it starts in the statement. */
  sql: string;
  start: number;
  /** Offsets of the whole `db (...)` span in the statement. */
  spanStart: number;
  spanEnd: number;
}

export interface DialectOptions {
  params?: Record<string, unknown>;
  /** Is this name a database `FROM name (...)` can send a native query to? */
  isDatabase: (name: string) => boolean;
}

export interface DuckText {
  rw: Rewrite;
  natives: NativeQuery[];
  /** `$name` parameters the text uses. */
  usesParams: boolean;
  /** MindsDB's `SELECT ... USING k = v, ...` (options for the models of the query), cut off. */
  using?: { start: number; tokenIndex: number };
}

export const NATIVE_PREFIX = '__native_';

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Index of the `)` matching the `(` at `open` (significant token indexes), or -1. */
function matchParen(sig: Tok[], open: number): number {
  let depth = 0;
  for (let i = open; i < sig.length; i++) {
    if (isOp(sig[i], '(')) depth++;
    else if (isOp(sig[i], ')') && --depth === 0) return i;
  }
  return -1;
}

export function toDuckText(tokens: Tokens, o: DialectOptions, nativeBase = 0): DuckText {
  const sig = tokens.sig;
  const edits: Edit[] = [];
  const natives: NativeQuery[] = [];
  let usesParams = false;
  let using: DuckText['using'];
  let depth = 0;
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i];
    const prev = sig[i - 1];
    if (isOp(t, '(')) depth++;
    else if (isOp(t, ')')) depth--;
    // USING k = v at the top level ends the query (JOIN ... USING (col) has a parenthesis).
    if (
      depth === 0 &&
      t.word === 'USING' &&
      isName(sig[i + 1]) &&
      (isOp(sig[i + 2], '=') || isOp(sig[i + 2], '.'))
    ) {
      using = { start: t.start, tokenIndex: i };
      edits.push({ start: prev ? prev.end : t.start, end: tokens.text.length, text: '' });
      break;
    }
    // FROM db (native SQL): everything up to the matching parenthesis is the database's own SQL.
    // `FROM (db (native SQL)) AS t`, as the Python SDK writes it: the outer parentheses go too.
    const wrapped = isOp(prev, '(') && (sig[i - 2]?.word === 'FROM' || sig[i - 2]?.word === 'JOIN');
    if (
      isName(t) &&
      (prev?.word === 'FROM' || prev?.word === 'JOIN' || wrapped) &&
      isOp(sig[i + 1], '(') &&
      !isOp(sig[i + 2], ')') &&
      o.isDatabase(t.value)
    ) {
      let close = matchParen(sig, i + 1);
      const outer = wrapped && close > 0 && isOp(sig[close + 1], ')');
      if (wrapped && !outer) close = -1;
      if (close > 0) {
        const open = sig[i + 1];
        const raw = tokens.text.slice(open.end, sig[close].start);
        const lead = raw.length - raw.trimStart().length;
        const placeholder = `${NATIVE_PREFIX}${nativeBase + natives.length}`;
        natives.push({
          placeholder,
          db: t.value,
          sql: raw.trim(),
          start: open.end + lead,
          spanStart: outer ? prev.start : t.start,
          spanEnd: outer ? sig[close + 1].end : sig[close].end,
        });
        edits.push({
          start: outer ? prev.start : t.start,
          end: outer ? sig[close + 1].end : sig[close].end,
          text: quoteIdent(placeholder),
        });
        i = outer ? close + 1 : close;
        depth += outer ? -1 : 0;
        continue;
      }
    }
    if (t.kind === 'quoted' && t.quote === '`') {
      edits.push({ start: t.start, end: t.end, text: quoteIdent(t.value) });
    } else if (t.kind === 'param') {
      if (!o.params || !(t.value in o.params)) {
        throw badInput(`Parameter ':${t.value}' has no value in params`);
      }
      usesParams = true;
      edits.push({ start: t.start, end: t.start + 1, text: '$' });
    } else if (t.kind === 'placeholder') {
      usesParams = true;
    } else if (t.kind === 'variable') {
      edits.push({ start: t.start, end: t.end, text: quoteIdent(t.value) });
    } else if (
      t.kind === 'number' &&
      /^\d+$/.test(t.raw) &&
      isOp(prev, '.') &&
      prev.start === sig[i - 2]?.end &&
      prev.end === t.start &&
      isName(sig[i - 2])
    ) {
      // `name.2`: a version. A bare number after a name and a dot is never a column in DuckDB.
      edits.push({ start: t.start, end: t.end, text: `"${t.raw}"` });
    } else if (
      t.word === 'LIMIT' &&
      isLimitValue(sig[i + 1]) &&
      isOp(sig[i + 2], ',') &&
      isLimitValue(sig[i + 3])
    ) {
      // MySQL's LIMIT offset, count.
      const a = sig[i + 1];
      const b = sig[i + 3];
      const val = (x: Tok) => (x.kind === 'param' ? `$${x.value}` : x.raw);
      if (a.kind === 'param' || b.kind === 'param') usesParams = true;
      edits.push({ start: a.start, end: b.end, text: `${val(b)} OFFSET ${val(a)}` });
      i += 3;
    }
  }
  return {
    rw: applyEdits(unchanged(tokens.text), edits),
    natives,
    usesParams,
    ...(using ? { using } : {}),
  };
}

const isLimitValue = (t: Tok | undefined) =>
  !!t && ((t.kind === 'number' && /^\d+$/.test(t.raw)) || t.kind === 'param');
