/**
 * The one error type that crosses layers. Every failure a user can cause is a ServiceError with a
 * stable integer code from ERROR_CODES (documented in the README) and the HTTP status it maps to
 * when it ends an HTTP request outside the SQL envelope.
 */
export const ERROR_CODES = {
  /** SQL that the parser rejects. */
  SYNTAX: 1,
  /** A database, schema, table, column, project or model that does not exist. */
  NOT_FOUND: 2,
  /** A request or statement that is well-formed but invalid (types, arguments, division by zero...). */
  BAD_INPUT: 3,
  /** A model exists but is not `complete` (generating, training or error). */
  MODEL_NOT_READY: 4,
  /** The statement ran longer than the statement timeout and was interrupted. */
  TIMEOUT: 5,
  /** A request body or result that exceeds a documented limit. */
  TOO_LARGE: 6,
  /** Something exists already (CREATE without IF NOT EXISTS / OR REPLACE). */
  CONFLICT: 7,
  /** Authentication required or failed. */
  UNAUTHORIZED: 8,
  /** The instance is overloaded (queue full). */
  BUSY: 9,
  /** Not allowed in this configuration (file system access with auth on, ...). */
  FORBIDDEN: 10,
  /** A bug or an unexpected engine failure. Logged with the request id. */
  INTERNAL: 99,
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

const DEFAULT_STATUS: Record<ErrorCode, number> = {
  1: 400,
  2: 404,
  3: 400,
  4: 409,
  5: 408,
  6: 413,
  7: 409,
  8: 401,
  9: 503,
  10: 403,
  99: 500,
};

/**
 * Where in the SQL the client sent an error is: 1-based line and column of the whole script (not
 * of the one statement), so an editor marks it as it is. Kept as data; the HTTP edge formats it
 * once (`withPosition`) and also sends it as a field.
 */
export interface ErrorPosition {
  line: number;
  column: number;
}

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly httpStatus: number;
  /** Where the SQL went wrong, if the error is about a place in it. Not part of `message`. */
  readonly position?: ErrorPosition;
  constructor(code: ErrorCode, message: string, httpStatus?: number, position?: ErrorPosition) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.httpStatus = httpStatus ?? DEFAULT_STATUS[code];
    if (position) this.position = position;
  }
}

/** A message with its position as users read it: `... (line 2, column 7)`. */
export function withPosition(message: string, position: ErrorPosition | undefined): string {
  return position ? `${message} (line ${position.line}, column ${position.column})` : message;
}

export const notFound = (message: string) => new ServiceError(ERROR_CODES.NOT_FOUND, message);
export const badInput = (message: string) => new ServiceError(ERROR_CODES.BAD_INPUT, message);

/** Edit distance (insert, delete, replace, swap two neighbours), case-insensitive. */
function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= t.length; j++) d[0][j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[s.length][t.length];
}

/**
 * The name a misspelt one most likely meant, among the names the instance knows: the closest by
 * edit distance, if close enough to be a typo (a third of the name's length, at least 1).
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestD = limit + 1;
  for (const k of known) {
    if (k.toLowerCase() === name.toLowerCase()) continue;
    const dist = editDistance(name, k);
    if (dist < bestD) [best, bestD] = [k, dist];
  }
  return best;
}

/** ` Did you mean "x"?` for a misspelt name, or '' when no known name is close. */
export function didYouMean(name: string, known: Iterable<string>): string {
  const best = closestName(name, known);
  return best ? ` Did you mean "${best}"?` : '';
}
