/**
 * Uploaded files, as the real service exposes them: `PUT /api/files/{name}` (multipart form with
 * a `file` field, or the raw bytes with Content-Type text/csv, application/json,
 * application/octet-stream or a parquet type; or MindsDB's JSON `{"source_type": "url", "source"}`,
 * a URL import), `GET /api/files`, `DELETE /api/files/{name}`.
 *
 * These routes are their own encapsulated plugin because they read bodies as streams: the app's
 * JSON parsers are replaced here by a pass-through, so an upload goes to disk as it arrives
 * instead of being buffered (the app-wide body limit does not apply; MAX_UPLOAD_BYTES does), and
 * the body is documented through `config.openapi` rather than validated by a `schema`. The
 * `{name}` segment is matched as a wildcard so that `a/b` or `../x` reach the handler and get a
 * specific 400 instead of a misleading 404.
 */
import type { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES, ServiceError, badInput } from '../../errors';
import type { Instance } from '../../instance';
import { FileInfo, FileList, FileName, FileUrlImport } from '../../../contract';
import {
  UPLOAD_TYPES,
  deleteFile,
  detectFormat,
  discardUpload,
  importFromUrl,
  importUpload,
  listFiles,
  receiveUpload,
  requestFormOf,
  validateFileName,
} from '../../integrations/files';
import { mediaType } from '../guard';
import { answer, ERROR_RESPONSES, problem } from '../responses';
import { validate } from '../validate';

function nameParam(req: FastifyRequest): string {
  const raw = (req.params as Record<string, string | undefined>)['*'] ?? '';
  let name = raw;
  try {
    // Undo a second layer of encoding too (`%252e%252e`), so no spelling of '..' gets through.
    name = decodeURIComponent(raw);
  } catch {
    // keep raw: validation rejects the '%'
  }
  return validateFileName(name);
}

const FILE_PARAMS = z.object({ name: FileName });

/**
 * A multipart body the parser cannot read (no boundary, cut short, a bad part header) is the
 * client's mistake: a 400 that says so, not busboy's error as a 500. The plugin's own errors
 * (too many parts, a file over the limit) keep their status.
 */
function malformedMultipart(err: unknown): never {
  const e = err as { statusCode?: number; message?: string };
  if (err instanceof ServiceError || (e.statusCode && e.statusCode < 500)) throw err;
  throw badInput(
    `The multipart body is malformed: ${e.message ?? String(err)}. Send a multipart/form-data body with the file in a field named 'file'`,
  );
}

export const fileRoutes: FastifyPluginAsyncZod<{ instance: Instance }> = async (
  app,
  { instance },
) => {
  const catalog = instance.catalog;
  const limit = instance.config.MAX_UPLOAD_BYTES;
  const urlImport = {
    allowedHosts: instance.config.URL_IMPORT_ALLOWED_HOSTS,
    timeoutMs: instance.config.URL_IMPORT_TIMEOUT_MS,
    maxBytes: limit,
  };
  app.removeAllContentTypeParsers();
  await app.register(multipart, {
    limits: { fileSize: limit, files: 1, fields: 20, parts: 25 },
  });
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

  app.route({
    method: 'GET',
    url: '/api/files',
    schema: {
      operationId: 'listFiles',
      tags: ['files'],
      summary: 'Uploaded files (tables of the `files` database)',
      response: {
        200: answer('One entry per file', FileList),
        401: ERROR_RESPONSES.unauthorized,
      },
    },
    handler: async () => (await listFiles(catalog)).map((f) => ({ ...f })),
  });

  app.route({
    method: 'PUT',
    url: '/api/files/*',
    // The request guard admits only these body types here (JSON elsewhere).
    config: {
      bodyTypes: UPLOAD_TYPES,
      openapi: {
        url: '/api/files/{name}',
        params: FILE_PARAMS,
        body: {
          'multipart/form-data': z.object({
            file: z.string().meta({ format: 'binary' }).describe('The file'),
          }),
          'text/csv': z.string(),
          'application/octet-stream': z.string().meta({ format: 'binary' }),
          'application/json': FileUrlImport,
        },
      },
    },
    schema: {
      operationId: 'uploadFile',
      tags: ['files'],
      summary:
        'Upload a file, or import one from a URL, as table `files.<name>` (replaces one of that name)',
      description:
        "A multipart form with a `file` field (MindsDB's form: `source_type`, `original_file_name` fields are accepted), or the raw bytes with Content-Type text/csv, application/json, application/octet-stream or a parquet type. Streams to disk; the upload limit (MAX_UPLOAD_BYTES) applies instead of the JSON body limit. A JSON object with `source_type: \"url\"` is MindsDB's URL import: the instance downloads `source` (http/https, public addresses only unless URL_IMPORT_ALLOWED_HOSTS names the host, redirects re-checked, MAX_UPLOAD_BYTES and URL_IMPORT_TIMEOUT_MS apply). Any other JSON body is the file's content.",
      response: {
        200: answer('The imported file', FileInfo),
        400: problem(
          'Bad input: a bad name, an unreadable file, or a URL that is refused (scheme, non-public address) or fails (status, size, timeout)',
        ),
        401: ERROR_RESPONSES.unauthorized,
        413: problem('File over the upload limit'),
      },
    },
    handler: async (req) => {
      const name = nameParam(req);
      if (req.isMultipart()) {
        const part = await req.file().catch(malformedMultipart);
        if (!part)
          throw badInput(`The multipart upload has no file; send it in a field named 'file'`);
        const up = await receiveUpload(catalog, part.file, limit);
        if (part.file.truncated) {
          throw new ServiceError(
            ERROR_CODES.TOO_LARGE,
            `The file is larger than the upload limit (${limit} bytes, MAX_UPLOAD_BYTES)`,
          );
        }
        // MindsDB's Python SDK names the part after the table (no extension) and sends the
        // real name in `original_file_name`.
        const original = part.fields.original_file_name;
        const originalName =
          original && 'value' in original && typeof original.value === 'string'
            ? original.value
            : undefined;
        const format = detectFormat(up.head, {
          contentType: part.mimetype === 'application/octet-stream' ? undefined : part.mimetype,
          filename: /\.\w+$/.test(part.filename) ? part.filename : (originalName ?? part.filename),
        });
        return { ...(await importUpload(catalog, name, up, format)) };
      }
      const body = req.body as Readable | undefined;
      if (!body || typeof body.pipe !== 'function')
        throw badInput('The file is empty: the request has no body');
      const up = await receiveUpload(catalog, body, limit);
      const ct = req.headers['content-type'];
      const form = mediaType(ct) === 'application/json' ? requestFormOf(up) : null;
      if (form) {
        discardUpload(up);
        const r = validate(FileUrlImport, form);
        return {
          ...(await importFromUrl(catalog, name, r.source, r.original_file_name, urlImport)),
        };
      }
      const format = detectFormat(up.head, {
        contentType: ct === 'application/octet-stream' ? undefined : ct,
      });
      return { ...(await importUpload(catalog, name, up, format)) };
    },
  });

  app.route({
    method: 'DELETE',
    url: '/api/files/*',
    config: { openapi: { url: '/api/files/{name}', params: FILE_PARAMS } },
    schema: {
      operationId: 'deleteFile',
      tags: ['files'],
      summary: 'Delete an uploaded file',
      response: {
        200: answer('Deleted', z.object({ name: z.string() })),
        400: ERROR_RESPONSES.badInput,
        401: ERROR_RESPONSES.unauthorized,
        404: problem('No such file'),
      },
    },
    handler: async (req) => {
      const name = nameParam(req);
      await deleteFile(catalog, name);
      return { name };
    },
  });
};
