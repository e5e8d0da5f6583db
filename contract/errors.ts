/**
 * The JSON error body of every endpoint outside the SQL envelope: MindsDB's problem details
 * (RFC 7807 `title` and `detail`, sent as `application/problem+json`), with this instance's stable
 * `error_code` and `error_message` beside them.
 */
import { z } from 'zod';

export const ErrorBody = z.object({
  /** A short summary of the kind of problem (the HTTP status's reason phrase). */
  title: z.string(),
  /** What went wrong with this request; the same text as `error_message`. */
  detail: z.string(),
  error_code: z.number().int(),
  error_message: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** MindsDB's own error body (`http_error`): what a client of either kind can rely on. */
export const ProblemDetails = z.object({ title: z.string(), detail: z.string() }).loose();
export type ProblemDetails = z.infer<typeof ProblemDetails>;
