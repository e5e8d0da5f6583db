/**
 * The route-table entries of routes other modules register with plain Fastify calls (SQL, status,
 * login/logout, databases, files), with schemas from the contract, so the OpenAPI document covers
 * them too. The openapi test names a registered route that has no entry here or in `serve()`.
 */
import { z } from 'zod';
import {
  DatabaseList,
  FileInfo,
  FileList,
  FileName,
  FileUrlImport,
  LoginResponse,
  LogoutResponse,
  PingResponse,
  SqlErrorResponse,
  SqlQueryRequest,
  SqlQueryResponse,
  StatusResponse,
} from '../../contract';
import { LoginRequest } from './auth';
import { ERROR_RESPONSES, problem, type ApiRoute, type ResponseDoc } from './route-table';

const SqlEnvelopeError = (description: string): ResponseDoc => ({
  description,
  schema: SqlErrorResponse,
});

/**
 * Routes registered with plain Fastify calls elsewhere. Owners of those modules: when you add or
 * change a route, add or change its entry here (the openapi test names the missing one).
 */
export const FOREIGN_ROUTES: readonly ApiRoute[] = [
  {
    method: 'POST',
    path: '/api/sql/query',
    operationId: 'sqlQuery',
    tag: 'sql',
    summary: 'Execute an SQL statement',
    description:
      'HTTP 200 for every statement the engine processed, including SQL errors (`type: "error"`). `context.db` is the current database; send back the returned context. `"response_format": "jsonlines"` (`application/jsonlines`) and `"sse"` (`text/event-stream`) stream a table as MindsDB does: a header document `{"type": "table", "column_names": [...]}` (plus `context`, `column_types`, `row_limit`), then documents that are bare arrays of rows, one JSON document per line or per `data:` event; `sse` ends with the comment `: {"type":"end","row_count":n,"truncated":bool}`. An ok or error result is one document, as in the JSON form.',
    body: SqlQueryRequest,
    bodyRequired: true,
    responses: {
      200: {
        description:
          'A table, an acknowledgement or an SQL error (`application/json`; the streamed forms for `response_format` `jsonlines` and `sse`)',
        schema: SqlQueryResponse,
      },
      400: SqlEnvelopeError('Body not JSON, or `query` missing or not a string'),
      401: SqlEnvelopeError('Authentication required (only when auth is enabled)'),
      413: SqlEnvelopeError('Body or query over the size limit'),
      415: SqlEnvelopeError('Content-Type is not JSON'),
    },
  },
  {
    method: 'GET',
    path: '/api/status',
    operationId: 'getStatus',
    tag: 'instance',
    summary: 'Version, environment and whether auth is on and this request is authenticated',
    public: true,
    responses: {
      200: {
        description:
          'Instance status: `mindsdb_version` (what MindsDB clients read), `environment`, `auth`, and the query pool',
        schema: StatusResponse,
      },
    },
  },
  {
    method: 'GET',
    path: '/api/util/ping',
    operationId: 'ping',
    tag: 'instance',
    summary: 'Liveness check: `{"status": "ok"}` while the instance serves HTTP',
    public: true,
    responses: { 200: { description: 'Alive', schema: PingResponse } },
  },
  {
    method: 'POST',
    path: '/api/login',
    operationId: 'login',
    tag: 'auth',
    summary: 'Log in: sets the `session` cookie and returns the token for `Authorization: Bearer`',
    description:
      'When auth is disabled, answers `{"ok": true, "auth": "disabled"}` without reading the body.',
    public: true,
    body: LoginRequest,
    responses: {
      200: { description: 'Logged in (or auth disabled)', schema: LoginResponse },
      400: ERROR_RESPONSES.badInput,
      401: problem('Wrong username or password'),
      429: problem('Too many failed attempts from this address'),
    },
  },
  {
    method: 'POST',
    path: '/api/logout',
    operationId: 'logout',
    tag: 'auth',
    summary: 'Revoke the session and clear the cookie',
    responses: {
      200: { description: 'Logged out', schema: LogoutResponse },
      401: ERROR_RESPONSES.unauthorized,
    },
  },
  {
    method: 'GET',
    path: '/api/databases',
    operationId: 'listDatabases',
    tag: 'files',
    summary: 'Databases as SHOW FULL DATABASES lists them (never connection parameters)',
    responses: {
      200: { description: 'One entry per database', schema: DatabaseList },
      401: ERROR_RESPONSES.unauthorized,
    },
  },
  {
    method: 'GET',
    path: '/api/files',
    operationId: 'listFiles',
    tag: 'files',
    summary: 'Uploaded files (tables of the `files` database)',
    responses: {
      200: { description: 'One entry per file', schema: FileList },
      401: ERROR_RESPONSES.unauthorized,
    },
  },
  {
    method: 'PUT',
    path: '/api/files/{name}',
    fastifyUrl: '/api/files/*',
    operationId: 'uploadFile',
    tag: 'files',
    summary:
      'Upload a file, or import one from a URL, as table `files.<name>` (replaces one of that name)',
    description:
      "A multipart form with a `file` field (MindsDB's form: `source_type`, `original_file_name` fields are accepted), or the raw bytes with Content-Type text/csv, application/json, application/octet-stream or a parquet type. Streams to disk; the upload limit (MAX_UPLOAD_BYTES) applies instead of the JSON body limit. A JSON object with `source_type: \"url\"` is MindsDB's URL import: the instance downloads `source` (http/https, public addresses only unless URL_IMPORT_ALLOWED_HOSTS names the host, redirects re-checked, MAX_UPLOAD_BYTES and URL_IMPORT_TIMEOUT_MS apply). Any other JSON body is the file's content.",
    params: z.object({ name: FileName }),
    requestContent: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: { file: { type: 'string', format: 'binary' } },
          required: ['file'],
        },
      },
      'text/csv': { schema: { type: 'string' } },
      'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
      'application/json': { schema: { $ref: '#/components/schemas/FileUrlImport' } },
    },
    requestSchemas: [FileUrlImport],
    responses: {
      200: { description: 'The imported file', schema: FileInfo },
      400: problem(
        'Bad input: a bad name, an unreadable file, or a URL that is refused (scheme, non-public address) or fails (status, size, timeout)',
      ),
      401: ERROR_RESPONSES.unauthorized,
      413: problem('File over the upload limit'),
    },
  },
  {
    method: 'DELETE',
    path: '/api/files/{name}',
    fastifyUrl: '/api/files/*',
    operationId: 'deleteFile',
    tag: 'files',
    summary: 'Delete an uploaded file',
    params: z.object({ name: FileName }),
    responses: {
      200: { description: 'Deleted', schema: z.object({ name: z.string() }) },
      400: ERROR_RESPONSES.badInput,
      401: ERROR_RESPONSES.unauthorized,
      404: problem('No such file'),
    },
  },
];
