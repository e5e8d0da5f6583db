/** The JSON error body of every endpoint outside the SQL envelope. */
import { z } from 'zod';

export const ErrorBody = z.object({
  error_code: z.number().int(),
  error_message: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
