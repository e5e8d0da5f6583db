/**
 * The wire contract between the playground and any instance (ours or a real MindsDB server):
 * zod schemas and their inferred types for every request and response body. The server validates
 * its input with these schemas and generates its OpenAPI document from them; the SPA parses every
 * response with them. One place, so the two halves cannot drift.
 */
export * from './catalog';
export * from './classify';
export * from './errors';
export * from './evaluation';
export * from './files';
export * from './models';
export * from './monitoring';
export * from './sql';
export * from './status';
export * from './warning-words';
