/**
 * Maps DuckDB's exceptions to ServiceErrors: picks the error code from DuckDB's error class and
 * turns the caret under `LINE n:` into the error's position (data, not text) in the script the
 * user wrote.
 */
import { closestName, ERROR_CODES, ServiceError, type ErrorCode } from '../errors';
import { lineColumn } from './position';

const CLASS_CODES: [RegExp, ErrorCode][] = [
  [/^Parser Error/i, ERROR_CODES.SYNTAX],
  [/^Catalog Error/i, ERROR_CODES.NOT_FOUND],
  [/^Binder Error/i, ERROR_CODES.NOT_FOUND],
  [
    /^(Conversion|Invalid Input|Out of Range|Constraint|Not implemented|Dependency|Invalid) Error/i,
    ERROR_CODES.BAD_INPUT,
  ],
  [/^Permission Error/i, ERROR_CODES.FORBIDDEN],
  [/^IO Error/i, ERROR_CODES.BAD_INPUT],
  [/^(Interrupt|INTERRUPT) Error/i, ERROR_CODES.TIMEOUT],
  [/^Out of Memory Error/i, ERROR_CODES.TOO_LARGE],
  [/^Transaction(Context)? Error/i, ERROR_CODES.CONFLICT],
];

const DISK_FULL = /No space left on device|Disk quota exceeded|disk is full/i;

/** The name DuckDB's first line says it does not know (column, table or function). */
const UNKNOWN_NAME = [
  /Referenced column "([^"]+)" not found/,
  /does not have a column named "([^"]+)"/,
  /Table with name "?([^" ]+)"? does not exist/,
  /Function with name "?([^" ]+)"? does not exist/,
];

/**
 * DuckDB's own guess for a misspelt name (its "Did you mean" and "Candidate bindings" lines, which
 * it ranks by similarity), kept when it is a plain name close enough to be a typo: ` Did you mean
 * "location"?`, or ''.
 */
function engineSuggestion(raw: string, firstLine: string): string {
  const unknown = UNKNOWN_NAME.map((re) => re.exec(firstLine)?.[1]).find(Boolean);
  const listed = /(?:Did you mean|Candidate bindings:[ :]*)(.*)/.exec(
    raw.split('\n').slice(1).join('\n'),
  );
  if (!unknown || !listed) return '';
  const names = [...listed[1].matchAll(/"([^"]+)"/g)]
    .map((m) => m[1].split('.').pop() ?? '')
    .filter((n) => /^[A-Za-z_][\w$]*$/.test(n));
  const best = closestName(unknown.split('.').pop() ?? unknown, names);
  return best ? ` Did you mean "${best}"?` : '';
}

/** Finds "LINE n: <text>\n<spaces>^" and returns the column of the caret inside <text>. */
function caretPosition(
  message: string,
): { line: number; col: number; snippetStart: string } | null {
  const m = /LINE (\d+): (.*)\n( *)\^/.exec(message);
  if (!m) return null;
  const line = Number(m[1]);
  const prefixLen = `LINE ${m[1]}: `.length;
  const col = m[3].length - prefixLen + 1;
  return { line, col, snippetStart: m[2] };
}

/**
 * @param statement the SQL text DuckDB saw
 * @param offsetInScript where that text starts in what the user sent, so positions point into it
 * @param script what the user sent
 * @param sourceOffset maps an offset in `statement` to one in `script` (SQL the instance rewrote)
 */
export function fromDuckDBError(
  err: unknown,
  statement: string,
  offsetInScript = 0,
  script = statement,
  sourceOffset?: (offsetInStatement: number) => number,
): ServiceError {
  if (err instanceof ServiceError) return err;
  const raw = (err instanceof Error ? err.message : String(err)).replace(
    /^Failed to extract statements: /,
    '',
  );
  const firstLine = raw.split('\n')[0].trim();
  if (DISK_FULL.test(raw)) {
    // Whatever DuckDB's error class (IO, TransactionContext on commit), it is the disk.
    return new ServiceError(
      ERROR_CODES.INTERNAL,
      `Disk full: the statement could not be written and changed nothing. Free some space and try again (${firstLine})`,
      507,
    );
  }
  const code = CLASS_CODES.find(([re]) => re.test(raw))?.[1] ?? ERROR_CODES.BAD_INPUT;
  let position: { line: number; column: number } | undefined;
  const caret = caretPosition(raw);
  if (caret) {
    // DuckDB may elide long lines ("..."), so locate the echoed snippet when it is verbatim.
    const lines = statement.split('\n');
    const srcLine = lines[caret.line - 1] ?? '';
    let col = caret.col;
    const echoed = caret.snippetStart.replace(/^\.\.\./, '');
    if (caret.snippetStart.startsWith('...')) {
      const at = srcLine.indexOf(echoed.slice(0, 20));
      if (at >= 0) col = at + caret.col - 3;
    }
    const offset =
      lines.slice(0, caret.line - 1).reduce((n, l) => n + l.length + 1, 0) + Math.max(0, col - 1);
    position = lineColumn(script, sourceOffset ? sourceOffset(offset) : offsetInScript + offset);
  } else if (code === ERROR_CODES.SYNTAX && (offsetInScript > 0 || sourceOffset)) {
    // No caret: the statement's start, so a script's failing statement is found.
    position = lineColumn(script, sourceOffset ? sourceOffset(0) : offsetInScript);
  }
  return new ServiceError(code, firstLine + engineSuggestion(raw, firstLine), undefined, position);
}
