/**
 * The JSON error body of every endpoint outside the SQL envelope: MindsDB's problem details
 * (RFC 7807 `title` and `detail`, sent as `application/problem+json`), with this instance's stable
 * `error_code` and `error_message` beside them.
 */
import { z } from 'zod';

/**
 * Where in the SQL an error is: 1-based line and column of the whole text sent as `query` (not of
 * the one statement of a script). `error_message` says the same in words, at its end:
 * `... (line 2, column 7)`. This instance's extension: a MindsDB server does not send it.
 */
export const ErrorPosition = z.object({
  line: z.number().int().min(1),
  column: z.number().int().min(1),
});
export type ErrorPosition = z.infer<typeof ErrorPosition>;

export const ErrorBody = z.object({
  /** A short summary of the kind of problem (the HTTP status's reason phrase). */
  title: z.string(),
  /** What went wrong with this request; the same text as `error_message`. */
  detail: z.string(),
  /** When the error happened, as MindsDB writes it: `YYYY-MM-DD HH:MM:SS.ffffff`, local time. */
  timestamp: z.string(),
  error_code: z.number().int(),
  error_message: z.string(),
  /** Where in the SQL, for an error about a place in it (this instance's extension). */
  error_position: ErrorPosition.optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** MindsDB's own error body (`http_error`): what a client of either kind can rely on. */
export const ProblemDetails = z.object({ title: z.string(), detail: z.string() }).loose();
export type ProblemDetails = z.infer<typeof ProblemDetails>;
