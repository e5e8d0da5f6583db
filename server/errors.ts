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
