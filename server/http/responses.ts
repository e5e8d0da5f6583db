/**
 * Pieces of route declarations every route file uses: answers as OpenAPI response objects whose
 * schemas are the contract's (so the document references them by name), the errors most routes
 * can answer, and the spec's `/v1/api` prefix.
 */
import type { z } from 'zod';
import { ErrorBody } from '../../contract';

/** The spec's versioned prefix: `/v1/api/api/projects/...` serves the same as `/api/projects/...`. */
export const V1_PREFIX = '/v1/api';

/** The media type of error bodies outside the SQL envelope (MindsDB's). */
const PROBLEM_TYPE = 'application/problem+json';

/** A response with a body of one media type (JSON unless named). */
export const answer = <S extends z.ZodType>(
  description: string,
  schema: S,
  type = 'application/json',
) => ({ description, content: { [type]: { schema } } as Record<string, { schema: S }> });

/** An error answer outside the SQL envelope. */
export const problem = (description: string) => answer(description, ErrorBody, PROBLEM_TYPE);

/** Errors every JSON route can answer. */
export const ERROR_RESPONSES = {
  badInput: problem('Bad input: the message names the problem'),
  unauthorized: problem('Authentication required (only when auth is enabled)'),
  notFound: problem('Unknown project, model or version'),
  tooLarge: problem('Request body over the size limit'),
  unsupportedType: problem("Content-Type is not JSON; send 'Content-Type: application/json'"),
};
