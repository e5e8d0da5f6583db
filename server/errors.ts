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

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly httpStatus: number;
  constructor(code: ErrorCode, message: string, httpStatus?: number) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.httpStatus = httpStatus ?? DEFAULT_STATUS[code];
  }
}

export const notFound = (message: string) => new ServiceError(ERROR_CODES.NOT_FOUND, message);
export const badInput = (message: string) => new ServiceError(ERROR_CODES.BAD_INPUT, message);
